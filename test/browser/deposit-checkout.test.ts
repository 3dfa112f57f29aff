// The hosted checkout paid by transfer in headless Chromium with no wallet in the browser: at phone
// width (390 px) the page names the store and the purchase, shows the deposit address, the exact
// amount, the QR code and the countdown; a plain ERC-20 transfer from an EOA (outside the browser)
// is picked up by the real indexer and worker, and the page updates itself to paid. After a partial
// transfer, the wallet button (an injected test wallet) signs only what remains due.
import { mkdir, rm } from 'node:fs/promises';
import type { BrowserContext } from 'playwright-core';
import { type Address, type PublicClient, createPublicClient, createWalletClient, erc20Abi, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import type { ChainSettings } from '../../src/chain/config.js';
import type { DevChain } from '../../src/dev/chain/dev-chain.js';
import { waitForDevReceipt } from '../../src/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../src/dev/chain/test-accounts.js';
import { createEventDispatcher } from '../../src/events/dispatch.js';
import { newId } from '../../src/ids.js';
import { createHookRegistry } from '../../src/indexer/hooks.js';
import { createIndexer } from '../../src/indexer/indexer.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { depositIndexerHooks } from '../../src/payment-sessions/deposit-hooks.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { launchBrowser } from '../support/browser.js';
import { settingsOf, startPrivateChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { openWalletPage } from '../support/test-wallet.js';
import { until } from '../support/until.js';

const SCREENSHOT_DIR = '.data/screenshots';
let chain: DevChain;
let settings: ChainSettings;
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
  chain = await startPrivateChain();
  settings = settingsOf(chain.info);
  db = await createTestDatabase();
  temporal = await startDevServerWorker(db.sql, { chain: { test: settings } });
  t = await createTestApp(db.sql, { temporal: temporal.client, taskQueue: temporal.taskQueue, chain: { test: settings } });
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
  await chain?.stop();
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
    expect(await page.textContent('#deposit-countdown')).toMatch(/Expires in \d+:\d\d/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOT_DIR}/checkout-transfer-390.png`, fullPage: true });

    // Clicking the wallet button without a wallet points to the transfer.
    await page.click('#pay');
    expect(await page.textContent('#message')).toContain('Send the transfer below');

    const viemChain = chainDefinition(chain.info.chainId, chain.info.rpcUrl);
    const wallet = createWalletClient({ account: payer, chain: viemChain, transport: http(chain.info.rpcUrl) });
    const pub = createPublicClient({ chain: viemChain, transport: http(chain.info.rpcUrl), pollingInterval: 50 });
    const hash = await wallet.writeContract({ address: settings.token, abi: erc20Abi, functionName: 'transfer', args: [session.deposit.address, 3_250_000n] });
    expect((await waitForDevReceipt(pub, hash)).status).toBe('success');

    await page.waitForFunction(() => /Payment confirmed/.test(document.getElementById('message')?.textContent ?? ''), undefined, { timeout: 30_000 });
    expect(await page.textContent('#deposit-progress')).toContain('Payment received');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/checkout-transfer-390-paid.png`, fullPage: true });
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
    const hash = await wallet.writeContract({ address: settings.token, abi: erc20Abi, functionName: 'transfer', args: [session.deposit.address, 500_000n] });
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
    const [submission] = await db.sql<{ value: string }[]>`select call->>'value' as value from relay_submissions where payment_session_id = ${session.id}`;
    expect(submission?.value).toBe('1500000');
    expect(done.deposit).toMatchObject({ amountReceived: '500000', amountRemaining: '0', amountExcess: '0' });
    expect(done.amountRefundable).toBe('2000000');
    await page.close();
  });
});
