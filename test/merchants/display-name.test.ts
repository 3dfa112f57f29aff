// One merchant name on every customer-facing surface (docs/decisions.md, One merchant name): the storefront's
// name in the mode, else the business name, else the account's name; read through findMerchantDisplay by every
// surface, here the hosted checkout's read and the invoice email, over the real app and database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { findMerchantDisplay } from '../../src/payment-sessions/repo.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, sharedChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let t: TestApp;
let m: SeededMerchant;

beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp(db.sql, { chain: { test: settingsOf(sharedChain()) } });
  m = await seedMerchant(db.sql, 'acct-name');
  await setPayoutAddress(db.sql, m.merchantId, `0x${'90'.repeat(20)}`);
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

const nameIn = async (livemode: boolean) => (await findMerchantDisplay(db.sql, { merchantId: m.merchantId, livemode }))?.name;

async function checkoutName(): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/payment-sessions',
    headers: { authorization: `Bearer ${m.secretKey}` },
    payload: { amount: '1000000' },
  });
  expect(created.statusCode, created.body).toBe(200);
  return (await t.app.inject({ method: 'GET', url: `/v1/checkout/sessions/${created.json().id}` })).json().merchantName;
}

describe('one merchant name', () => {
  it('is the account name, then the business name, then the storefront name of the mode, the same on the paying page', async () => {
    expect(await nameIn(false)).toBe('acct-name');
    expect(await checkoutName()).toBe('acct-name');

    await db.sql`update merchants set business_name = 'Corner Bakery Ltd' where id = ${m.merchantId}`;
    expect(await nameIn(false)).toBe('Corner Bakery Ltd');
    expect(await checkoutName()).toBe('Corner Bakery Ltd');

    await db.sql`insert into storefronts (id, merchant_id, livemode, slug, name, accent_color)
                 values (${newId('storefront')}, ${m.merchantId}, false, ${`names-${Date.now()}`}, 'Corner Bakery', '#2b59c3')`;
    expect(await nameIn(false)).toBe('Corner Bakery');
    expect(await checkoutName()).toBe('Corner Bakery');
    // The test-mode store does not name the merchant in live mode.
    expect(await nameIn(true)).toBe('Corner Bakery Ltd');
  });

  it('names the merchant the same way in the invoice email', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/invoices',
      headers: { authorization: `Bearer ${m.secretKey}` },
      payload: {
        customerEmail: 'ada@example.com',
        lineItems: [{ description: 'Bread', quantity: 1, unitAmount: '1000000' }],
        dueInDays: 7,
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const sent = await t.app.inject({
      method: 'POST',
      url: `/v1/invoices/${created.json().id}/send`,
      headers: { authorization: `Bearer ${m.secretKey}` },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const [mail] = await db.sql<{ subject: string }[]>`
      select subject from outbound_emails where merchant_id = ${m.merchantId} order by created_at desc limit 1`;
    expect(mail?.subject).toBe(`Invoice ${created.json().number} from Corner Bakery`);
  });
});
