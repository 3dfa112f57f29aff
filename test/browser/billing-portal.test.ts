// The customer portal in headless Chromium at a phone's width (issue 40, item 4): the real app listening on
// 127.0.0.1, the real worker on the Temporal dev server, a private anvil with Circle's USDC and a test clock.
// A customer charged for their first month opens the portal link the merchant created, cancels at the period
// end with a reason, and sees it; the merchant's API shows cancelAtPeriodEnd with the customer's reason; when
// the clock reaches the next period the subscription is cancelled on chain and nothing more is pulled.
// Screenshots go to .data/screenshots/ (git-ignored).
import { mkdir, rm } from 'node:fs/promises';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainConfig } from '../../src/chain/config.js';
import { subscriptionManagerV2Abi } from '../../src/chain/generated/contracts.js';
import { addMerchantChainAddress, setPayoutAddress } from '../../src/merchants/repo.js';
import { createViemSubscriptionChain } from '../../src/subscriptions/chain.js';
import { onSubscriptionCreatedOnChain, type SubscriptionChainEventDeps } from '../../src/subscriptions/chain-events.js';
import { subscriptionChainModes } from '../../src/subscriptions/indexer-hooks.js';
import { contractPeriodStart, onChainPeriodSecondsV2, periodStart } from '../../src/subscriptions/periods.js';
import { devChainSettings } from '../../tools/dev/chain/settings.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { launchBrowser } from '../support/browser.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { newPayer, startTestChain, type TestChain } from '../support/subscriptions.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { until } from '../support/until.js';

const USDC = (n: number) => BigInt(n) * 1_000_000n;
const DAY = 86_400_000;
const MONTH_SECONDS = BigInt(onChainPeriodSecondsV2('monthly', 1));
const RETURN_URL = 'https://saas.example/account';
const SCREENSHOT_DIR = '.data/screenshots';

let db: TestDatabase;
let chain: TestChain;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let deps: SubscriptionChainEventDeps;
let baseUrl: string;
let context: BrowserContext;
let userDataDir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  chain = await startTestChain(db.sql);
  const settings = devChainSettings({ ...chain.deployed, rpcUrl: chain.anvil.rpcUrl, startBlock: chain.deployed.deployBlock });
  const chainConfig: ChainConfig = { test: settings };
  temporal = await startDevServerWorker(db.sql, {
    chain: chainConfig,
    // The real port: only the clock moves the chain.
    subscriptionChain: await createViemSubscriptionChain(subscriptionChainModes(chainConfig), { sql: db.sql }),
  });
  t = await createTestApp(db.sql, {
    temporal: temporal.client,
    taskQueue: temporal.taskQueue,
    chain: chainConfig,
    env: { TEST_CLOCK_CHAINS: 'shared' },
  });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  merchant = await seedMerchant(db.sql, 'Acme Cloud');
  await setPayoutAddress(db.sql, merchant.merchantId, DEV_ACCOUNTS.merchant.address);
  await addMerchantChainAddress(db.sql, { merchantId: merchant.merchantId, livemode: false, address: DEV_ACCOUNTS.merchant.address });
  deps = {
    sql: db.sql,
    temporal: temporal.client,
    taskQueue: temporal.taskQueue,
    events: { dispatch: async () => {} },
    modes: { test: chain.mode },
  };
  ({ context, userDataDir } = await launchBrowser());
}, 180_000);

afterAll(async () => {
  await context?.close();
  if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  await t?.close();
  await temporal?.stop();
  await chain?.stop();
  await db?.drop();
});

const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${merchant.secretKey}` }, ...(payload ? { payload } : {}) });

describe('the customer portal in headless Chromium at 390 px', () => {
  it('cancels at the period end with a reason; nothing is charged after', async () => {
    const plan = await api('POST', '/v1/subscription-plans', {
      name: 'Pro',
      amount: USDC(12).toString(),
      interval: 'monthly',
      trialPeriodDays: 1,
    });
    expect(plan.statusCode, plan.body).toBe(200);
    const payer = newPayer();
    const start = Math.ceil(((await chain.chainNowMs()) + 60_000) / 1000) * 1000;
    const created = await api('POST', '/v1/test-clocks', {
      name: 'portal',
      frozenTime: new Date(start).toISOString(),
      wallets: [payer.address],
    });
    expect(created.statusCode, created.body).toBe(200);
    const clock = created.json();
    const advance = async (toMs: number) => {
      const response = await api('POST', `/v1/test-clocks/${clock.id}/advance`, { frozenTime: new Date(toMs).toISOString() });
      expect(response.statusCode, response.body).toBe(200);
      await until(
        async () => (await api('GET', `/v1/test-clocks/${clock.id}`)).json(),
        (c) => c.status === 'ready',
        'the clock ready',
      );
    };

    await chain.mint(payer.address, USDC(100));
    const log = await chain.enrol({
      payer,
      amount: USDC(12),
      period: MONTH_SECONDS,
      periods: 0,
      trialEnd: BigInt(start / 1000) + 86_400n,
      permitValue: USDC(120),
    });
    const enrolled = await onSubscriptionCreatedOnChain(deps, { ...log, planId: plan.json().id });
    if (enrolled.outcome === 'ignored') throw new Error(`enrolment ignored: ${enrolled.reason}`);
    const subscriptionId = enrolled.subscriptionId;
    const read = async () => (await api('GET', `/v1/subscriptions/${subscriptionId}`)).json();
    // When period `index` is charged: the later of its calendar start and the contract's.
    const anchor = new Date(Number(log.args.firstPeriodStart) * 1000);
    const dueAt = (index: number) =>
      Math.max(
        periodStart({ anchor, interval: 'monthly', intervalCount: 1 }, index).getTime(),
        contractPeriodStart(anchor, Number(MONTH_SECONDS), index).getTime(),
      );
    await advance(dueAt(0));
    const charged = await until(read, (s) => s.status === 'active' && s.currentPeriodIndex === 0, 'period 0 charged');

    // The merchant's server creates the link and sends the customer there.
    const session = await api('POST', '/v1/billing-portal/sessions', { customerId: charged.customer.id, returnUrl: RETURN_URL });
    expect(session.statusCode, session.body).toBe(200);
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    // The link is on the app's public base URL; here the app listens on its own port: same path and fragment.
    const link = new URL(session.json().url);
    await page.goto(`${baseUrl}${link.pathname}${link.hash}`);
    const card = page.locator(`[data-subscription-id="${subscriptionId}"]`);
    await card.waitFor({ timeout: 30_000 });
    expect(await page.locator('#merchant').textContent()).toBe('Acme Cloud');
    const back = page.locator('#return-link');
    expect(await back.textContent()).toBe('Return to Acme Cloud');
    expect(await back.getAttribute('href')).toBe(RETURN_URL);
    // The token left the address bar (and never reached a server: it was the fragment).
    expect(new URL(page.url()).hash).toBe('');
    expect(await card.textContent()).toContain('12.00 USDC');
    expect(await card.locator('[data-field="next-charge"]').textContent()).toMatch(/^Next charge 12\.00 USDC on /);

    await card.locator('[data-action="cancel"]').click();
    await card.locator('select[name="feedback"]').selectOption('too_expensive');
    await card.locator('input[name="reason"]').fill('Over budget this year');
    await card.locator('[data-action="confirm-cancel"]').click();
    await until(
      () => page.locator('#message').textContent(),
      (text) => /ends on .*nothing more is charged/.test(text ?? ''),
      'the confirmation',
    );
    const nextCharge = page.locator(`[data-subscription-id="${subscriptionId}"] [data-field="next-charge"]`);
    expect(await nextCharge.textContent()).toMatch(/^Cancels on .*nothing more is charged/);
    expect(await page.locator('[data-action="uncancel"]').count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-portal-phone.png`, fullPage: true });

    expect(await read()).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
      cancellationDetails: { requestedBy: 'subscriber', feedback: 'too_expensive', reason: 'Over budget this year' },
    });

    // The period ends: cancelled (on chain too) instead of charged.
    await advance(dueAt(1) - DAY);
    expect((await read()).status).toBe('active');
    await advance(dueAt(1));
    await until(read, (s) => s.status === 'cancelled' && s.onChainCancelledAt !== null, 'cancelled at the period end');
    expect(await chain.isCancelledOnChain(log.args.id.toString())).toBe(true);
    expect(await read()).toMatchObject({ cancelledBy: 'subscriber', cancelReason: 'Over budget this year' });
    const logs = await chain.pub.getContractEvents({
      address: chain.subscriptionManagerV2,
      abi: subscriptionManagerV2Abi,
      eventName: 'SubscriptionCharged',
      args: { id: BigInt(log.args.id) },
      fromBlock: chain.deployed.deployBlock,
    });
    expect(logs.map((l) => [l.args.periodIndex, l.args.amount])).toEqual([[0, USDC(12)]]);
    expect(await chain.balanceOf(payer.address)).toBe(USDC(88));

    // The portal says so too.
    await page.reload();
    await until(
      () => nextCharge.textContent().catch(() => ''),
      (text) => /^Cancelled on /.test(text ?? ''),
      'the portal showing the cancel',
    );
    expect(await page.locator('#payments').textContent()).toMatch(/Paid\s*12\.00 USDC/);
    await page.close();
    expect((await api('DELETE', `/v1/test-clocks/${clock.id}`)).statusCode).toBe(200);
  }, 120_000);
});
