// The hosted refund-claim page (issue 36), in headless Chromium against the real app, the deposit
// indexer, the worker on the Temporal dev server and a private anvil with Circle's USDC. An invoice is
// paid by two wallets, so nobody can be shown to be the payer: the merchant's refund waits for the
// customer (requires_action), the claim link is emailed to the invoice's customer, and the customer
// gives an address on the page (at 390 px and 1280 px): a bad one is refused and changes nothing, a
// good one is taken once, and the operator's refund reaches it on chain.
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { type Address, type PrivateKeyAccount, createWalletClient, erc20Abi, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { refundOperatorOf } from '../../src/refunds/allowance.js';
import { seedMerchant, type SeededMerchant } from '../support/app.js';
import { launchBrowser } from '../support/browser.js';
import { startPaymentsStack, type PaymentsStack } from '../support/payments-stack.js';
import { until } from '../support/until.js';

const SCREENSHOT_DIR = '.data/screenshots/refund-claim';

let stack: PaymentsStack;
let merchant: SeededMerchant;
let baseUrl: string;
let context: BrowserContext;
let userDataDir: string;
let page: Page;

const payout = DEV_ACCOUNTS.merchant.address;
const merchantAccount = privateKeyToAccount(DEV_ACCOUNTS.merchant.privateKey);
const customer = privateKeyToAccount(DEV_ACCOUNTS.payers[1]!.privateKey);
const colleague = privateKeyToAccount(DEV_ACCOUNTS.payers[5]!.privateKey);

beforeAll(async () => {
  stack = await startPaymentsStack({ depositIndexer: true, listen: true });
  baseUrl = `http://127.0.0.1:${(stack.t.app.server.address() as AddressInfo).port}`;
  merchant = await seedMerchant(stack.db.sql, 'Claim Bakery');
  await setPayoutAddress(stack.db.sql, merchant.merchantId, payout);
  ({ context, userDataDir } = await launchBrowser());
  page = await context.newPage();
}, 180_000);
afterAll(async () => {
  await context?.close();
  if (userDataDir) await (await import('node:fs/promises')).rm(userDataDir, { recursive: true, force: true });
  await stack?.stop();
});

const auth = () => ({ authorization: `Bearer ${merchant.secretKey}` });
const get = async (url: string) => (await stack.t.app.inject({ method: 'GET', url, headers: auth() })).json();
const balanceOf = (who: Address) =>
  stack.pub.readContract({ address: stack.settings.token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [who] });

async function send(from: PrivateKeyAccount, to: Address, functionName: 'transfer' | 'approve', value: bigint): Promise<void> {
  const { chain } = stack;
  const wallet = createWalletClient({
    account: from,
    chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
    transport: http(chain.info.rpcUrl),
  });
  const hash = await wallet.writeContract({ address: stack.settings.token, abi: erc20Abi, functionName, args: [to, value], gas: 200_000n });
  expect((await waitForDevReceipt(stack.pub, hash)).status).toBe('success');
}

describe('the hosted refund-claim page', () => {
  it('several senders paid: the customer names the address once, and the refund reaches it on chain', async () => {
    await send(merchantAccount, refundOperatorOf(stack.settings)!, 'approve', 10_000_000n);
    const created = await stack.t.app.inject({
      method: 'POST',
      url: '/v1/invoices',
      headers: { ...auth(), 'idempotency-key': `claim-invoice-${Date.now()}` },
      payload: { customerEmail: 'ada@example.com', lineItems: [{ description: 'Wedding cake', quantity: 1, unitAmount: '3000000' }] },
    });
    expect(created.statusCode, created.body).toBe(200);
    const invoice = created.json();
    const session = await get(`/v1/payment-sessions/${invoice.sessionId}`);
    await send(customer, session.deposit.address, 'transfer', 2_000_000n);
    await until(
      () => get(`/v1/payment-sessions/${session.id}`),
      (s) => s.deposit.amountReceived === '2000000',
      'first part credited',
    );
    await send(colleague, session.deposit.address, 'transfer', 1_000_000n);
    await until(
      () => get(`/v1/payment-sessions/${session.id}`),
      (s) => s.status === 'completed',
      'completed',
    );

    expect(await get(`/v1/refunds/recipient?paymentSessionId=${session.id}`)).toMatchObject({ recipient: null, requiresClaim: true });
    const res = await stack.t.app.inject({
      method: 'POST',
      url: '/v1/refunds',
      headers: auth(),
      payload: { invoiceId: invoice.id, amount: '2500000' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const refund = res.json();
    expect(refund).toMatchObject({ status: 'requires_action', recipient: null });
    const path = new URL(refund.claimUrl).pathname;
    // The link goes to the invoice's customer by email.
    const [email] = await stack.db.sql<{ toAddress: string; textBody: string }[]>`
      select to_address as "toAddress", text_body as "textBody" from outbound_emails where kind = 'refund_claim' and merchant_id = ${merchant.merchantId}`;
    expect(email).toMatchObject({ toAddress: 'ada@example.com' });
    expect(email!.textBody).toContain(refund.claimUrl);

    await page.setViewportSize({ width: 390, height: 844 });
    const shown = await page.goto(`${baseUrl}${path}`);
    expect(shown!.status()).toBe(200);
    expect(shown!.headers()['content-security-policy']).toContain("form-action 'self'");
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Refund from Claim Bakery');
    expect(await page.getByTestId('claim-amount').textContent()).toBe('2.50 USDC');
    expect(await page.locator('script').count()).toBe(0);
    // Nothing overflows the phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOT_DIR}/claim-390.png`, fullPage: true });

    // Refused, and nothing changes: the zero address, the deposit address, a wrong checksum.
    const wrongChecksum =
      customer.address.slice(0, 2) + customer.address.slice(2, 12).toLowerCase() + customer.address.slice(12).toUpperCase();
    for (const [address, message] of [
      ['0x0000000000000000000000000000000000000000', 'zero address'],
      [session.deposit.address, 'deposit address'],
      [wrongChecksum, 'checksum'],
    ] as const) {
      await page.getByLabel('Your wallet address').fill(address);
      await page.getByRole('button', { name: 'Send my refund to this address' }).click();
      await page.getByRole('alert').filter({ hasText: message }).waitFor();
      expect((await get(`/v1/refunds/${refund.id}`)).status).toBe('requires_action');
    }

    await page.setViewportSize({ width: 1280, height: 800 });
    const customerBefore = await balanceOf(customer.address);
    await page.getByLabel('Your wallet address').fill(customer.address);
    await page.getByRole('button', { name: 'Send my refund to this address' }).click();
    await page.getByRole('status').filter({ hasText: 'Your refund is on its way' }).waitFor();
    expect(await page.getByTestId('claim-recipient').textContent()).toBe(customer.address);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/claimed-1280.png`, fullPage: true });

    const done = await until(
      () => get(`/v1/refunds/${refund.id}`),
      (r) => r.status === 'succeeded' || r.status === 'failed',
      'claimed refund settled',
    );
    expect(done).toMatchObject({
      status: 'succeeded',
      method: 'allowance',
      recipient: customer.address,
      recipientSource: 'customer_claimed',
      claimUrl: null,
    });
    expect(done.claimedAt).not.toBeNull();
    expect(await balanceOf(customer.address)).toBe(customerBefore + 2_500_000n);

    // Once an address is set, another claim is refused and changes nothing.
    const again = await stack.t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `address=${colleague.address}`,
    });
    expect(again.statusCode).toBe(409);
    expect((await get(`/v1/refunds/${refund.id}`)).recipient).toBe(customer.address);
    await page.goto(`${baseUrl}${path}`);
    await page.getByRole('status').filter({ hasText: 'has been sent' }).waitFor();
    expect(await page.getByLabel('Your wallet address').count()).toBe(0);
    // An unknown link is a plain 404.
    const unknown = await page.goto(`${baseUrl}/refund-claims/${'A'.repeat(43)}`);
    expect(unknown!.status()).toBe(404);
  });
});
