// Sign-In with Ethereum (EIP-4361) on the merchant's public portal page in headless Chromium at a phone's width
// (issue 40, item 4): the real app listening on 127.0.0.1, the real worker on the Temporal dev server, a private
// anvil with Circle's USDC, and the injected test wallet (test/support/test-wallet.ts). The subscribing wallet
// signs in and sees its subscription; a wallet with no subscription of that merchant is refused and sees nothing;
// the first sign-in's message and signature, sent again, are refused (the nonce is used). No refusal opens a session.
// Screenshots go to .data/screenshots/ (git-ignored).
import { mkdir } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onSubscriptionCreatedOnChain } from '../../src/subscriptions/chain-events.js';
import { onChainPeriodSecondsV2 } from '../../src/subscriptions/periods.js';
import { type SeededMerchant, type TestApp } from '../support/app.js';
import { type TestDatabase } from '../support/db.js';
import { newPayer, type TestChain } from '../support/subscriptions.js';
import { type DevServerWorker } from '../support/temporal.js';
import { openWalletPage, type TestWalletLog } from '../support/test-wallet.js';
import { until } from '../support/until.js';
import { startSubscriptionBrowserStack, type SubscriptionBrowserStack } from '../support/subscription-browser-stack.js';

const USDC = (n: number) => BigInt(n) * 1_000_000n;
const PHONE = { width: 390, height: 844 };
const SIGN_IN_API = '**/billing-portal/api/sign-in';
const SCREENSHOT_DIR = '.data/screenshots';

let db: TestDatabase;
let chain: TestChain;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let baseUrl: string;
let context: BrowserContext;
let stack: SubscriptionBrowserStack;

beforeAll(async () => {
  stack = await startSubscriptionBrowserStack({ merchantName: 'Acme Cloud', allContracts: true });
  ({ db, chain, temporal, t, merchant, baseUrl, context } = stack);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

const auth = () => ({ authorization: `Bearer ${merchant.secretKey}` });
const sessions = async () => Number((await db.sql<{ n: string }[]>`select count(*) as n from billing_portal_sessions`)[0]!.n);

/** The public portal page in a new tab of a wallet holding `account`; the sign-in button is shown. */
async function openPortalPage(configurationId: string, account: ReturnType<typeof newPayer>): Promise<{ page: Page; log: TestWalletLog }> {
  const opened = await openWalletPage(context, { account, chainId: chain.anvil.chainId, rpcUrl: chain.anvil.rpcUrl, viewport: PHONE });
  await opened.page.goto(`${baseUrl}/billing-portal/c/${configurationId}`);
  await opened.page.locator('#sign-in').waitFor({ state: 'visible', timeout: 30_000 });
  expect(await opened.page.locator('#merchant').textContent()).toBe('Manage your subscription');
  return opened;
}

/** Clicks sign-in and waits for the page's error message; the page must show nobody's data. */
async function expectRefusal(page: Page, pattern: RegExp): Promise<void> {
  await page.locator('#sign-in').click();
  await expect.poll(() => page.locator('#message[data-kind="error"]').textContent(), { timeout: 30_000 }).toMatch(pattern);
  expect(await page.locator('#merchant').textContent()).toBe('Manage your subscription');
  expect(await page.locator('#sign-in').isVisible()).toBe(true);
  expect(await page.locator('#sign-in').isEnabled()).toBe(true);
  expect(await page.locator('[data-subscription-id]').count()).toBe(0);
  expect((await page.locator('#payments').textContent())?.trim()).toBe('');
  expect((await page.locator('#invoices').textContent())?.trim()).toBe('');
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
}

describe("signing in with the wallet on the merchant's public portal page, in headless Chromium at 390 px", () => {
  it('the subscribing wallet signs in and sees its subscription; a stranger and a replayed signature are refused', async () => {
    const configured = await t.app.inject({
      method: 'POST',
      url: '/v1/billing-portal/configuration',
      headers: auth(),
      payload: { promotionCodes: false },
    });
    expect(configured.statusCode, configured.body).toBe(200);
    const configurationId: string = configured.json().id;

    const plan = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: auth(),
      payload: { name: 'Pro', amount: USDC(12).toString(), interval: 'monthly' },
    });
    expect(plan.statusCode, plan.body).toBe(200);
    const subscriber = newPayer();
    await chain.mint(subscriber.address, USDC(100));
    const log = await chain.enrol({
      payer: subscriber,
      amount: USDC(12),
      period: BigInt(onChainPeriodSecondsV2('monthly', 1)),
      periods: 0,
    });
    const enrolled = await onSubscriptionCreatedOnChain(
      {
        sql: db.sql,
        temporal: temporal.client,
        taskQueue: temporal.taskQueue,
        events: { dispatch: async () => {} },
        modes: { test: chain.mode },
      },
      { ...log, planId: plan.json().id },
    );
    if (enrolled.outcome !== 'created') throw new Error(JSON.stringify(enrolled));
    const subscriptionId = enrolled.subscriptionId;
    await until(
      async () => (await t.app.inject({ method: 'GET', url: `/v1/subscriptions/${subscriptionId}`, headers: auth() })).json(),
      (s) => s.status === 'active',
      'period 0 charged',
    );

    // A wallet with no subscription of this merchant: refused after signing, no session, nothing shown.
    const before = await sessions();
    const stranger = await openPortalPage(configurationId, newPayer());
    await expectRefusal(stranger.page, /^This wallet has no subscription with this merchant\.$/);
    expect(stranger.log.methods).toContain('personal_sign');
    expect(await sessions()).toBe(before);
    await stranger.page.close();

    // The subscribing wallet: connects, signs the EIP-4361 message, lands on its portal.
    const { page, log: walletLog } = await openPortalPage(configurationId, subscriber);
    const sent = page.waitForRequest((request) => request.url().endsWith('/billing-portal/api/sign-in') && request.method() === 'POST');
    await page.locator('#sign-in').click();
    const card = page.locator(`[data-subscription-id="${subscriptionId}"]`);
    await card.waitFor({ timeout: 30_000 });
    const signedIn = (await sent).postDataJSON() as { configurationId: string; message: string; signature: string };
    expect(await sessions()).toBe(before + 1);
    expect(await page.locator('#merchant').textContent()).toBe('Acme Cloud');
    expect(await page.locator('#sign-in').isVisible()).toBe(false);
    expect(await page.locator('#message').getAttribute('data-kind')).not.toBe('error');
    expect(await card.textContent()).toContain('12.00 USDC');
    expect(await card.locator('[data-field="next-charge"]').textContent()).toMatch(/^Next charge 12\.00 USDC on /);
    expect(await page.locator('#payments').textContent()).toMatch(/Paid\s*12\.00 USDC/);
    expect(await page.locator('[data-subscription-id]').count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-portal-sign-in-phone.png`, fullPage: true });
    // The wallet was asked for the account, then one personal_sign of the message the page sent, by this account.
    expect(walletLog.methods).toContain('eth_requestAccounts');
    const signs = walletLog.requests.filter((r) => r.method === 'personal_sign');
    expect(signs).toHaveLength(1);
    expect((signs[0]!.params[1] as string).toLowerCase()).toBe(subscriber.address.toLowerCase());
    expect(Buffer.from((signs[0]!.params[0] as string).slice(2), 'hex').toString('utf8')).toBe(signedIn.message);
    expect(signedIn.configurationId).toBe(configurationId);
    expect(signedIn.message).toContain(`${subscriber.address}\n`);
    expect(signedIn.message).toContain(`Chain ID: ${chain.anvil.chainId}`);
    expect(signedIn.message).toContain('Sign in to manage your subscriptions with Acme Cloud.');
    await page.close();

    // The same message and signature, sent again from a fresh tab: the nonce is used, so no second session.
    const replay = await openPortalPage(configurationId, subscriber);
    await replay.page.route(SIGN_IN_API, (route) =>
      route.request().method() === 'POST' ? route.continue({ postData: JSON.stringify(signedIn) }) : route.continue(),
    );
    await expectRefusal(replay.page, /^The nonce is unknown, used or expired: ask for a new one\.$/);
    expect(await sessions()).toBe(before + 1);
    await replay.page.close();

    await t.app.inject({ method: 'POST', url: `/v1/subscriptions/${subscriptionId}/cancel`, headers: auth(), payload: {} });
  }, 180_000);
});
