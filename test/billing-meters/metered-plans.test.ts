// Metered prices on plans over the real app and database (issue 41, item 3): a plan combining its fixed amount
// with metered prices and the cap, read back (also by the public enrolment page's plan route); every refusal
// with the envelope's param and nothing created; plan changes to or from a metered plan refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, sharedChain } from '../support/chain.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';

let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
let other: SeededMerchant;
let meterId = '';
let otherMeterId = '';

const api = (method: 'GET' | 'POST', url: string, payload?: object, key = merchant.secretKey) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload ? { payload } : {}) });
const tiers = [
  { upTo: '1000', unitAmount: '2000' },
  { upTo: null, unitAmount: '1000', flatAmount: '500000' },
];
const base = { name: 'API', amount: '10000000', interval: 'monthly' };

beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp(db.sql);
  merchant = await seedMerchant(db.sql);
  other = await seedMerchant(db.sql, 'Other');
  const meter = async (key: string) => {
    const response = await api(
      'POST',
      '/v1/billing/meters',
      { displayName: 'API calls', eventName: 'api_call', aggregation: 'count' },
      key,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json().id as string;
  };
  meterId = await meter(merchant.secretKey);
  otherMeterId = await meter(other.secretKey);
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

describe('metered plans', () => {
  it('combines the fixed amount with metered prices and the cap; read back and on the enrolment page', async () => {
    const response = await api('POST', '/v1/subscription-plans', {
      ...base,
      meteredPrices: [{ model: 'graduated', meterId, tiers }],
      usageCap: '100000000',
      usageThreshold: '5000000',
    });
    expect(response.statusCode, response.body).toBe(200);
    const plan = response.json();
    expect(plan).toMatchObject({
      amount: '10000000',
      usageCap: '100000000',
      usageGracePeriodSeconds: 3600,
      usageThreshold: '5000000',
      meteredPrices: [
        {
          model: 'graduated',
          meterId,
          tiers: [
            { upTo: '1000', unitAmount: '2000', flatAmount: '0' },
            { upTo: null, unitAmount: '1000', flatAmount: '500000' },
          ],
        },
      ],
    });
    expect((await api('GET', `/v1/subscription-plans/${plan.id}`)).json()).toEqual(plan);
    const page = await t.app.inject({ method: 'GET', url: `/v1/checkout/plans/${plan.id}` });
    expect(page.json()).toMatchObject({ amount: '10000000', usageCap: '100000000', meteredPrices: plan.meteredPrices });
    // A fixed plan says so.
    const fixed = await api('POST', '/v1/subscription-plans', base);
    expect(fixed.json()).toMatchObject({ meteredPrices: null, usageCap: null, usageGracePeriodSeconds: null, usageThreshold: null });
  });

  it('refuses bad metered terms with the envelope, creating nothing', async () => {
    const count = async () =>
      (await db.sql`select count(*)::int as n from subscription_plans where merchant_id = ${merchant.merchantId}`)[0]!.n;
    const before = await count();
    const perUnit = { model: 'per_unit', meterId, unitAmount: '2000' };
    const refusals: [object, string][] = [
      [{ ...base, meteredPrices: [perUnit] }, 'usageCap'],
      [{ ...base, meteredPrices: [perUnit], usageCap: '9999999' }, 'usageCap'],
      [{ ...base, usageCap: '20000000' }, 'usageCap'],
      [{ ...base, usageGracePeriodSeconds: 60 }, 'usageGracePeriodSeconds'],
      [{ ...base, meteredPrices: [perUnit, perUnit], usageCap: '20000000' }, 'meteredPrices.1.meterId'],
      [{ ...base, meteredPrices: [{ ...perUnit, unitAmount: '0.0000000000001' }], usageCap: '20000000' }, 'meteredPrices.0.unitAmount'],
      [{ ...base, meteredPrices: [{ ...perUnit, unitAmount: '-1' }], usageCap: '20000000' }, 'meteredPrices.0.unitAmount'],
      [
        { ...base, meteredPrices: [{ model: 'package', meterId, packageSize: '0', packageAmount: '1' }], usageCap: '20000000' },
        'meteredPrices.0.packageSize',
      ],
      [{ ...base, meteredPrices: [{ model: 'volume', meterId, tiers: [tiers[0]] }], usageCap: '20000000' }, 'meteredPrices.0.tiers.0.upTo'],
      [
        { ...base, meteredPrices: [{ model: 'volume', meterId, tiers: [tiers[1], tiers[0]] }], usageCap: '20000000' },
        'meteredPrices.0.tiers.0.upTo',
      ],
      [{ ...base, meteredPrices: [{ model: 'tiered', meterId }], usageCap: '20000000' }, 'meteredPrices.0.model'],
      [{ ...base, meteredPrices: [{ ...perUnit, meterId: otherMeterId }], usageCap: '20000000' }, 'meteredPrices.0.meterId'],
      [
        { ...base, meteredPrices: [{ ...perUnit, meterId: 'mtr_01J00000000000000000000000' }], usageCap: '20000000' },
        'meteredPrices.0.meterId',
      ],
      [{ ...base, meteredPrices: [perUnit], usageCap: '20000000', usageGracePeriodSeconds: 8 * 86_400 }, 'usageGracePeriodSeconds'],
      // A usage threshold: metered plans only, a positive integer string of base units.
      [{ ...base, usageThreshold: '5000000' }, 'usageThreshold'],
      [{ ...base, meteredPrices: [perUnit], usageCap: '20000000', usageThreshold: '0' }, 'usageThreshold'],
      [{ ...base, meteredPrices: [perUnit], usageCap: '20000000', usageThreshold: '-5' }, 'usageThreshold'],
      [{ ...base, meteredPrices: [perUnit], usageCap: '20000000', usageThreshold: '1.5' }, 'usageThreshold'],
      [{ ...base, meteredPrices: [perUnit], usageCap: '20000000', usageThreshold: 5000000 }, 'usageThreshold'],
    ];
    for (const [body, param] of refusals) {
      const response = await api('POST', '/v1/subscription-plans', body);
      expect(response.statusCode, `${JSON.stringify(body)}: ${response.body}`).toBe(400);
      const error = response.json().error;
      expect(error.code).toBe('invalid_request');
      expect(error.param, JSON.stringify(body)).toBe(param);
      expect(error.details.issues.map((i: { path: string }) => i.path)).toContain(param);
    }
    expect(await count()).toBe(before);
  });

  it('the enrolment offer of a metered plan authorises its cap per period', async () => {
    await setPayoutAddress(db.sql, merchant.merchantId, '0x00000000000000000000000000000000000b0b00');
    const withChain = await createTestApp(db.sql, { chain: { test: settingsOf(sharedChain()) } });
    try {
      const created = await api('POST', '/v1/subscription-plans', {
        ...base,
        meteredPrices: [{ model: 'per_unit', meterId, unitAmount: '2000' }],
        usageCap: '75000000',
      });
      const offer = await withChain.app.inject({ method: 'GET', url: `/checkout/plans/${created.json().id}/enrolment` });
      expect(offer.statusCode, offer.body).toBe(200);
      expect(offer.json().terms.amount).toBe('75000000');
      expect(BigInt(offer.json().permitValue) % 75_000_000n).toBe(0n);
      // The hosted page carries the element the usage prices and the cap are written into (web/checkout/plan-page.ts).
      const page = await withChain.app.inject({ method: 'GET', url: `/checkout/plans/${created.json().id}` });
      expect(page.body).toContain('id="metered"');
    } finally {
      await withChain.close();
    }
  });

  it("lists a subscription's period closes only for its merchant", async () => {
    const unknown = await api('GET', '/v1/subscriptions/sub_01J00000000000000000000000/period-closes');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('not_found');
    const badLimit = await api('GET', '/v1/subscriptions/sub_01J00000000000000000000000/period-closes?limit=0');
    expect(badLimit.statusCode).toBe(400);
    expect(badLimit.json().error.param).toBe('limit');
  });

  it('answers the upcoming invoice of an unknown subscription 404', async () => {
    const unknown = await api('GET', '/v1/subscriptions/sub_01J00000000000000000000000/upcoming-invoice');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toMatchObject({ code: 'not_found', param: 'id' });
  });
});
