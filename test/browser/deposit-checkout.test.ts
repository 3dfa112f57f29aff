// The hosted checkout paid by transfer in headless Chromium with no wallet in the browser: at phone
// width (390 px) the page names the store and the purchase, shows the deposit address, the exact
// amount, the QR code and the countdown; a plain ERC-20 transfer from an EOA (outside the browser)
// is picked up by the real indexer and worker, and the page updates itself to paid. After a partial
// transfer, the wallet button (an injected test wallet) signs only what remains due. With a second
// test-mode chain configured (issue 39), the page offers exactly the session's accepted chains: choosing
// chain B asks the wallet to switch to it, signs and pays there, and the transfer's link and QR name chain B. The plan
// enrolment page offers the plan's chains with the same picker: choosing chain B enrols there.
import { mkdir, rm } from 'node:fs/promises';
import type { BrowserContext } from 'playwright-core';
import { type Address, type Hex, type PublicClient, createPublicClient, createWalletClient, erc20Abi, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { subscriptionManagerV2Of, type ChainConfig, type ChainSettings } from '../../src/chain/config.js';
import { subscriptionManagerAbi } from '../../src/chain/generated/contracts.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { createEventDispatcher } from '../../src/events/dispatch.js';
import { newId } from '../../src/ids.js';
import { createHookRegistry } from '../../src/indexer/hooks.js';
import { createIndexer } from '../../src/indexer/indexer.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { depositIndexerHooks } from '../../src/payment-sessions/deposit-hooks.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { launchBrowser } from '../support/browser.js';
import { SECOND_CHAIN_ID, settingsOf, startPrivateChain, startSecondChain } from '../support/chain.js';
import { qrSvg } from '../../src/checkout/deposit-qr.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { openWalletPage } from '../support/test-wallet.js';
import { until } from '../support/until.js';

const SCREENSHOT_DIR = '.data/screenshots';
let chain: DevChain;
let settings: ChainSettings;
let chainB: DevChain;
let settingsB: ChainSettings;
let db: TestDatabase;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let baseUrl: string;
let context: BrowserContext;
let userDataDir: string;
const indexerStop = new AbortController();
let indexerRun: Promise<void>;
const payer = privateKeyToAccount(DEV_ACCOUNTS.payers[3]!.privateKey);

beforeAll(async () => {
  [chain, chainB] = await Promise.all([startPrivateChain(), startSecondChain()]);
  settings = settingsOf(chain.info);
  settingsB = settingsOf(chainB.info);
  // Both chains in test mode, the first the default: sessions accept both unless they say otherwise.
  const config: ChainConfig = { test: settings, others: { test: [settingsB] } };
  db = await createTestDatabase();
  temporal = await startDevServerWorker(db.sql, { chain: config });
  t = await createTestApp(db.sql, { temporal: temporal.client, taskQueue: temporal.taskQueue, chain: config });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  merchant = await seedMerchant(db.sql, 'Transfer shop');
  await setPayoutAddress(db.sql, merchant.merchantId, DEV_ACCOUNTS.merchant.address);
  await db.sql`
    insert into storefronts (id, merchant_id, livemode, slug, name, accent_color, support_email)
    values (${newId('storefront')}, ${merchant.merchantId}, false, ${`transfer-${Date.now()}`}, 'Corner Bakery', '#2b59c3', 'help@bakery.example')`;
  const hooks = createHookRegistry(
    depositIndexerHooks({
      sql: db.sql,
      events: createEventDispatcher(temporal.client, temporal.taskQueue, () => {}),
      temporal: temporal.client,
      taskQueue: temporal.taskQueue,
      publicBaseUrl: baseUrl,
    }),
  );
  indexerRun = createIndexer({ sql: db.sql, settings, hooks, temporal: temporal.client }).run(indexerStop.signal);
  ({ context, userDataDir } = await launchBrowser());
}, 180_000);
afterAll(async () => {
  indexerStop.abort();
  await indexerRun?.catch(() => undefined);
  await context?.close();
  if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  await t?.close();
  await temporal?.stop();
  await db?.drop();
  await Promise.all([chain?.stop(), chainB?.stop()]);
});

describe('hosted checkout paid by transfer, no wallet in the browser', () => {
  it('shows the store, the transfer and its QR code at 390 px, and updates itself to paid', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/payment-sessions',
      headers: { authorization: `Bearer ${merchant.secretKey}` },
      payload: { amount: '3250000', cancelUrl: 'https://bakery.example/cart' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const session = created.json() as { id: string; deposit: { address: Address } };

    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${baseUrl}/checkout/${session.id}`);
    await page.waitForFunction(() => document.getElementById('deposit-address')?.textContent?.startsWith('0x'));
    expect(await page.textContent('#merchant')).toBe('Corner Bakery');
    expect(await page.textContent('#deposit-address')).toBe(session.deposit.address);
    expect(await page.textContent('#deposit-amount')).toContain('3.25');
    expect(await page.textContent('#deposit-network')).toContain('31337');
    expect(await page.textContent('#support-link')).toContain('help@bakery.example');
    expect(await page.getAttribute('#cancel-link', 'href')).toBe('https://bakery.example/cart');
    await page.waitForSelector('#deposit-qr:not([hidden])');
    expect(await page.textContent('#deposit-countdown')).toMatch(/^Expires in \d+ (days?|hours?|min|s)\b/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOT_DIR}/checkout-transfer-390.png`, fullPage: true });

    // Clicking the wallet button without a wallet points to the transfer.
    await page.click('#pay');
    expect(await page.textContent('#message')).toContain('Send the transfer below');
    // The optional email, left before paying by transfer: kept on the session (a label, never how a customer is found).
    await page.fill('#email', 'buyer@bakery.example');
    await page.press('#email', 'Tab');
    await page.waitForFunction(() => document.getElementById('email-message')?.textContent === 'Saved.');

    const viemChain = chainDefinition(chain.info.chainId, chain.info.rpcUrl);
    const wallet = createWalletClient({ account: payer, chain: viemChain, transport: http(chain.info.rpcUrl) });
    const pub = createPublicClient({ chain: viemChain, transport: http(chain.info.rpcUrl), pollingInterval: 50 });
    const hash = await wallet.writeContract({
      address: settings.token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [session.deposit.address, 3_250_000n],
    });
    expect((await waitForDevReceipt(pub, hash)).status).toBe('success');

    // Paid without a success URL: the server's receipt replaces the page, with no address left on it.
    await page.waitForSelector('#receipt', { timeout: 30_000 });
    expect(await page.textContent('#message')).toContain('Payment confirmed');
    expect(await page.textContent('#receipt-transaction')).toBe(hash);
    expect((await page.content()).toLowerCase()).not.toContain(session.deposit.address.toLowerCase());
    await page.screenshot({ path: `${SCREENSHOT_DIR}/checkout-transfer-390-paid.png`, fullPage: true });
    // The transfer's sender is the payer, and its wallet's customer took the email (docs/decisions.md, One-off payers).
    const paid = (
      await t.app.inject({
        method: 'GET',
        url: `/v1/payment-sessions/${session.id}`,
        headers: { authorization: `Bearer ${merchant.secretKey}` },
      })
    ).json();
    expect(paid).toMatchObject({ payer: payer.address, customerEmail: 'buyer@bakery.example', customerId: expect.stringMatching(/^cus_/) });
    const customer = (
      await t.app.inject({
        method: 'GET',
        url: `/v1/customers/${paid.customerId}`,
        headers: { authorization: `Bearer ${merchant.secretKey}` },
      })
    ).json();
    expect(customer).toMatchObject({ walletAddress: payer.address.toLowerCase(), email: 'buyer@bakery.example' });
    await page.close();
  });

  it('after a partial transfer the wallet signs only what remains due, and the session counts both once (issue 36, item 4)', async () => {
    const headers = { authorization: `Bearer ${merchant.secretKey}` };
    const created = await t.app.inject({ method: 'POST', url: '/v1/payment-sessions', headers, payload: { amount: '2000000' } });
    expect(created.statusCode, created.body).toBe(200);
    const session = created.json() as { id: string; deposit: { address: Address } };
    const read = async () => (await t.app.inject({ method: 'GET', url: `/v1/payment-sessions/${session.id}`, headers })).json();

    const viemChain = chainDefinition(chain.info.chainId, chain.info.rpcUrl);
    const pub = createPublicClient({ chain: viemChain, transport: http(chain.info.rpcUrl), pollingInterval: 50 }) as PublicClient;
    const wallet = createWalletClient({ account: payer, chain: viemChain, transport: http(chain.info.rpcUrl) });
    const hash = await wallet.writeContract({
      address: settings.token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [session.deposit.address, 500_000n],
    });
    expect((await waitForDevReceipt(pub, hash)).status).toBe('success');
    await until(read, (s) => s.deposit.amountReceived === '500000', 'the partial transfer credited');

    const signer = privateKeyToAccount(DEV_ACCOUNTS.payers[4]!.privateKey);
    const balance = () => pub.readContract({ address: settings.token, abi: erc20Abi, functionName: 'balanceOf', args: [signer.address] });
    const before = await balance();
    const { page } = await openWalletPage(context, { account: signer, chainId: chain.info.chainId, rpcUrl: chain.info.rpcUrl });
    await page.goto(`${baseUrl}/checkout/${session.id}`);
    await expect.poll(() => page.locator('#pay').isEnabled(), { timeout: 30_000 }).toBe(true);
    await page.locator('#pay').click();
    const done = await until(read, (s) => s.status === 'completed', 'completed by the wallet payment');
    expect(await balance()).toBe(before - 1_500_000n);
    const [submission] = await db.sql<
      { value: string }[]
    >`select call->>'value' as value from relay_submissions where payment_session_id = ${session.id}`;
    expect(submission?.value).toBe('1500000');
    expect(done.deposit).toMatchObject({ amountReceived: '500000', amountRemaining: '0', amountExcess: '0' });
    expect(done.amountRefundable).toBe('2000000');
    await page.close();
  });
});

describe('choosing the network among the accepted chains (issue 39)', () => {
  const headers = () => ({ authorization: `Bearer ${merchant.secretKey}` });
  const pubB = () =>
    createPublicClient({
      chain: chainDefinition(SECOND_CHAIN_ID, chainB.info.rpcUrl),
      transport: http(chainB.info.rpcUrl),
      pollingInterval: 50,
    });

  it('lists exactly the accepted chains; choosing chain B switches the wallet to it, pays there, and the transfer names chain B', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/v1/payment-sessions', headers: headers(), payload: { amount: '1250000' } });
    expect(created.statusCode, created.body).toBe(200);
    const session = created.json() as { id: string; acceptedChainIds: number[]; deposit: { address: Address } };
    expect(session.acceptedChainIds).toEqual([chain.info.chainId, SECOND_CHAIN_ID]);

    const signer = privateKeyToAccount(DEV_ACCOUNTS.payers[5]!.privateKey);
    const balanceB = () =>
      pubB().readContract({ address: settingsB.token, abi: erc20Abi, functionName: 'balanceOf', args: [signer.address] });
    const before = await balanceB();
    const { page, log } = await openWalletPage(context, {
      account: signer,
      chainId: chain.info.chainId,
      rpcUrl: chain.info.rpcUrl,
      otherChains: { [SECOND_CHAIN_ID]: chainB.info.rpcUrl },
      viewport: { width: 390, height: 844 },
    });
    await page.goto(`${baseUrl}/checkout/${session.id}`);
    await page.waitForFunction(() => document.getElementById('deposit-address')?.textContent?.startsWith('0x'));
    expect(await page.isVisible('#network')).toBe(true);
    const offered = await page.$$eval('#network option', (options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(offered).toEqual([String(chain.info.chainId), String(SECOND_CHAIN_ID)]);

    await page.selectOption('#network', String(SECOND_CHAIN_ID));
    // The same address, with chain B named beside it; the link and the QR code are chain B's EIP-681 transfer.
    expect(await page.textContent('#deposit-network')).toContain(String(SECOND_CHAIN_ID));
    expect(await page.textContent('#deposit-address')).toBe(session.deposit.address);
    expect(await page.textContent('#details')).toContain(String(SECOND_CHAIN_ID));
    const uriB = `ethereum:${settingsB.token}@${SECOND_CHAIN_ID}/transfer?address=${session.deposit.address}&uint256=1250000`;
    expect(await page.getAttribute('#deposit-link', 'href')).toBe(uriB);
    await page.waitForSelector('#deposit-qr:not([hidden])');
    const qrPath = new URL((await page.getAttribute('#deposit-qr', 'src'))!, baseUrl);
    expect(qrPath.searchParams.get('chainId')).toBe(String(SECOND_CHAIN_ID));
    const qr = await t.app.inject({ method: 'GET', url: qrPath.pathname + qrPath.search });
    expect(qr.statusCode).toBe(200);
    expect(qr.body).toBe(await qrSvg(uriB));

    await expect.poll(() => page.locator('#pay').isEnabled(), { timeout: 30_000 }).toBe(true);
    await page.locator('#pay').click();
    const read = async () => (await t.app.inject({ method: 'GET', url: `/v1/payment-sessions/${session.id}`, headers: headers() })).json();
    const done = await until(read, (s) => s.status === 'completed', 'completed by the wallet payment on chain B');
    expect(done.transactionChainId).toBe(SECOND_CHAIN_ID);
    expect(await balanceB()).toBe(before - 1_250_000n);
    // EIP-3326: the page asked the wallet to switch to chain B's id, then signed for chain B's token.
    const switches = log.requests.filter((r) => r.method === 'wallet_switchEthereumChain');
    expect(switches.map((r) => r.params)).toEqual([[{ chainId: `0x${SECOND_CHAIN_ID.toString(16)}` }]]);
    const signed = log.requests.find((r) => r.method === 'eth_signTypedData_v4');
    const typed = JSON.parse((signed!.params as [string, string])[1]) as { domain: { chainId: number; verifyingContract: string } };
    expect(Number(typed.domain.chainId)).toBe(SECOND_CHAIN_ID);
    expect(typed.domain.verifyingContract.toLowerCase()).toBe(settingsB.token.toLowerCase());
    await page.close();
  });

  it('the plan enrolment page offers the same picker: choosing chain B switches the wallet, signs both messages for chain B and enrols there', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: headers(),
      payload: { name: 'Bread weekly', amount: '1500000', interval: 'weekly' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const plan = created.json() as { id: string };
    const subscriber = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);
    const { page, log } = await openWalletPage(context, {
      account: subscriber,
      chainId: chain.info.chainId,
      rpcUrl: chain.info.rpcUrl,
      otherChains: { [SECOND_CHAIN_ID]: chainB.info.rpcUrl },
    });
    await page.goto(`${baseUrl}/checkout/plans/${plan.id}`);
    await expect.poll(() => page.locator('#pay').isEnabled(), { timeout: 30_000 }).toBe(true);
    expect(await page.isVisible('#network')).toBe(true);
    const offered = await page.$$eval('#network option', (options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(offered).toEqual([String(chain.info.chainId), String(SECOND_CHAIN_ID)]);
    expect(await page.textContent('#details')).toContain(String(chain.info.chainId));

    // Choosing chain B loads chain B's offer: the page names it before the button is usable again.
    await page.selectOption('#network', String(SECOND_CHAIN_ID));
    await expect.poll(() => page.textContent('#details'), { timeout: 30_000 }).toContain(String(SECOND_CHAIN_ID));
    await expect.poll(() => page.locator('#pay').isEnabled(), { timeout: 30_000 }).toBe(true);
    expect(await page.textContent('#amount')).toMatch(/^1\.50 \S+ per week$/);
    await page.locator('#pay').click();
    await expect.poll(() => page.textContent('#message'), { timeout: 60_000 }).toMatch(/You are subscribed/);

    // EIP-3326 to chain B, then the permit (chain B's USDC) and the Enrolment (chain B's manager), both naming chain B.
    const switches = log.requests.filter((r) => r.method === 'wallet_switchEthereumChain');
    expect(switches.map((r) => r.params)).toEqual([[{ chainId: `0x${SECOND_CHAIN_ID.toString(16)}` }]]);
    const domains = log.requests
      .filter((r) => r.method === 'eth_signTypedData_v4')
      .map((r) => (JSON.parse((r.params as [string, string])[1]) as { domain: { chainId: number; verifyingContract: string } }).domain);
    expect(domains.map((d) => Number(d.chainId))).toEqual([SECOND_CHAIN_ID, SECOND_CHAIN_ID]);
    expect(domains.map((d) => d.verifyingContract.toLowerCase())).toEqual([
      settingsB.token.toLowerCase(),
      subscriptionManagerV2Of(settingsB).toLowerCase(),
    ]);
    const [submission] = await db.sql<{ chainId: string; status: string; key: string }[]>`
      select chain_id::text as "chainId", status, idempotency_key as key from relay_submissions
      where merchant_id = ${merchant.merchantId} and kind = 'subscription'`;
    expect(submission).toMatchObject({ chainId: String(SECOND_CHAIN_ID), status: 'confirmed' });
    const nonce = submission!.key.slice(`checkout_${plan.id}_`.length) as Hex;
    const used = (client: PublicClient, settings: ChainSettings) =>
      client.readContract({
        address: subscriptionManagerV2Of(settings),
        abi: subscriptionManagerAbi,
        functionName: 'enrolmentNonceUsed',
        args: [subscriber.address, nonce],
      });
    const pubA = createPublicClient({ chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl), transport: http(chain.info.rpcUrl) });
    expect(await used(pubB() as PublicClient, settingsB)).toBe(true);
    expect(await used(pubA as PublicClient, settings)).toBe(false);
    await page.close();
  });

  it("a session that accepts chain B alone offers no other network: its transfer and QR code are chain B's", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/payment-sessions',
      headers: headers(),
      payload: { amount: '700000', acceptedChainIds: [SECOND_CHAIN_ID] },
    });
    expect(created.statusCode, created.body).toBe(200);
    const session = created.json() as { id: string; deposit: { address: Address } };
    const page = await context.newPage();
    await page.goto(`${baseUrl}/checkout/${session.id}`);
    await page.waitForFunction(() => document.getElementById('deposit-address')?.textContent?.startsWith('0x'));
    expect(await page.isVisible('#network-choice')).toBe(false);
    expect(await page.$$eval('#network option', (options) => options.length)).toBe(0);
    expect(await page.textContent('#deposit-network')).toContain(String(SECOND_CHAIN_ID));
    expect(await page.getAttribute('#deposit-link', 'href')).toContain(`@${SECOND_CHAIN_ID}/transfer`);
    expect(await page.getAttribute('#deposit-qr', 'src')).toContain(`chainId=${SECOND_CHAIN_ID}`);
    expect(await page.textContent('#details')).toContain(String(SECOND_CHAIN_ID));
    await page.close();
  });
});

// Issue 36, items 10 and 11: a link that can no longer be paid never shows where to pay, and no page
// shows an address that is not matched to the session (the merchant's payout address).
describe('what a checkout link shows once it cannot be paid', () => {
  const TX = `0x${'ab'.repeat(32)}`;

  async function sessionIn(state: string, amount = '3250000'): Promise<{ id: string; deposit: { address: Address } }> {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/payment-sessions',
      headers: { authorization: `Bearer ${merchant.secretKey}` },
      payload: { amount, cancelUrl: 'https://bakery.example/cart' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const session = created.json() as { id: string; deposit: { address: Address } };
    if (state === 'paid') {
      await db.sql`update payment_sessions set status = 'completed', transaction_hash = ${TX}, payer = ${payer.address}, completed_at = '2026-11-26T15:20:00Z' where id = ${session.id}`;
    } else if (state === 'expired-partial') {
      await db.sql`update payment_sessions set status = 'expired', amount_received = 1000000 where id = ${session.id}`;
    } else if (state === 'past-expiry') {
      await db.sql`update payment_sessions set expires_at = now() - interval '1 minute' where id = ${session.id}`;
    } else if (state !== 'open') {
      await db.sql`update payment_sessions set status = ${state} where id = ${session.id}`;
    }
    return session;
  }

  /** The page at `width` once its script (if any) has read the session; its HTML and visible text. */
  async function open(id: string, width: number) {
    const page = await context.newPage();
    await page.setViewportSize({ width, height: 844 });
    await page.goto(`${baseUrl}/checkout/${id}`, { waitUntil: 'networkidle' });
    await page.waitForFunction(() => document.getElementById('merchant')?.textContent !== 'Loading…');
    await page.waitForLoadState('networkidle');
    const html = (await page.content()).toLowerCase();
    const visible = await page.evaluate(() => document.body.innerText);
    return { page, html, visible };
  }

  async function expectNoWayToPay(id: string, address: Address, html: string, visible: string) {
    expect(html).not.toContain(address.toLowerCase());
    expect(html).not.toMatch(/<img[^>]*deposit-qr|id="transfer"/);
    expect(visible).not.toMatch(/send .*exactly|Pay with wallet/i);
    expect((await t.app.inject({ method: 'GET', url: `/checkout/${id}/deposit-qr.svg` })).statusCode).toBe(404);
  }

  for (const width of [390, 1280]) {
    it(`a paid link (no success URL) shows a receipt and no address or QR at ${width} px`, async () => {
      const session = await sessionIn('paid');
      const { page, html, visible } = await open(session.id, width);
      await expectNoWayToPay(session.id, session.deposit.address, html, visible);
      expect(await page.textContent('#receipt-amount')).toBe('3.25 USDC');
      expect(await page.textContent('#receipt-merchant')).toBe('Corner Bakery');
      expect(await page.textContent('#receipt-date')).toBe('26 Nov 2026, 15:20 UTC');
      expect(await page.textContent('#receipt-transaction')).toBe(TX);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/checkout-receipt-${width}.png`, fullPage: true });
      await page.close();
    });

    it(`an expired link shows no address or QR, says it expired and what to do, at ${width} px`, async () => {
      for (const state of ['expired-partial', 'past-expiry']) {
        const session = await sessionIn(state);
        const { page, html, visible } = await open(session.id, width);
        await expectNoWayToPay(session.id, session.deposit.address, html, visible);
        expect(await page.textContent('#message')).toMatch(/expired/);
        expect(visible).toContain('to start a new payment');
        if (state === 'expired-partial') expect(await page.textContent('#ended-received')).toContain('You sent 1.00 USDC before it ended');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.screenshot({ path: `${SCREENSHOT_DIR}/checkout-${state}-${width}.png`, fullPage: true });
        await page.close();
      }
    });
  }

  it('a cancelled link and a processing one show no address; a processing one says a payment is being confirmed', async () => {
    const cancelled = await sessionIn('cancelled');
    const a = await open(cancelled.id, 390);
    await expectNoWayToPay(cancelled.id, cancelled.deposit.address, a.html, a.visible);
    expect(await a.page.textContent('#message')).toMatch(/cancelled/);
    await a.page.close();

    const processing = await sessionIn('processing');
    const b = await open(processing.id, 390);
    await expect.poll(() => b.page.textContent('#message')).toMatch(/being confirmed/);
    expect(await b.page.isVisible('#transfer')).toBe(false);
    expect(b.visible.toLowerCase()).not.toContain(processing.deposit.address.toLowerCase());
    expect((await t.app.inject({ method: 'GET', url: `/checkout/${processing.id}/deposit-qr.svg` })).statusCode).toBe(404);
    await b.page.close();
  });

  it("an open link shows the session's deposit address and never the merchant's payout address", async () => {
    const session = await sessionIn('open');
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${baseUrl}/checkout/${session.id}`);
    await page.waitForFunction(() => document.getElementById('deposit-address')?.textContent?.startsWith('0x'));
    const visible = (await page.evaluate(() => document.body.innerText)).toLowerCase();
    expect(visible).toContain(session.deposit.address.toLowerCase());
    expect(visible).not.toContain(DEV_ACCOUNTS.merchant.address.toLowerCase());
    expect(await page.textContent('#details')).toContain('31337');
    await page.close();
  });
});
