// The one-click refund from the dashboard's payment page, in headless Chromium against the real app,
// the real worker on the Temporal dev server and a private anvil with Circle's USDC. The payout wallet
// granted the operator a refund allowance by EIP-2612 permit (through the API, in set-up); the merchant
// signs in through the dev identity provider, opens a completed payment, sees what remains refundable
// (the payment less a refund still pending), is refused more, clicks Refund and confirms; the operator's
// transfer reaches `succeeded` and the customer's balance goes up by the amount, once.
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { type Address, type PublicClient, createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import type { ChainSettings } from '../../src/chain/config.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { PERMIT_TYPES } from '../../src/chain/typed-data.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { refundOperatorOf } from '../../src/refunds/allowance.js';
import type { SeededMerchant, TestApp } from '../support/app.js';
import { settingsOf, startPrivateChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { payRelayedSession } from '../support/relayed-session.js';
import { until } from '../support/until.js';
import { signInToDashboard, startDashboardStack, type DashboardStack } from '../support/dashboard-stack.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';

const SCREENSHOT_DIR = '.data/screenshots/dashboard';
const OWNER = { subject: 'dev|refund-owner', email: 'refunds@example.com', name: 'Refund Roastery' };

let chain: DevChain;
let settings: ChainSettings;
let pub: PublicClient;
let db: TestDatabase;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let baseUrl: string;
let dashboard: DashboardStack;
let page: Page;
let operator: Address;

const payout = DEV_ACCOUNTS.merchant.address;
const merchantAccount = privateKeyToAccount(DEV_ACCOUNTS.merchant.privateKey);
const customer = privateKeyToAccount(DEV_ACCOUNTS.payers[2]!.privateKey);

const auth = () => ({ authorization: `Bearer ${merchant.secretKey}` });
const get = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: auth() })).json();
const balanceOf = (who: Address) =>
  pub.readContract({ address: settings.token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [who] });

/** A payment session the customer paid through the relay, completed. */
async function paidSession(amount: bigint): Promise<string> {
  return payRelayedSession({
    app: t.app,
    secretKey: merchant.secretKey,
    pub,
    token: settings.token,
    payer: customer,
    payTo: payout,
    amount,
    keyPrefix: 'dashboard-refund',
  });
}

/** The payout wallet's EIP-2612 permit for the operator, sent through the API as the dashboard does. */
async function grantRefundAllowance(value: bigint): Promise<void> {
  const info = await get('/v1/refunds/allowance');
  const deadline = (await pub.getBlock()).timestamp + 3600n;
  const signature = await merchantAccount.signTypedData({
    domain: { ...info.permit.domain, chainId: BigInt(info.permit.domain.chainId) },
    types: PERMIT_TYPES,
    primaryType: 'Permit',
    message: { owner: payout, spender: operator, value, nonce: BigInt(info.permit.nonce), deadline },
  });
  const granted = await t.app.inject({
    method: 'POST',
    url: '/v1/refunds/allowance/permit',
    headers: auth(),
    payload: { value: value.toString(), deadline: deadline.toString(), signature },
  });
  expect(granted.statusCode, granted.body).toBe(200);
  expect(granted.json()).toMatchObject({ allowance: value.toString() });
}

beforeAll(async () => {
  chain = await startPrivateChain();
  settings = settingsOf(chain.info);
  operator = refundOperatorOf(settings)!;
  pub = createPublicClient({
    chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
    transport: http(chain.info.rpcUrl),
    pollingInterval: 100,
  });
  db = await createTestDatabase();
  temporal = await startDevServerWorker(db.sql, { chain: { test: settings } });
  dashboard = await startDashboardStack({ sql: db.sql, temporal, chain: { test: settings }, owner: OWNER, payout });
  ({ t, merchant, baseUrl, page } = dashboard);
}, 180_000);

afterAll(async () => {
  await dashboard?.close();
  await temporal?.stop();
  await db?.drop();
  await chain?.stop();
});

describe('one-click refund from the payment page', () => {
  it('prefills and caps at what remains refundable, and the refund succeeds on chain once', async () => {
    const sessionId = await paidSession(2_000_000n);
    // Before any allowance: a refund of 0.50 waits for the merchant wallet and reserves its amount.
    const pending = await t.app.inject({
      method: 'POST',
      url: '/v1/refunds',
      headers: auth(),
      payload: { paymentSessionId: sessionId, amount: '500000' },
    });
    expect(pending.json()).toMatchObject({ status: 'pending', method: 'wallet' });
    // Granting the allowance carries it on: the operator sends it (issue 36, item 13).
    await grantRefundAllowance(5_000_000n);
    const carried = await until(
      () => get(`/v1/refunds/${pending.json().id}`),
      (r) => r.status === 'succeeded',
      'the waiting refund carried on',
    );
    expect(carried).toMatchObject({ method: 'allowance' });
    expect((await get(`/v1/payment-sessions/${sessionId}`)).amountRefundable).toBe('1500000');
    const customerBefore = await balanceOf(customer.address);

    await signInToDashboard(page, baseUrl, OWNER.email);
    await page.goto(`${baseUrl}/dashboard/payments/${sessionId}`);
    await page.getByRole('heading', { level: 1, name: 'Payment' }).waitFor();
    expect(await page.getByTestId('amount-refundable').textContent()).toBe('1.50 USDC');

    await page.getByRole('button', { name: `Refund ${sessionId}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund payment' });
    const amount = dialog.locator('input[name="refundAmount"]');
    expect(await amount.inputValue()).toBe('1.5');
    expect(await dialog.textContent()).toContain('Refundable: 1.50 USDC');
    // Who gets it and why, before anything is confirmed.
    await dialog.getByTestId('refund-recipient').filter({ hasText: customer.address }).waitFor();
    expect(await dialog.getByTestId('refund-recipient').textContent()).toBe(
      `Goes to ${customer.address}: the wallet that signed the payment.`,
    );
    // More than remains is refused in the page, before anything is created.
    await amount.fill('2');
    await dialog.getByRole('button', { name: 'Refund 2 USDC' }).click();
    expect(await dialog.getByRole('alert').textContent()).toBe('At most 1.50 USDC remains refundable.');
    expect(await dialog.getByRole('button', { name: 'Confirm refund' }).count()).toBe(0);
    expect(await db.sql`select 1 from refunds where payment_session_id = ${sessionId}`).toHaveLength(1);

    await amount.fill('1.5');
    await dialog.getByRole('button', { name: 'Refund 1.5 USDC' }).click();
    await dialog.getByRole('button', { name: 'Confirm refund' }).click();
    await dialog.getByRole('status').filter({ hasText: 'is being sent from your refund allowance' }).waitFor();

    const [created] = await db.sql<{ id: string }[]>`select id from refunds where payment_session_id = ${sessionId} and amount = 1500000`;
    const done = await until(
      () => get(`/v1/refunds/${created!.id}`),
      (r) => r.status !== 'processing',
      'refund settled',
    );
    expect(done).toMatchObject({ status: 'succeeded', amount: '1500000', method: 'allowance' });
    expect((await pub.getTransactionReceipt({ hash: done.transactionHash })).status).toBe('success');
    // Once: the customer got exactly the amount, and one transfer was recorded for it.
    await new Promise((r) => setTimeout(r, 2000));
    expect(await balanceOf(customer.address)).toBe(customerBefore + 1_500_000n);
    expect(await db.sql`select 1 from chain_transactions where purpose = ${`refund:${created!.id}`}`).toHaveLength(1);

    // The page shows the refund as it is now, and nothing is left to refund (the pending one is reserved).
    await page.reload();
    const timeline = page.getByRole('region', { name: 'Timeline' });
    // Each refund is one of the payment's transactions (GET /v1/payment-sessions/{id}/transactions).
    await timeline.getByText('Refund transaction confirmed').first().waitFor();
    const refunds = await timeline.getByTestId('transaction-refund').allTextContents();
    expect(refunds.filter((text) => text.includes('1.50 USDC') && text.includes(done.transactionHash!))).toHaveLength(1);
    expect(refunds.filter((text) => text.includes('0.50 USDC') && text.includes(carried.transactionHash))).toHaveLength(1);
    expect(await timeline.textContent()).toContain(done.transactionHash);
    expect(await page.getByTestId('amount-refundable').textContent()).toBe('0.00 USDC');
    expect(await page.getByRole('button', { name: `Refund ${sessionId}` }).count()).toBe(0);
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-payment-refunded.png`, fullPage: true });
  });

  it('a refund the allowance does not cover says what it waits for, and the merchant cancels it from the refunds page', async () => {
    // 3 USDC of the 5 granted remain: a 4 USDC refund waits for the payout wallet.
    const sessionId = await paidSession(4_000_000n);
    const waiting = (
      await t.app.inject({ method: 'POST', url: '/v1/refunds', headers: auth(), payload: { paymentSessionId: sessionId } })
    ).json();
    expect(waiting).toMatchObject({ status: 'pending', method: 'wallet', amount: '4000000' });
    expect((await get(`/v1/payment-sessions/${sessionId}`)).amountRefundable).toBe('0');

    await page.goto(`${baseUrl}/dashboard/refunds`);
    const cancel = page.getByRole('button', { name: `Cancel refund ${waiting.id}`, exact: true });
    await cancel.waitFor();
    // The only refund still waiting is this one.
    const row = page.getByRole('row').filter({ has: page.getByTestId('refund-waiting') });
    expect(await row.getByTestId('refund-waiting').textContent()).toContain('grant the refund allowance above');
    expect(await row.textContent()).toContain(customer.address);
    await cancel.click();
    await row.getByRole('button', { name: 'Cancel refund', exact: true }).click();
    await until(
      () => get(`/v1/refunds/${waiting.id}`),
      (r) => r.status === 'cancelled',
      'cancelled',
    );
    await page.getByRole('button', { name: `Cancel refund ${waiting.id}`, exact: true }).waitFor({ state: 'detached' });
    expect((await get(`/v1/payment-sessions/${sessionId}`)).amountRefundable).toBe('4000000');
    expect(await db.sql`select 1 from chain_transactions where purpose = ${`refund:${waiting.id}`}`).toHaveLength(0);
  });
});
