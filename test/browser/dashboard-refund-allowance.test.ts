// The dashboard's refund-allowance card on a mode with two chains (issue 39), in headless Chromium against the real
// app and two anvils with Circle's USDC: each chain's allowance is read from its own chain and shown under its
// name (chain A's granted through the API in set-up, chain B's none); granting chain B's from the card asks the
// payout wallet (on chain A) to switch to chain B, signs chain B's permit and leaves chain A's allowance as it was.
import type { Page } from 'playwright-core';
import { type Address, type PublicClient, createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import type { ChainConfig, ChainSettings } from '../../src/chain/config.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { PERMIT_TYPES } from '../../src/chain/typed-data.js';
import { refundOperatorOf } from '../../src/refunds/allowance.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { SECOND_CHAIN_ID, settingsOf, startPrivateChain, startSecondChain } from '../support/chain.js';
import { signInToDashboard, startDashboardStack, type DashboardStack } from '../support/dashboard-stack.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { openWalletPage, type TestWalletLog } from '../support/test-wallet.js';
import { until } from '../support/until.js';

const OWNER = { subject: 'dev|allowance-owner', email: 'allowance@example.com', name: 'Two-chain Roastery' };
const payout = DEV_ACCOUNTS.merchant.address;
const payoutAccount = privateKeyToAccount(DEV_ACCOUNTS.merchant.privateKey);

let chains: DevChain[];
let a: ChainSettings;
let b: ChainSettings;
let db: TestDatabase;
let temporal: DevServerWorker;
let dashboard: DashboardStack;
let page: Page;
let wallet: TestWalletLog;

const clientOf = (s: ChainSettings) =>
  createPublicClient({ chain: chainDefinition(s.chainId, s.rpcUrl), transport: http(s.rpcUrl) }) as PublicClient;
const allowanceOn = (s: ChainSettings, spender: Address) =>
  clientOf(s).readContract({ address: s.token, abi: fiatTokenAbi, functionName: 'allowance', args: [payout, spender] });

beforeAll(async () => {
  chains = await Promise.all([startPrivateChain(), startSecondChain()]);
  a = settingsOf(chains[0]!.info);
  b = settingsOf(chains[1]!.info);
  const config: ChainConfig = { test: a, others: { test: [b] } };
  db = await createTestDatabase();
  temporal = await startDevServerWorker(db.sql, { chain: config });
  dashboard = await startDashboardStack({ sql: db.sql, temporal, chain: config, owner: OWNER, payout });

  // Chain A's allowance: 5 USDC, granted through the API by the payout wallet's permit for chain A.
  const auth = { authorization: `Bearer ${dashboard.merchant.secretKey}` };
  const info = (await dashboard.t.app.inject({ method: 'GET', url: `/v1/refunds/allowance?chainId=${a.chainId}`, headers: auth })).json();
  const deadline = (await clientOf(a).getBlock()).timestamp + 3600n;
  const signature = await payoutAccount.signTypedData({
    domain: { ...info.permit.domain, chainId: BigInt(info.permit.domain.chainId) },
    types: PERMIT_TYPES,
    primaryType: 'Permit',
    message: { owner: payout, spender: refundOperatorOf(a)!, value: 5_000_000n, nonce: BigInt(info.permit.nonce), deadline },
  });
  const granted = await dashboard.t.app.inject({
    method: 'POST',
    url: '/v1/refunds/allowance/permit',
    headers: auth,
    payload: { chainId: a.chainId, value: '5000000', deadline: deadline.toString(), signature },
  });
  expect(granted.statusCode, granted.body).toBe(200);

  // The payout wallet, on chain A, knowing chain B.
  ({ page, log: wallet } = await openWalletPage(dashboard.context, {
    account: payoutAccount,
    chainId: a.chainId,
    rpcUrl: a.rpcUrl,
    otherChains: { [SECOND_CHAIN_ID]: b.rpcUrl },
  }));
  await signInToDashboard(page, dashboard.baseUrl);
}, 180_000);

afterAll(async () => {
  await dashboard?.close();
  await temporal?.stop();
  await db?.drop();
  await Promise.all((chains ?? []).map((chain) => chain.stop()));
});

describe("the refund-allowance card shows every chain's allowance", () => {
  it("reads each chain's allowance from that chain, and grants chain B's from the wallet switched to chain B", async () => {
    await page.goto(`${dashboard.baseUrl}/dashboard/refunds`);
    const onA = page.getByTestId(`refund-allowance-${a.chainId}`);
    const onB = page.getByTestId(`refund-allowance-${b.chainId}`);
    await onB.getByTestId('refund-allowance-available').waitFor();
    expect(await onA.getByRole('heading').textContent()).toBe(`Local chain ${a.chainId}`);
    expect(await onB.getByRole('heading').textContent()).toBe(`Local chain ${b.chainId}`);
    expect(await onA.getByTestId('refund-allowance-available').textContent()).toBe('5.00 USDC');
    expect(await onB.getByTestId('refund-allowance-available').textContent()).toBe('0.00 USDC');
    // Each chain names its own token and chain for the approve alternative.
    expect(await onB.locator('details').textContent()).toContain(`(chain ${b.chainId})`);

    await onB.getByLabel(`Cap (USDC) on Local chain ${b.chainId}`).fill('7');
    await onB.getByRole('button', { name: `Sign permit with payout wallet on Local chain ${b.chainId}` }).click();
    await expect.poll(() => onB.getByTestId('refund-allowance-available').textContent(), { timeout: 30_000 }).toBe('7.00 USDC');

    // The wallet was moved to chain B before it signed; the permit granted on B only.
    const switched = wallet.requests.findIndex((r) => r.method === 'wallet_switchEthereumChain');
    const signed = wallet.requests.findIndex((r) => r.method === 'eth_signTypedData_v4');
    expect(switched).toBeGreaterThanOrEqual(0);
    expect(wallet.requests[switched]!.params).toEqual([{ chainId: `0x${b.chainId.toString(16)}` }]);
    expect(signed).toBeGreaterThan(switched);
    const operatorB = refundOperatorOf(b)!;
    await until(
      () => allowanceOn(b, operatorB),
      (allowance) => allowance === 7_000_000n,
      "chain B's allowance on chain",
    );
    expect(await allowanceOn(a, refundOperatorOf(a)!)).toBe(5_000_000n);
    expect(await onA.getByTestId('refund-allowance-available').textContent()).toBe('5.00 USDC');
  });
});
