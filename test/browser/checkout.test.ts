// The hosted checkout in a real browser: headless Chromium (Debian's `chromium`)
// driven by playwright-core, an injected EIP-1193 test wallet backed by anvil
// accounts, the real app listening on 127.0.0.1, the real worker on the Temporal
// dev server and a private anvil. The page, its script and every byte of its
// network traffic are checked for the merchant's secret key.
import { rm } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { type Address, type PublicClient, createPublicClient, createTestClient, createWalletClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionManagerAbi } from '../../src/chain/generated/contracts.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { subscriptionManagerV2Of, type ChainSettings } from '../../src/chain/config.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, startPrivateChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { launchBrowser } from '../support/browser.js';
import { openWalletPage as openTestWalletPage } from '../support/test-wallet.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { describeRefusalToPayer } from '../../src/chain/refusals.js';

const SUCCESS_URL = 'https://shop.example/thanks?order=42';

let chain: DevChain;
let settings: ChainSettings;
let db: TestDatabase;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let pub: PublicClient;
let token: Address;
let baseUrl: string;
let userDataDir: string;
let context: BrowserContext;

const payout = DEV_ACCOUNTS.merchant.address;
const payer = privateKeyToAccount(DEV_ACCOUNTS.payers[2]!.privateKey);

/** Everything the browser sent and received, for the secret-key check. */
const traffic: { kind: string; url: string; text: Promise<string> }[] = [];

beforeAll(async () => {
  chain = await startPrivateChain();
  settings = settingsOf(chain.info);
  token = chain.info.token;
  pub = createPublicClient({ chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl), transport: http(chain.info.rpcUrl) });
  db = await createTestDatabase();
  temporal = await startDevServerWorker(db.sql, { chain: { test: settings } });
  t = await createTestApp(db.sql, { temporal: temporal.client, taskQueue: temporal.taskQueue, chain: { test: settings } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  merchant = await seedMerchant(db.sql, 'Browser shop');
  await setPayoutAddress(db.sql, merchant.merchantId, payout);

  ({ context, userDataDir } = await launchBrowser());
  // The merchant's success page is not on the network: the browser gets a stub.
  await context.route('https://shop.example/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><h1>Thanks for your order</h1>' }),
  );
  context.on('request', (request) => {
    traffic.push({
      kind: 'request',
      url: request.url(),
      text: request
        .allHeaders()
        .then((headers) => `${request.method()} ${request.url()}\n${JSON.stringify(headers)}\n${request.postData() ?? ''}`),
    });
  });
  context.on('response', (response) => {
    traffic.push({
      kind: 'response',
      url: response.url(),
      text: Promise.all([response.allHeaders(), response.body().catch(() => Buffer.alloc(0))]).then(
        ([headers, body]) => `${JSON.stringify(headers)}\n${body.toString('utf8')}`,
      ),
    });
  });
});

afterAll(async () => {
  await context?.close();
  if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  await t?.close();
  await temporal?.stop();
  await db?.drop();
  await chain?.stop();
});

const balanceOf = (who: Address) => pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [who] });

async function createSession(amount: string): Promise<{ id: string }> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/payment-sessions',
    headers: { authorization: `Bearer ${merchant.publishableKey}` },
    payload: { amount, successUrl: SUCCESS_URL, cancelUrl: 'https://shop.example/cancel' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The session as the merchant's API gives it. */
async function merchantSession(id: string): Promise<{ status: string; lastPaymentError: { code: string; reason: string } | null }> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/v1/payment-sessions/${id}`,
    headers: { authorization: `Bearer ${merchant.secretKey}` },
  });
  return response.json();
}

async function sessionStatus(id: string): Promise<string> {
  return (await merchantSession(id)).status;
}

/** A page with the test wallet backed by `account`, on the test chain unless `chainId` says otherwise. */
const openWalletPage = (options: { account: PrivateKeyAccount; chainId?: number; rejectSignature?: boolean }) =>
  openTestWalletPage(context, { chainId: chain.info.chainId, rpcUrl: chain.info.rpcUrl, ...options });

async function openCheckout(page: Page, sessionId: string): Promise<string> {
  await page.goto(`${baseUrl}/checkout/${sessionId}`);
  await expect.poll(() => page.locator('#pay').isEnabled(), { timeout: 30_000 }).toBe(true);
  const html = await page.content();
  expect(html).toContain('Browser shop');
  expect(html).toContain('Pay with wallet');
  return html;
}

const payRequests = () => traffic.filter((r) => r.kind === 'request' && /\/checkout\/ps_[^/]+\/pay$/.test(r.url));

async function expectNoSecret(texts: string[]): Promise<void> {
  const all = texts.join('\n');
  expect(all.length).toBeGreaterThan(0);
  expect(all).not.toContain(merchant.secretKey);
  expect(all).not.toContain(merchant.liveSecretKey);
  expect(all).not.toMatch(/sk_(test|live)_/);
}

describe('hosted checkout in headless Chromium', () => {
  it('serves a self-contained page with no key in it, and 404 for an unknown session', async () => {
    const session = await createSession('1000000');
    const html = await t.app.inject({ method: 'GET', url: `/checkout/${session.id}` });
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.headers['content-security-policy']).toContain("script-src 'self'");
    expect(html.body).toContain(`data-session-id="${session.id}"`);
    expect(html.body).not.toMatch(/<script[^>]+src="https?:/);
    const script = await t.app.inject({ method: 'GET', url: '/checkout/assets/checkout.js' });
    expect(script.statusCode).toBe(200);
    expect(script.body).toContain('eth_signTypedData_v4');
    await expectNoSecret([html.body, script.body]);
    expect(html.body).not.toContain('pk_');
    expect((await t.app.inject({ method: 'GET', url: '/checkout/ps_00000000000000000000000000' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/checkout/not-an-id' })).statusCode).toBe(404);
  });

  it('the click pays: signature, relay, on-chain confirmation, session completed, redirect to successUrl', async () => {
    const session = await createSession('2500000');
    const [payerBefore, payoutBefore] = await Promise.all([balanceOf(payer.address), balanceOf(payout)]);
    const { page, log } = await openWalletPage({ account: payer });
    const html = await openCheckout(page, session.id);
    await expect.poll(() => page.locator('#amount').textContent()).toMatch(/^2\.50 /);

    await page.locator('#pay').click();
    await page.waitForURL((url) => url.href.startsWith(SUCCESS_URL), { timeout: 60_000 });
    expect(await page.locator('h1').textContent()).toBe('Thanks for your order');

    expect(await sessionStatus(session.id)).toBe('completed');
    expect(await balanceOf(payer.address)).toBe(payerBefore - 2_500_000n);
    expect(await balanceOf(payout)).toBe(payoutBefore + 2_500_000n);
    expect(log.methods).toEqual(expect.arrayContaining(['eth_requestAccounts', 'eth_chainId', 'eth_call', 'eth_signTypedData_v4']));
    expect(payRequests().filter((r) => r.url.includes(session.id))).toHaveLength(1);
    const [submission] = await db.sql`select idempotency_key, status from relay_submissions where payment_session_id = ${session.id}`;
    expect(submission?.idempotency_key).toMatch(new RegExp(`^checkout_${session.id}_0x[0-9a-f]{64}$`));
    expect(submission?.status).toBe('confirmed');
    await expectNoSecret([html]);
    await page.close();
  });

  it('pays on a dev chain that has been idle for minutes (its latest block is older than validAfter)', async () => {
    // An idle automine anvil: no block for 3 minutes, its clock at the wall clock. The last block is
    // mined 3 minutes in the past (anvil_setTime moves anvil's clock; older than its parent, which
    // nothing here reads), then the clock is set back to now. The page signs validAfter = now - 60,
    // after the latest block's timestamp; the next block (now) is inside the window.
    const rpc = async (method: string, params: unknown[]) => {
      const response = await fetch(chain.info.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      const body = (await response.json()) as { error?: { message: string } };
      if (body.error) throw new Error(`${method}: ${body.error.message}`);
    };
    await rpc('anvil_setTime', [Math.floor(Date.now() / 1000) - 180]);
    await rpc('evm_mine', []);
    await rpc('anvil_setTime', [Math.floor(Date.now() / 1000)]);
    const idleFor = BigInt(Math.floor(Date.now() / 1000)) - (await pub.getBlock({ blockTag: 'latest' })).timestamp;
    expect(idleFor).toBeGreaterThanOrEqual(120n);

    const session = await createSession('1500000');
    const payerBefore = await balanceOf(payer.address);
    const { page } = await openWalletPage({ account: payer });
    await openCheckout(page, session.id);
    await page.locator('#pay').click();
    // Wait for the relayed payment's outcome, so a failure shows its reason instead of a redirect timeout.
    let submission: { status: string; failure_code: string | null; failure_reason: string | null } | undefined;
    await expect
      .poll(
        async () => {
          [submission] = await db.sql<{ status: string; failure_code: string | null; failure_reason: string | null }[]>`
            select status, failure_code, failure_reason from relay_submissions where payment_session_id = ${session.id}`;
          return submission?.status;
        },
        { timeout: 60_000, interval: 250 },
      )
      .toMatch(/^(confirmed|failed)$/);
    expect(submission, JSON.stringify(submission)).toMatchObject({ status: 'confirmed', failure_code: null });
    await page.waitForURL((url) => url.href.startsWith(SUCCESS_URL), { timeout: 60_000 });
    expect(await sessionStatus(session.id)).toBe('completed');
    expect(await balanceOf(payer.address)).toBe(payerBefore - 1_500_000n);
    await page.close();
  });

  it('a rejected signature shows the rejection and submits nothing', async () => {
    const session = await createSession('1000000');
    const { page, log } = await openWalletPage({ account: payer, rejectSignature: true });
    await openCheckout(page, session.id);
    await page.locator('#pay').click();
    await expect.poll(() => page.locator('#message').textContent(), { timeout: 30_000 }).toMatch(/rejected the signature request/);
    expect(await page.locator('#message').getAttribute('data-kind')).toBe('error');
    expect(log.methods).toContain('eth_signTypedData_v4');
    expect(payRequests().filter((r) => r.url.includes(session.id))).toHaveLength(0);
    expect(await db.sql`select id from relay_submissions where payment_session_id = ${session.id}`).toHaveLength(0);
    expect(await sessionStatus(session.id)).toBe('open');
    expect(await page.locator('#pay').isEnabled()).toBe(true);
    await page.close();
  });

  it('a wallet on the wrong network is told which network to use and is never asked to sign', async () => {
    const session = await createSession('1000000');
    const { page, log } = await openWalletPage({ account: payer, chainId: 1 });
    await openCheckout(page, session.id);
    await page.locator('#pay').click();
    await expect.poll(() => page.locator('#message').textContent(), { timeout: 30_000 }).toMatch(/wrong network \(chain 1\)/);
    expect(await page.locator('#message').textContent()).toContain(`chain ${chain.info.chainId}`);
    expect(log.methods).toContain('wallet_switchEthereumChain');
    expect(log.methods).not.toContain('eth_signTypedData_v4');
    expect(payRequests().filter((r) => r.url.includes(session.id))).toHaveLength(0);
    await page.close();
  });

  it('a wallet with too little balance is told so before signing', async () => {
    const session = await createSession('1000000');
    const { page, log } = await openWalletPage({ account: privateKeyToAccount(generatePrivateKey()) });
    await openCheckout(page, session.id);
    await page.locator('#pay').click();
    await expect.poll(() => page.locator('#message').textContent(), { timeout: 30_000 }).toMatch(/balance is too low/);
    expect(log.methods).not.toContain('eth_signTypedData_v4');
    expect(await sessionStatus(session.id)).toBe('open');
    await page.close();
  });

  it('a cancelled session shows it and cannot be paid from the page', async () => {
    const session = await createSession('1000000');
    await db.sql`update payment_sessions set status = 'cancelled' where id = ${session.id}`;
    const { page } = await openWalletPage({ account: payer });
    await page.goto(`${baseUrl}/checkout/${session.id}`);
    await expect.poll(() => page.locator('#message').textContent(), { timeout: 30_000 }).toMatch(/cancelled/);
    // The server renders the ended page: nothing to pay with (issue 36, item 10).
    expect(await page.locator('#pay').count()).toBe(0);
    await page.close();
  });

  it('the plan page enrols through the relay: permit + enrolment signed in the wallet, confirmed on-chain', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: { authorization: `Bearer ${merchant.secretKey}` },
      payload: { name: 'Pro monthly', amount: '3000000', interval: 'monthly' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const plan = created.json();
    const subscriber = privateKeyToAccount(DEV_ACCOUNTS.payers[3]!.privateKey);
    const { page, log } = await openWalletPage({ account: subscriber });
    await page.goto(`${baseUrl}/checkout/plans/${plan.id}`);
    await expect.poll(() => page.locator('#pay').isEnabled(), { timeout: 30_000 }).toBe(true);
    expect(await page.locator('#amount').textContent()).toMatch(/^3\.00 \S+ per month$/);
    await page.locator('#pay').click();
    await expect.poll(() => page.locator('#message').textContent(), { timeout: 60_000 }).toMatch(/You are subscribed/);

    expect(log.methods.filter((m) => m === 'eth_signTypedData_v4')).toHaveLength(2);
    const [submission] = await db.sql`
      select idempotency_key, status, call from relay_submissions where merchant_id = ${merchant.merchantId} and kind = 'subscription'`;
    expect(submission?.status).toBe('confirmed');
    const key = String(submission?.idempotency_key);
    expect(key).toMatch(new RegExp(`^checkout_${plan.id}_0x[0-9a-f]{64}$`));
    const nonce = key.slice(`checkout_${plan.id}_`.length) as `0x${string}`;
    // New enrolments go to the mode's SubscriptionManagerV2 (v1 keeps only its existing subscriptions).
    const manager = subscriptionManagerV2Of(settings);
    const used = await pub.readContract({
      address: manager,
      abi: subscriptionManagerAbi,
      functionName: 'enrolmentNonceUsed',
      args: [subscriber.address, nonce],
    });
    expect(used).toBe(true);
    const allowance = await pub.readContract({
      address: token,
      abi: fiatTokenAbi,
      functionName: 'allowance',
      args: [subscriber.address, manager],
    });
    expect(allowance).toBeGreaterThan(0n);

    // Terms other than the plan's are refused before anything reaches the relay.
    const offer = (await t.app.inject({ method: 'GET', url: `/checkout/plans/${plan.id}/enrolment` })).json();
    expect(offer.terms).toMatchObject({ amount: '3000000', merchant: payout, periods: 0 });
    const cheaper = await t.app.inject({
      method: 'POST',
      url: `/checkout/plans/${plan.id}/enrol`,
      payload: {
        subscriber: subscriber.address,
        terms: { ...offer.terms, amount: '1' },
        permit: { value: '1', deadline: '9999999999', signature: `0x${'11'.repeat(65)}` },
        enrolment: { nonce: `0x${'22'.repeat(32)}`, deadline: '9999999999', signature: `0x${'11'.repeat(65)}` },
      },
    });
    expect(cheaper.statusCode).toBe(400);
    expect(cheaper.json().error).toMatchObject({ code: 'invalid_request', param: 'terms' });
    await page.close();
  });

  it('no request, header, post body or response the browser saw contains a secret key', async () => {
    const texts = await Promise.all(traffic.map((r) => r.text));
    expect(traffic.some((r) => r.kind === 'request' && r.url.endsWith('/pay'))).toBe(true);
    expect(traffic.some((r) => r.kind === 'response' && r.url.includes('/v1/checkout/sessions/'))).toBe(true);
    // The capture really holds bodies: the script, the session reads and the signed post.
    const all = texts.join('\n');
    expect(all).toContain('eth_signTypedData_v4');
    expect(all).toContain('"object":"checkout_session"');
    expect(all).toMatch(/"signature":"0x[0-9a-f]{130}"/);
    await expectNoSecret(texts);
  });
});

// Token refusals on the hosted pages (docs/decisions.md "Token refusals are named"): the payer reads one
// plain sentence per refusal code (src/chain/refusals.ts), the same on every page, and is asked to sign
// nothing that USDC would refuse anyway. The real token's blacklist and pause, set by its role accounts.
describe('hosted pages name the token refusal in one sentence', () => {
  const asRole = (key: `0x${string}`) =>
    createWalletClient({
      account: privateKeyToAccount(key),
      chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
      transport: http(chain.info.rpcUrl),
    });
  const blacklister = () => asRole(DEV_ACCOUNTS.usdcBlacklister.privateKey);
  const pauser = () => asRole(DEV_ACCOUNTS.usdcPauser.privateKey);
  const mined = async (hash: `0x${string}`) => expect((await pub.waitForTransactionReceipt({ hash })).status).toBe('success');
  const setBlacklisted = async (who: Address, blocked: boolean) =>
    mined(
      await blacklister().writeContract({
        address: token,
        abi: fiatTokenAbi,
        functionName: blocked ? 'blacklist' : 'unBlacklist',
        args: [who],
      }),
    );
  const setPaused = async (paused: boolean) =>
    mined(await pauser().writeContract({ address: token, abi: fiatTokenAbi, functionName: paused ? 'pause' : 'unpause' }));
  const message = (page: Page) => page.locator('#message').textContent();

  it('a blacklisted payer is refused at the door with its sentence, before anything is signed or posted', async () => {
    const blocked = privateKeyToAccount(DEV_ACCOUNTS.payers[4]!.privateKey);
    await setBlacklisted(blocked.address, true);
    try {
      const session = await createSession('1000000');
      const before = await balanceOf(blocked.address);
      const { page, log } = await openWalletPage({ account: blocked });
      await openCheckout(page, session.id);
      await page.locator('#pay').click();
      await expect.poll(() => message(page), { timeout: 30_000 }).toBe(describeRefusalToPayer('payer_blacklisted'));
      expect(await page.locator('#message').getAttribute('data-kind')).toBe('error');
      expect(log.methods).not.toContain('eth_signTypedData_v4');
      expect(payRequests().filter((r) => r.url.includes(session.id))).toHaveLength(0);
      expect(await sessionStatus(session.id)).toBe('open');
      expect(await balanceOf(blocked.address)).toBe(before);
      // The button stays usable: another wallet may pay.
      expect(await page.locator('#pay').isEnabled()).toBe(true);
      await page.close();
    } finally {
      await setBlacklisted(blocked.address, false);
    }
  });

  it('a paused token: the payment page and the plan page say so and ask for no signature', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: { authorization: `Bearer ${merchant.secretKey}` },
      payload: { name: 'Paused monthly', amount: '2000000', interval: 'monthly' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const session = await createSession('1000000');
    await setPaused(true);
    try {
      const { page, log } = await openWalletPage({ account: payer });
      await openCheckout(page, session.id);
      await page.locator('#pay').click();
      await expect.poll(() => message(page), { timeout: 30_000 }).toBe(describeRefusalToPayer('token_paused'));

      await page.goto(`${baseUrl}/checkout/plans/${created.json().id}`);
      await expect.poll(() => page.locator('#pay').isEnabled(), { timeout: 30_000 }).toBe(true);
      await page.locator('#pay').click();
      await expect.poll(() => message(page), { timeout: 30_000 }).toBe(describeRefusalToPayer('token_paused'));
      expect(log.methods).not.toContain('eth_signTypedData_v4');
      expect(await sessionStatus(session.id)).toBe('open');
      await page.close();
    } finally {
      await setPaused(false);
    }
  });

  it('a payment the token refuses after it was posted (paused before it was mined) shows the refusal, not a generic failure', async () => {
    const session = await createSession('1200000');
    const payerBefore = await balanceOf(payer.address);
    const testClient = createTestClient({ mode: 'anvil', transport: http(chain.info.rpcUrl) });
    const { page } = await openWalletPage({ account: payer });
    await openCheckout(page, session.id);
    // Blocks only on demand: the relay's transaction waits in the pool while the issuer pauses the token.
    await testClient.setAutomine(false);
    try {
      await page.locator('#pay').click();
      await expect
        .poll(async () => (await db.sql`select status from relay_submissions where payment_session_id = ${session.id}`)[0]?.status, {
          timeout: 60_000,
        })
        .toBe('submitted');
      // A second page opened while the payment is processing (as a reload is): it never saw the nonce.
      const reloaded = (await openWalletPage({ account: payer })).page;
      await reloaded.goto(`${baseUrl}/checkout/${session.id}`);
      await expect.poll(() => reloaded.locator('#pay').textContent(), { timeout: 30_000 }).toBe('Processing…');
      // The pause outbids the relay's transfer in the same block, so the transfer runs on a paused token.
      const hash = await pauser().writeContract({
        address: token,
        abi: fiatTokenAbi,
        functionName: 'pause',
        maxPriorityFeePerGas: 50_000_000_000n,
        maxFeePerGas: 100_000_000_000n,
      });
      await testClient.mine({ blocks: 1 });
      await mined(hash);
      await testClient.setAutomine(true);
      await expect.poll(() => message(page), { timeout: 60_000 }).toBe(describeRefusalToPayer('token_paused'));
      await expect.poll(() => message(reloaded), { timeout: 60_000 }).toBe(describeRefusalToPayer('token_paused'));
      expect(await reloaded.locator('#pay').isEnabled()).toBe(true);
      // The public session names the failure; a page opened after it says it too.
      const view = await t.app.inject({ method: 'GET', url: `/v1/checkout/sessions/${session.id}` });
      expect(view.json()).toMatchObject({ status: 'open', lastPaymentError: { code: 'token_paused' } });
      // And the merchant's object, with the readable reason.
      expect((await merchantSession(session.id)).lastPaymentError).toEqual({
        code: 'token_paused',
        reason: expect.stringMatching(/paused/i),
      });
      const later = (await openWalletPage({ account: payer })).page;
      await openCheckout(later, session.id);
      await expect.poll(() => message(later), { timeout: 30_000 }).toBe(describeRefusalToPayer('token_paused'));
      await Promise.all([reloaded.close(), later.close()]);
      const [submission] = await db.sql`select status, failure_code from relay_submissions where payment_session_id = ${session.id}`;
      expect(submission).toMatchObject({ status: 'failed', failure_code: 'token_paused' });
      expect(await sessionStatus(session.id)).toBe('open');
      expect(await balanceOf(payer.address)).toBe(payerBefore);
      // The status route the page read: the code, and 404 for a nonce never posted for the session.
      const nonce = (
        await db.sql`select idempotency_key from relay_submissions where payment_session_id = ${session.id}`
      )[0]!.idempotency_key.slice(`checkout_${session.id}_`.length);
      const status = await t.app.inject({ method: 'GET', url: `/checkout/${session.id}/payments/${nonce}` });
      expect(status.json()).toMatchObject({ object: 'checkout_payment', submissionStatus: 'failed', failureCode: 'token_paused' });
      const unknown = await t.app.inject({ method: 'GET', url: `/checkout/${session.id}/payments/0x${'ab'.repeat(32)}` });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error).toMatchObject({ code: 'not_found', param: 'nonce' });
      await page.close();
    } finally {
      await testClient.setAutomine(true);
      if (await pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'paused' })) await setPaused(false);
    }
  });
});
