// Moving a subscription to another wallet from the customer portal (issue 40, item 4) in headless Chromium at
// 390 px (see test/browser/checkout.test.ts for the wallet emulation): the portal through the merchant's session link,
// the approval page it links, the real app listening on 127.0.0.1, the real worker on the Temporal dev server (it
// charges, relays and cancels on chain), a private anvil with the real USDC. The indexer's part, the
// SubscriptionCreated log of the relayed enrolment, is handed to its entry point as the upgrade's test does.
import type { BrowserContext } from 'playwright-core';
import { parseEventLogs } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionManagerAbi, subscriptionManagerV2Abi } from '../../src/chain/generated/contracts.js';
import { onSubscriptionCreatedOnChain, type SubscriptionChainEventDeps } from '../../src/subscriptions/chain-events.js';
import { onChainPeriodSecondsV2 } from '../../src/subscriptions/periods.js';
import { openWalletPage } from '../support/test-wallet.js';
import { type SeededMerchant, type TestApp } from '../support/app.js';
import { type TestDatabase } from '../support/db.js';
import { newPayer, type TestChain } from '../support/subscriptions.js';
import { type DevServerWorker } from '../support/temporal.js';
import { until } from '../support/until.js';
import { startSubscriptionBrowserStack, type SubscriptionBrowserStack } from '../support/subscription-browser-stack.js';

const USDC = (n: number) => BigInt(n) * 1_000_000n;

let db: TestDatabase;
let chain: TestChain;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let baseUrl: string;
let context: BrowserContext;
let stack: SubscriptionBrowserStack;

beforeAll(async () => {
  stack = await startSubscriptionBrowserStack({ merchantName: 'Browser wallet moves' });
  ({ db, chain, temporal, t, merchant, baseUrl, context } = stack);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

const PHONE = { width: 390, height: 844 };

describe('moving a subscription to another wallet from the portal, in headless Chromium at 390 px', () => {
  it('the customer names the new wallet in the portal, that wallet approves on the linked page, and the subscription charges it from the next period', async () => {
    const auth = { authorization: `Bearer ${merchant.secretKey}` };
    const plan = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/subscription-plans',
        headers: auth,
        payload: { name: 'Team', amount: USDC(5).toString(), interval: 'monthly' },
      })
    ).json().id as string;
    const subscriber = newPayer();
    const newWallet = newPayer();
    await chain.mint(subscriber.address, USDC(1000));
    await chain.mint(newWallet.address, USDC(1000));
    const deps: SubscriptionChainEventDeps = {
      sql: db.sql,
      temporal: temporal.client,
      taskQueue: temporal.taskQueue,
      events: { dispatch: async () => {} },
      modes: { test: chain.mode },
    };
    const old = await chain.enrol({ payer: subscriber, amount: USDC(5), period: BigInt(onChainPeriodSecondsV2('monthly', 1)), periods: 0 });
    const enrolled = await onSubscriptionCreatedOnChain(deps, { ...old, planId: plan });
    if (enrolled.outcome !== 'created') throw new Error(JSON.stringify(enrolled));
    const subscriptionId = enrolled.subscriptionId;
    const read = async () => (await t.app.inject({ method: 'GET', url: `/v1/subscriptions/${subscriptionId}`, headers: auth })).json();
    await until(read, (s) => s.status === 'active', 'period 0 charged');

    // The merchant's portal link; the customer names the new wallet there.
    const session = await t.app.inject({
      method: 'POST',
      url: '/v1/billing-portal/sessions',
      headers: auth,
      payload: { customerId: (await read()).customer.id, returnUrl: 'https://saas.example/account' },
    });
    const link = new URL(session.json().url);
    const portal = await context.newPage();
    await portal.setViewportSize(PHONE);
    await portal.goto(`${baseUrl}${link.pathname}${link.hash}`);
    await portal.locator(`#wallet-${subscriptionId}`).fill(newWallet.address);
    await portal.locator('[data-action="wallet-change"]').click();
    await expect.poll(() => portal.locator('#message').textContent(), { timeout: 30_000 }).toMatch(/approve with the new wallet/);
    expect(await portal.locator('[data-field="wallet-change"]').textContent()).toContain(`Moving to ${newWallet.address}`);
    const approve = await portal.locator('[data-action="approve-wallet-change"]').getAttribute('href');
    const hosted = new URL(approve!, baseUrl);
    expect(hosted.pathname).toMatch(/^\/checkout\/wallet-changes\/swc_/);
    expect(await portal.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // The old wallet is refused on the approval page; the new one signs.
    const stranger = await openWalletPage(context, {
      account: subscriber,
      chainId: chain.anvil.chainId,
      rpcUrl: chain.anvil.rpcUrl,
      viewport: PHONE,
    });
    await stranger.page.goto(`${baseUrl}${hosted.pathname}${hosted.search}`);
    await expect.poll(() => stranger.page.locator('#pay').isEnabled(), { timeout: 30_000 }).toBe(true);
    await stranger.page.locator('#pay').click();
    await expect
      .poll(() => stranger.page.locator('#message').textContent(), { timeout: 30_000 })
      .toMatch(/Connect the new wallet you named/);
    await stranger.page.close();

    const { page, log } = await openWalletPage(context, {
      account: newWallet,
      chainId: chain.anvil.chainId,
      rpcUrl: chain.anvil.rpcUrl,
      viewport: PHONE,
    });
    await page.goto(`${baseUrl}${hosted.pathname}${hosted.search}`);
    await expect.poll(() => page.locator('#pay').isEnabled(), { timeout: 30_000 }).toBe(true);
    expect(await page.locator('#description').textContent()).toBe(`Move Team from ${subscriber.address} to this wallet`);
    expect(await page.locator('#amount').textContent()).toBe('5.00 USDC per period');
    expect(await page.locator('#details').textContent()).toContain('First charged to this wallet on');
    await page.locator('#pay').click();

    // The relay's enrolment, once mined, reaches the indexer's entry point: the subscription moves to it.
    const [submission] = await until(
      () =>
        db.sql<{ transactionHash: `0x${string}` }[]>`
          select transaction_hash as "transactionHash" from relay_submissions
          where merchant_id = ${merchant.merchantId} and kind = 'subscription' and status = 'confirmed'`,
      (rows) => rows.length === 1,
      'the approval relayed',
    );
    const receipt = await chain.pub.getTransactionReceipt({ hash: submission!.transactionHash });
    const [created] = parseEventLogs({ abi: subscriptionManagerAbi, logs: receipt.logs, eventName: 'SubscriptionCreated' });
    expect(created!.args.subscriber).toBe(newWallet.address);
    const block = await chain.pub.getBlock({ blockNumber: receipt.blockNumber });
    const chargeWindow = await chain.pub.readContract({
      address: created!.address,
      abi: subscriptionManagerV2Abi,
      functionName: 'chargeWindow',
      args: [created!.args.id],
    });
    const moved = await onSubscriptionCreatedOnChain(deps, {
      livemode: false,
      chainId: chain.anvil.chainId,
      address: created!.address,
      transactionHash: receipt.transactionHash,
      blockTimestamp: block.timestamp,
      args: created!.args,
      chargeWindow,
    });
    expect(moved).toEqual({ outcome: 'replaced', subscriptionId });
    await expect.poll(() => page.locator('#message').textContent(), { timeout: 30_000 }).toMatch(/charged to this wallet/);
    expect(log.methods.filter((m) => m === 'eth_signTypedData_v4')).toHaveLength(2);
    expect((await read()).customer.walletAddress).toBe(newWallet.address.toLowerCase());
    await until(() => chain.isCancelledOnChain(old.args.id.toString()), Boolean, 'the old enrolment cancelled on chain');
    await page.close();

    // Back in the portal: the move is shown as done.
    await portal.reload();
    await expect
      .poll(() => portal.locator('[data-field="wallet-change"]').textContent(), { timeout: 30_000 })
      .toMatch(new RegExp(`^Charged to ${newWallet.address} from`));
    await portal.close();

    await t.app.inject({ method: 'POST', url: `/v1/subscriptions/${subscriptionId}/cancel`, headers: auth, payload: {} });
  }, 150_000);
});
