// The hosted approval page of an upgrade above the authorised amount in headless Chromium (see
// test/browser/checkout.test.ts for the wallet emulation): the real app listening on 127.0.0.1, the real worker on the
// Temporal dev server (it charges, relays and cancels on chain), a private anvil with the real USDC. The indexer's part,
// the SubscriptionCreated log of the relayed enrolment, is handed to its entry point as the renewal test does.
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
  stack = await startSubscriptionBrowserStack({ merchantName: 'Browser upgrades' });
  ({ db, chain, temporal, t, merchant, baseUrl, context } = stack);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe('approving an upgrade above the authorised amount in headless Chromium', () => {
  it('shows the new plan and when it is first charged, the subscribing wallet signs, and the subscription moves to the new enrolment', async () => {
    const auth = { authorization: `Bearer ${merchant.secretKey}` };
    const plan = async (name: string, amount: bigint) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/v1/subscription-plans',
          headers: auth,
          payload: { name, amount: amount.toString(), interval: 'monthly' },
        })
      ).json().id as string;
    const basic = await plan('Basic', USDC(5));
    const pro = await plan('Pro', USDC(12));
    const subscriber = newPayer();
    await chain.mint(subscriber.address, USDC(1000));
    const deps: SubscriptionChainEventDeps = {
      sql: db.sql,
      temporal: temporal.client,
      taskQueue: temporal.taskQueue,
      events: { dispatch: async () => {} },
      modes: { test: chain.mode },
    };
    const old = await chain.enrol({ payer: subscriber, amount: USDC(5), period: BigInt(onChainPeriodSecondsV2('monthly', 1)), periods: 0 });
    const enrolled = await onSubscriptionCreatedOnChain(deps, { ...old, planId: basic });
    if (enrolled.outcome !== 'created') throw new Error(JSON.stringify(enrolled));
    const subscriptionId = enrolled.subscriptionId;
    const read = async () => (await t.app.inject({ method: 'GET', url: `/v1/subscriptions/${subscriptionId}`, headers: auth })).json();
    await until(read, (s) => s.status === 'active', 'period 0 charged');

    const changed = await t.app.inject({
      method: 'POST',
      url: `/v1/subscriptions/${subscriptionId}/change-plan`,
      headers: auth,
      payload: { planId: pro },
    });
    const pending = changed.json().pendingPlanChange;
    expect(pending).toMatchObject({ status: 'requires_customer_action', planId: pro });
    const hosted = new URL(pending.hostedUrl);

    const { page, log } = await openWalletPage(context, { account: subscriber, chainId: chain.anvil.chainId, rpcUrl: chain.anvil.rpcUrl });
    await page.goto(`${baseUrl}${hosted.pathname}${hosted.search}`);
    await expect.poll(() => page.locator('#pay').isEnabled(), { timeout: 30_000 }).toBe(true);
    expect(await page.locator('#description').textContent()).toBe('Change from Basic (5.00 USDC) to Pro');
    expect(await page.locator('#amount').textContent()).toBe('12.00 USDC per period');
    expect(await page.locator('#details').textContent()).toContain('First charged at the new amount on');
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
    const block = await chain.pub.getBlock({ blockNumber: receipt.blockNumber });
    const chargeWindow = await chain.pub.readContract({
      address: created!.address,
      abi: subscriptionManagerV2Abi,
      functionName: 'chargeWindow',
      args: [created!.args.id],
    });
    const replaced = await onSubscriptionCreatedOnChain(deps, {
      livemode: false,
      chainId: chain.anvil.chainId,
      address: created!.address,
      transactionHash: receipt.transactionHash,
      blockTimestamp: block.timestamp,
      args: created!.args,
      chargeWindow,
    });
    expect(replaced).toEqual({ outcome: 'replaced', subscriptionId });
    await expect.poll(() => page.locator('#message').textContent(), { timeout: 30_000 }).toMatch(/Approved/);
    expect(log.methods.filter((m) => m === 'eth_signTypedData_v4')).toHaveLength(2);
    expect(await read()).toMatchObject({ planId: pro, amount: USDC(12).toString(), pendingPlanChange: null });
    await until(() => chain.isCancelledOnChain(old.args.id.toString()), Boolean, 'the old enrolment cancelled on chain');
    await page.close();

    await t.app.inject({ method: 'POST', url: `/v1/subscriptions/${subscriptionId}/cancel`, headers: auth, payload: {} });
  }, 120_000);
});
