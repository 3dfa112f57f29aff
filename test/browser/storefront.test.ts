// The public store page in a real browser: headless Chromium (Debian's
// `chromium`) through playwright-core, the real app on 127.0.0.1, the real
// worker on the Temporal dev server, a private anvil and an injected EIP-1193
// test wallet. A customer opens /store/{slug}, sees the products and prices,
// buys one, pays in the hosted checkout and lands on the merchant's success
// page; the session is completed and names the product. Screenshots at desktop
// and phone widths go to .data/screenshots/ (git-ignored).
import { mkdir, rm } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { type Address, type PublicClient, createPublicClient, http } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
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

const SUCCESS_URL = 'https://roastery.example/thanks';
const CDN = 'https://cdn.roastery.example';
const SCREENSHOT_DIR = '.data/screenshots';

let chain: DevChain;
let db: TestDatabase;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let pub: PublicClient;
let token: Address;
let baseUrl: string;
let userDataDir: string;
let context: BrowserContext;
const products: Record<string, { id: string }> = {};
let planId: string;

const payout = DEV_ACCOUNTS.merchant.address;
const payer = privateKeyToAccount(DEV_ACCOUNTS.payers[4]!.privateKey);
/** Every response body the browser received, for the secret-key check. */
const bodies: Promise<string>[] = [];

/** A product photo stand-in: an SVG with a soft gradient and a label, served for the https image URLs. */
function svgImage(label: string, from: string, to: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
<rect width="800" height="600" fill="url(#g)"/>
<circle cx="400" cy="290" r="150" fill="rgba(255,255,255,.18)"/>
<text x="400" y="320" font-family="sans-serif" font-size="84" font-weight="700" text-anchor="middle" fill="#fff">${label}</text>
</svg>`;
}

const IMAGES: Record<string, string> = {
  'logo.svg': svgImage('R', '#0f766e', '#115e59'),
  'house.svg': svgImage('House', '#7c4a2d', '#3b2416'),
  'ethiopia.svg': svgImage('Yirga', '#b45309', '#78350f'),
  'mug.svg': svgImage('Mug', '#334155', '#0f172a'),
  'club.svg': svgImage('Club', '#0f766e', '#134e4a'),
};

async function api(method: 'GET' | 'POST', url: string, payload?: object) {
  const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${merchant.secretKey}` }, payload });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

beforeAll(async () => {
  chain = await startPrivateChain();
  const settings = settingsOf(chain.info);
  token = chain.info.token;
  pub = createPublicClient({ chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl), transport: http(chain.info.rpcUrl) });
  db = await createTestDatabase();
  temporal = await startDevServerWorker(db.sql, { chain: { test: settings } });
  t = await createTestApp(db.sql, { temporal: temporal.client, taskQueue: temporal.taskQueue, chain: { test: settings } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  merchant = await seedMerchant(db.sql, 'North Roastery Ltd');
  await setPayoutAddress(db.sql, merchant.merchantId, payout);

  await api('POST', '/v1/storefront', {
    slug: 'north-roastery',
    name: 'North Roastery',
    description: 'Small-batch specialty coffee, roasted every Tuesday and shipped the same week.',
    logoUrl: `${CDN}/logo.svg`,
    accentColor: '#0f766e',
    supportEmail: 'hello@roastery.example',
    successUrl: SUCCESS_URL,
    cancelUrl: 'https://roastery.example/',
  });
  products.house = await api('POST', '/v1/storefront/products', {
    name: 'House Blend, 250 g',
    description: 'Chocolate, hazelnut and a little red fruit. Our everyday espresso.',
    imageUrl: `${CDN}/house.svg`,
    amount: '12500000',
  });
  products.ethiopia = await api('POST', '/v1/storefront/products', {
    name: 'Ethiopia Yirgacheffe, 250 g',
    description: 'Washed. Jasmine, bergamot, lemon curd. Best as filter.',
    imageUrl: `${CDN}/ethiopia.svg`,
    amount: '16750000',
  });
  products.mug = await api('POST', '/v1/storefront/products', {
    name: 'Stoneware mug',
    description: 'Hand-thrown, 300 ml, dishwasher safe.',
    imageUrl: `${CDN}/mug.svg`,
    amount: '24000000',
  });
  products.xss = await api('POST', '/v1/storefront/products', {
    name: '<script>window.__xss = 1</script>',
    description: '<img src=x onerror="window.__xss = 2">',
    amount: '1000000',
  });
  const plan = await api('POST', '/v1/subscription-plans', { name: 'Coffee club', amount: '30000000', interval: 'monthly' });
  planId = plan.id;
  products.club = await api('POST', '/v1/storefront/products', {
    name: 'Coffee Club',
    description: 'Two fresh bags every month. Pause or cancel any time.',
    imageUrl: `${CDN}/club.svg`,
    planId,
  });
  products.archived = await api('POST', '/v1/storefront/products', { name: 'Holiday blend (sold out)', amount: '1000000' });
  await api('POST', `/v1/storefront/products/${products.archived!.id}/archive`);

  ({ context, userDataDir } = await launchBrowser());
  await context.route(`${CDN}/**`, (route) => {
    const name = new URL(route.request().url()).pathname.slice(1);
    const svg = IMAGES[name];
    return svg ? route.fulfill({ status: 200, contentType: 'image/svg+xml', body: svg }) : route.fulfill({ status: 404, body: '' });
  });
  await context.route('https://roastery.example/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><h1>Thanks for your order</h1>' }),
  );
  context.on('response', (response) => {
    // A page closed before its body was read gives an empty text (the check below needs content, not every byte).
    bodies.push(
      Promise.all([response.allHeaders(), response.body().catch(() => Buffer.alloc(0))])
        .then(([h, b]) => `${JSON.stringify(h)}\n${b.toString('utf8')}`)
        .catch(() => ''),
    );
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

/** A page with the test wallet backed by `account`, forwarding reads to anvil. */
async function openWalletPage(
  account: PrivateKeyAccount,
  viewport = { width: 1280, height: 900 },
): Promise<{ page: Page; methods: string[] }> {
  const { page, log } = await openTestWalletPage(context, { account, chainId: chain.info.chainId, rpcUrl: chain.info.rpcUrl, viewport });
  return { page, methods: log.methods };
}

const card = (page: Page, productId: string) => page.locator(`li.card[data-product-id="${productId}"]`);

describe('the store page in headless Chromium', () => {
  it('shows the active products with images, names and prices; merchant text is shown as text, never run', async () => {
    const { page } = await openWalletPage(payer);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${baseUrl}/store/north-roastery`);
    expect(await page.locator('h1').textContent()).toBe('North Roastery');
    expect(await page.locator('li.card').count()).toBe(5);
    expect(await card(page, products.house!.id).locator('.name').textContent()).toBe('House Blend, 250 g');
    expect(await card(page, products.house!.id).locator('.price').textContent()).toBe('12.50USDC');
    expect(await card(page, products.ethiopia!.id).locator('.price').textContent()).toBe('16.75USDC');
    expect(await card(page, products.mug!.id).locator('.price').textContent()).toBe('24.00USDC');
    expect(await card(page, products.club!.id).locator('.price').textContent()).toBe('30.00USDC/ month');
    expect(await card(page, products.club!.id).locator('button').textContent()).toBe('Subscribe');
    expect(await card(page, products.house!.id).locator('button').textContent()).toBe('Buy now');
    expect(await page.getByText('Holiday blend').count()).toBe(0);
    // Images loaded (the https CDN stand-in), the logo included.
    await expect
      .poll(() => page.evaluate(() => Array.from(document.images).every((img) => img.complete && img.naturalWidth > 0)))
      .toBe(true);
    expect(await page.locator('header img').count()).toBe(1);
    // The product named <script> is text on the page; nothing it holds ran.
    expect(await card(page, products.xss!.id).locator('.name').textContent()).toBe('<script>window.__xss = 1</script>');
    expect(await card(page, products.xss!.id).locator('.description').textContent()).toBe('<img src=x onerror="window.__xss = 2">');
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    // The accent colour drives the buttons.
    expect(
      await card(page, products.house!.id)
        .locator('button')
        .evaluate((b) => getComputedStyle(b).backgroundColor),
    ).toBe('rgb(15, 118, 110)');
    await page.close();
  });

  it('buy one: the button creates a session for the product, the wallet pays on anvil, the customer lands on the success page', async () => {
    const [payerBefore, payoutBefore] = await Promise.all([balanceOf(payer.address), balanceOf(payout)]);
    const { page, methods } = await openWalletPage(payer);
    await page.goto(`${baseUrl}/store/north-roastery`);
    await card(page, products.ethiopia!.id).locator('button').click();
    await page.waitForURL(/\/checkout\/ps_[0-9A-Z]{26}$/, { timeout: 30_000 });
    const sessionId = new URL(page.url()).pathname.split('/').pop()!;
    await expect.poll(() => page.locator('#pay').isEnabled(), { timeout: 30_000 }).toBe(true);
    expect(await page.locator('#merchant').textContent()).toBe('North Roastery'); // a storefront purchase names the store (issue 26)
    await expect.poll(() => page.locator('#amount').textContent()).toMatch(/^16\.75 /);

    await page.locator('#pay').click();
    await page.waitForURL((url) => url.href.startsWith(SUCCESS_URL), { timeout: 60_000 });
    expect(await page.locator('h1').textContent()).toBe('Thanks for your order');
    expect(methods).toContain('eth_signTypedData_v4');

    const session = await api('GET', `/v1/payment-sessions/${sessionId}`);
    expect(session).toMatchObject({
      status: 'completed',
      amount: '16750000',
      productId: products.ethiopia!.id,
      productName: 'Ethiopia Yirgacheffe, 250 g',
      payer: payer.address,
      successUrl: SUCCESS_URL,
    });
    expect(await balanceOf(payer.address)).toBe(payerBefore - 16_750_000n);
    expect(await balanceOf(payout)).toBe(payoutBefore + 16_750_000n);
    const [event] = await db.sql<{ data: { object: Record<string, unknown> } }[]>`
      select data from events where type = 'payment.completed' and data->'object'->>'id' = ${sessionId}`;
    expect(event?.data.object).toMatchObject({
      id: sessionId,
      productId: products.ethiopia!.id,
      productName: 'Ethiopia Yirgacheffe, 250 g',
    });
    await page.close();
  });

  it('a subscription product lands on the hosted enrolment of its plan', async () => {
    const { page } = await openWalletPage(payer);
    await page.goto(`${baseUrl}/store/north-roastery`);
    await card(page, products.club!.id).locator('button').click();
    await page.waitForURL(new RegExp(`/checkout/plans/${planId}$`), { timeout: 30_000 });
    await expect.poll(() => page.locator('#pay').textContent(), { timeout: 30_000 }).toMatch(/Subscribe/);
    await page.close();
  });

  it('an unknown store is a 404 page', async () => {
    const { page } = await openWalletPage(payer);
    const response = await page.goto(`${baseUrl}/store/no-such-roastery`);
    expect(response?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('Store not found');
    await page.close();
  });

  it('renders at desktop and phone widths (screenshots in .data/screenshots), no horizontal scrolling on a phone', async () => {
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    for (const [name, viewport] of [
      ['desktop', { width: 1280, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const { page } = await openWalletPage(payer, viewport);
      await page.goto(`${baseUrl}/store/north-roastery`);
      // Product images load lazily; a full-page screenshot does not scroll, so load them all first.
      await page.evaluate(() => document.querySelectorAll('img').forEach((img) => (img.loading = 'eager')));
      await expect
        .poll(() => page.evaluate(() => Array.from(document.images).every((img) => img.complete && img.naturalWidth > 0)))
        .toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      if (name === 'phone') {
        // One card per row, as wide as the content column.
        const boxes = await page.locator('li.card').evaluateAll((cards) => cards.map((c) => c.getBoundingClientRect().left));
        expect(new Set(boxes.map((left) => Math.round(left))).size).toBe(1);
      }
      await page.screenshot({ path: `${SCREENSHOT_DIR}/storefront-${name}.png`, fullPage: true });
      await page.screenshot({ path: `${SCREENSHOT_DIR}/storefront-${name}-first-screen.png` });
      await page.close();
    }
  });

  it('no response the browser saw contains a secret or publishable key', async () => {
    const all = (await Promise.all(bodies)).join('\n');
    expect(all).toContain('North Roastery');
    expect(all).not.toContain(merchant.secretKey);
    expect(all).not.toContain(merchant.liveSecretKey);
    expect(all).not.toMatch(/sk_(test|live)_|pk_(test|live)_/);
  });
});
