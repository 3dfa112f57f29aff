// The quickstart of /docs runs: its samples, extracted from the guide's source
// (src/docs/quickstart.ts), are run in order as one script against a test stack
// (Postgres, the local chain's settings) with a test key, and what they create is
// checked in the database. The branded docs page and the quickstart page are served.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { DOCS_LOGO_SVG, QUICKSTART, quickstartScript } from '../../src/docs/quickstart.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, sharedChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
let baseUrl: string;

beforeAll(async () => {
  db = await createTestDatabase();
  // The local stack's settings: no resolver of our own and no private webhook targets, so the samples
  // run here exactly as a reader copies them (only the key and the API URL come from the environment).
  t = await createTestApp(db.sql, { chain: { test: settingsOf(sharedChain()) } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  merchant = await seedMerchant(db.sql, 'Quickstart shop');
  await setPayoutAddress(db.sql, merchant.merchantId, DEV_ACCOUNTS.merchant.address);
});

afterAll(async () => {
  await t?.close();
  await db?.drop();
});

it('runs every sample of the quickstart, in order, against the API', async () => {
  expect(QUICKSTART.map((step) => step.id)).toEqual(['keys', 'payment-session', 'webhook', 'subscription']);
  const printed: string[] = [];
  const env = { STABLEPAY_API_URL: baseUrl, STABLEPAY_SECRET_KEY: merchant.secretKey };
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<void>;
  const run = new AsyncFunction('process', 'console', 'fetch', 'crypto', quickstartScript());
  await run({ env }, { log: (...parts: unknown[]) => printed.push(parts.join(' ')) }, fetch, crypto);

  expect(printed[0]).toMatch(/^Pay here: http.*\/checkout\/ps_\w+ \(open\)$/);
  // The secret after `whsec_` is base64: `+` and `/` are among its characters.
  expect(printed[1]).toMatch(/^Listener (we_\w+) signs with whsec_[A-Za-z0-9+/]{4}\.\.\. streams at \/v1\/webhook-listeners\/\1\/stream$/);
  expect(printed[2]).toMatch(new RegExp(`^Enrol here: ${baseUrl}/checkout/plans/plan_\\w+$`));
  const sessions = await db.sql`select amount::text, metadata from payment_sessions where merchant_id = ${merchant.merchantId}`;
  expect(sessions.map((s) => [s.amount, s.metadata])).toEqual([['2500000', { orderId: 'order-1001' }]]);
  const endpoints = await db.sql`select kind, livemode, events from webhook_endpoints where merchant_id = ${merchant.merchantId}`;
  expect(endpoints.map((e) => [e.kind, e.livemode, e.events])).toEqual([['listener', false, ['payment.completed']]]);
  const plans = await db.sql`select name, amount::text from subscription_plans where merchant_id = ${merchant.merchantId}`;
  expect(plans.map((p) => [p.name, p.amount])).toEqual([['Coffee club', '30000000']]);
  // The enrolment link of the last sample opens.
  expect((await fetch(printed[2]!.replace('Enrol here: ', ''))).status).toBe(200);
});

it('serves the docs with the product title and logo, and the quickstart page', async () => {
  const docs = await fetch(`${baseUrl}/docs/`);
  expect(docs.status).toBe(200);
  const html = await docs.text();
  expect(html).toContain('<title>StablePay API reference</title>');
  expect(html).not.toContain('<title>Swagger UI</title>');
  // Swagger UI swaps its logo for ours in its initializer script (a data URI).
  const initializer = await (await fetch(`${baseUrl}/docs/static/swagger-initializer.js`)).text();
  expect(initializer).toContain(`data:image/svg+xml;base64,${Buffer.from(DOCS_LOGO_SVG).toString('base64')}`);

  // The reference's description, shown at the top of /docs, links the quickstart.
  const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as { info: { description: string } };
  expect(document.info.description).toContain('[quickstart](/docs/quickstart)');

  const guide = await fetch(`${baseUrl}/docs/quickstart`);
  expect(guide.status).toBe(200);
  expect(guide.headers.get('content-type')).toContain('text/html');
  const page = await guide.text();
  for (const step of QUICKSTART) expect(page).toContain(`<h2>${step.heading}</h2>`);
  expect(page).toContain('npm run listen');
  expect(page).toContain('idempotency-key');
});
