// Billing meters and usage events over the real app and database (issue 41, items 1 and 2): the meter resource,
// every refusal with its param, duplicates ignored exactly (also across concurrent batches), cancellation, each
// aggregation's summary by day and by hour, and scoping to one merchant and mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCustomer } from '../../src/customers/repo.js';
import { aggregateExactUsage } from '../../src/billing-meters/repo.js';
import type { MeterAggregation } from '../../src/billing-meters/schemas.js';
import { newId } from '../../src/ids.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';

let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
let other: SeededMerchant;
let customerId: string;
let walletCustomerId: string;
let seq = 0;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// A whole UTC day three days back: every event time used stays inside the accepted 35-day window.
const day0 = Math.floor(Date.now() / DAY) * DAY - 3 * DAY;
const at = (ms: number) => new Date(day0 + ms).toISOString();
const WALLET = '0x00000000000000000000000000000000000a11ce';

const api = (method: 'GET' | 'POST', url: string, payload?: object, key = merchant.secretKey) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload ? { payload } : {}) });

const unique = (name: string) => `${name}_${++seq}`;

async function createMeter(body: Record<string, unknown>): Promise<{ id: string; eventName: string }> {
  const response = await api('POST', '/v1/billing/meters', { displayName: 'Meter', ...body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function expectRefusal(response: Awaited<ReturnType<typeof api>>, code: string, param: string) {
  expect(response.statusCode).toBe(code === 'not_found' ? 404 : 400);
  const error = response.json().error;
  expect(error.code).toBe(code);
  expect(error.param).toBe(param);
  if (code === 'invalid_request') expect(error.details.issues.map((i: { path: string }) => i.path)).toContain(param);
}

async function summaries(meterId: string, query: Record<string, string>, key = merchant.secretKey) {
  const params = new URLSearchParams({ customerId, ...query });
  return api('GET', `/v1/billing/meters/${meterId}/event-summaries?${params}`, undefined, key);
}

async function values(meterId: string, window: 'hour' | 'day' | undefined, customer = customerId) {
  const query: Record<string, string> = { customerId: customer, startTime: at(0), endTime: at(2 * DAY) };
  if (window) query.valueGroupingWindow = window;
  const response = await summaries(meterId, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.map((s: { startTime: string; aggregatedValue: string }) => [s.startTime, s.aggregatedValue]);
}

const storedEvents = async () => (await db.sql`select count(*)::int as n from meter_events`)[0]!.n as number;

beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp(db.sql);
  merchant = await seedMerchant(db.sql);
  other = await seedMerchant(db.sql, 'Other');
  const scope = { merchantId: merchant.merchantId, livemode: false };
  customerId = (await upsertCustomer(db.sql, { id: newId('customer'), ...scope, walletAddress: `0x${'1'.repeat(40)}` })).id;
  walletCustomerId = (await upsertCustomer(db.sql, { id: newId('customer'), ...scope, walletAddress: WALLET })).id;
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

describe('billing meters', () => {
  it('creates, retrieves, lists, renames, deactivates and reactivates a meter', async () => {
    const eventName = unique('api_calls');
    const created = await createMeter({ eventName, aggregation: 'count' });
    expect(created).toMatchObject({
      object: 'billing.meter',
      eventName,
      aggregation: 'count',
      valueKey: null,
      customerMapping: { type: 'by_id', eventPayloadKey: 'customerId' },
      status: 'active',
      deactivatedAt: null,
      livemode: false,
    });
    expect(created.id).toMatch(/^mtr_/);
    expect((await api('GET', `/v1/billing/meters/${created.id}`)).json()).toEqual(created);

    const renamed = await api('POST', `/v1/billing/meters/${created.id}`, { displayName: 'API calls' });
    expect(renamed.json().displayName).toBe('API calls');

    const deactivated = (await api('POST', `/v1/billing/meters/${created.id}/deactivate`)).json();
    expect(deactivated.status).toBe('inactive');
    expect(deactivated.deactivatedAt).not.toBeNull();
    const inactive = (await api('GET', '/v1/billing/meters?status=inactive')).json();
    expect(inactive.data.map((m: { id: string }) => m.id)).toContain(created.id);

    // The event name is free while it is inactive; reactivating is refused until it is free again.
    const successor = await createMeter({ eventName, aggregation: 'count' });
    expectRefusal(await api('POST', `/v1/billing/meters/${created.id}/reactivate`), 'invalid_request', 'eventName');
    await api('POST', `/v1/billing/meters/${successor.id}/deactivate`);
    const reactivated = (await api('POST', `/v1/billing/meters/${created.id}/reactivate`)).json();
    expect(reactivated).toMatchObject({ status: 'active', deactivatedAt: null, displayName: 'API calls' });

    const all = (await api('GET', '/v1/billing/meters?limit=1')).json();
    expect(all.data).toHaveLength(1);
    expect(all.hasMore).toBe(true);
  });

  it('refuses bad meters with the param, creating nothing', async () => {
    const taken = unique('taken');
    await createMeter({ eventName: taken, aggregation: 'count' });
    const before = (await db.sql`select count(*)::int as n from billing_meters`)[0]!.n;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ eventName: unique('e'), aggregation: 'sum' }, 'valueKey'],
      [{ eventName: unique('e'), aggregation: 'count', valueKey: 'n' }, 'valueKey'],
      [{ eventName: unique('e'), aggregation: 'median', valueKey: 'n' }, 'aggregation'],
      [{ eventName: 'has space', aggregation: 'count' }, 'eventName'],
      [
        { eventName: unique('e'), aggregation: 'count', customerMapping: { type: 'by_email', eventPayloadKey: 'c' } },
        'customerMapping.type',
      ],
      [{ eventName: unique('e'), aggregation: 'sum', valueKey: 'customerId' }, 'valueKey'],
      [{ eventName: taken, aggregation: 'count' }, 'eventName'],
    ];
    for (const [body, param] of cases) {
      expectRefusal(await api('POST', '/v1/billing/meters', { displayName: 'Bad', ...body }), 'invalid_request', param);
    }
    // Inside an idempotent request's transaction too: the refusal is the envelope, not a broken transaction.
    const idempotent = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/meters',
      headers: { authorization: `Bearer ${merchant.secretKey}`, 'idempotency-key': unique('idem') },
      payload: { displayName: 'Again', eventName: taken, aggregation: 'count' },
    });
    expectRefusal(idempotent, 'invalid_request', 'eventName');
    expect((await db.sql`select count(*)::int as n from billing_meters`)[0]!.n).toBe(before);
  });

  it("another merchant's or mode's meter is not_found, and the scopes are enforced", async () => {
    const meter = await createMeter({ eventName: unique('scoped'), aggregation: 'count' });
    expectRefusal(await api('GET', `/v1/billing/meters/${meter.id}`, undefined, other.secretKey), 'not_found', 'id');
    expectRefusal(await api('GET', `/v1/billing/meters/${meter.id}`, undefined, merchant.liveSecretKey), 'not_found', 'id');
    expectRefusal(await api('POST', `/v1/billing/meters/${meter.id}/deactivate`, undefined, other.secretKey), 'not_found', 'id');
    const summary = await summaries(meter.id, { startTime: at(0), endTime: at(DAY) }, other.secretKey);
    expectRefusal(summary, 'not_found', 'id');
    expect((await api('GET', '/v1/billing/meters', undefined, other.secretKey)).json().data).toEqual([]);
    // An event for this meter's name, sent in the other mode, finds no meter there.
    const live = await api(
      'POST',
      '/v1/billing/meter-events',
      { eventName: meter.eventName, identifier: unique('i'), payload: { customerId } },
      merchant.liveSecretKey,
    );
    expectRefusal(live, 'invalid_request', 'eventName');

    const readOnly = await merchant.keyWithScopes(['plans_read']);
    const denied = await api('POST', '/v1/billing/meters', { displayName: 'x', eventName: unique('e'), aggregation: 'count' }, readOnly);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('permission_denied');
    const noEvents = await api(
      'POST',
      '/v1/billing/meter-events',
      { eventName: meter.eventName, identifier: unique('i'), payload: { customerId } },
      readOnly,
    );
    expect(noEvents.statusCode).toBe(403);
  });
});

describe('meter events', () => {
  it('refuses each bad event with its param and stores nothing', async () => {
    const meter = await createMeter({ eventName: unique('tokens'), aggregation: 'sum', valueKey: 'tokens' });
    const inactive = await createMeter({ eventName: unique('gone'), aggregation: 'count' });
    await api('POST', `/v1/billing/meters/${inactive.id}/deactivate`);
    const good = { eventName: meter.eventName, identifier: 'x', timestamp: at(HOUR), payload: { customerId, tokens: '5' } };
    const before = await storedEvents();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ eventName: unique('nobody') }, 'eventName'],
      [{ eventName: inactive.eventName }, 'eventName'],
      [{ timestamp: new Date(Date.now() - 36 * DAY).toISOString() }, 'timestamp'],
      [{ timestamp: new Date(Date.now() + 10 * 60_000).toISOString() }, 'timestamp'],
      [{ timestamp: 'yesterday' }, 'timestamp'],
      [{ payload: { tokens: '5' } }, 'payload.customerId'],
      [{ payload: { customerId: newId('customer'), tokens: '5' } }, 'payload.customerId'],
      [{ payload: { customerId } }, 'payload.tokens'],
      [{ payload: { customerId, tokens: '1e3' } }, 'payload.tokens'],
      [{ payload: { customerId, tokens: '-1' } }, 'payload.tokens'],
      [{ payload: { customerId, tokens: '0.1234567890123' } }, 'payload.tokens'],
      [{ payload: { customerId, tokens: 5 } }, 'payload.tokens'],
      [{ identifier: '' }, 'identifier'],
      [{ identifier: 'has space' }, 'identifier'],
    ];
    for (const [change, param] of cases) {
      expectRefusal(await api('POST', '/v1/billing/meter-events', { ...good, ...change }), 'invalid_request', param);
    }
    expect(await storedEvents()).toBe(before);

    const tooMany = { events: Array.from({ length: 101 }, (_, i) => ({ ...good, identifier: `many-${i}` })) };
    expectRefusal(await api('POST', '/v1/billing/meter-events/batch', tooMany), 'invalid_request', 'events');
    const badShape = { events: [good, { ...good, timestamp: 'soon' }] };
    expectRefusal(await api('POST', '/v1/billing/meter-events/batch', badShape), 'invalid_request', 'events.1.timestamp');
    expect(await storedEvents()).toBe(before);
  });

  it('a batch answers per event and stores only the accepted ones', async () => {
    const meter = await createMeter({ eventName: unique('tokens'), aggregation: 'sum', valueKey: 'tokens' });
    const event = (identifier: string, payload: Record<string, string>, timestamp = at(HOUR)) => ({
      eventName: meter.eventName,
      identifier,
      timestamp,
      payload,
    });
    const id = unique('b');
    const response = await api('POST', '/v1/billing/meter-events/batch', {
      events: [
        event(`${id}-1`, { customerId, tokens: '1.5' }),
        event(`${id}-2`, { customerId, tokens: 'lots' }),
        event(`${id}-1`, { customerId, tokens: '100' }),
        event(`${id}-3`, { customerId, tokens: '2' }, new Date(Date.now() - 40 * DAY).toISOString()),
        event(`${id}-4`, { customerId, tokens: '3' }),
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      object: 'billing.meter_event_batch',
      accepted: 2,
      duplicates: 1,
      refused: 2,
      data: [
        { identifier: `${id}-1`, status: 'accepted' },
        {
          identifier: `${id}-2`,
          status: 'refused',
          error: { code: 'invalid_request', message: expect.any(String), param: 'payload.tokens' },
        },
        { identifier: `${id}-1`, status: 'duplicate' },
        { identifier: `${id}-3`, status: 'refused', error: { code: 'invalid_request', message: expect.any(String), param: 'timestamp' } },
        { identifier: `${id}-4`, status: 'accepted' },
      ],
    });
    expect(await values(meter.id, undefined)).toEqual([[at(0), '4.5']]);
  });

  it('a duplicate is accepted and ignored, also when concurrent batches race', async () => {
    const meter = await createMeter({ eventName: unique('calls'), aggregation: 'count' });
    const single = { eventName: meter.eventName, identifier: unique('once'), timestamp: at(HOUR), payload: { customerId } };
    const first = await api('POST', '/v1/billing/meter-events', single);
    expect(first.json()).toMatchObject({ object: 'billing.meter_event', duplicate: false, identifier: single.identifier });
    const again = await api('POST', '/v1/billing/meter-events', { ...single, timestamp: at(2 * HOUR) });
    expect(again.statusCode).toBe(200);
    expect(again.json().duplicate).toBe(true);

    // Eight batches of the same 100 identifiers (each in its own order) at once, plus 100 fresh ones each.
    const shared = Array.from({ length: 100 }, (_, i) => `${meter.eventName}-shared-${i}`);
    const batches = Array.from({ length: 8 }, (_, b) => {
      const identifiers = [...shared].sort(() => Math.random() - 0.5).slice(0, 50);
      const fresh = Array.from({ length: 50 }, (_, i) => `${meter.eventName}-b${b}-${i}`);
      return [...identifiers, ...fresh].map((identifier) => ({ ...single, identifier }));
    });
    const responses = await Promise.all(batches.map((events) => api('POST', '/v1/billing/meter-events/batch', { events })));
    for (const r of responses) expect(r.statusCode, r.body).toBe(200);
    const accepted = responses.reduce((n, r) => n + r.json().accepted, 0);
    const distinctShared = new Set(batches.flatMap((events) => events.map((e) => e.identifier)).filter((i) => i.includes('-shared-'))).size;
    expect(accepted).toBe(distinctShared + 8 * 50);
    expect(await values(meter.id, undefined)).toEqual([[at(0), String(1 + distinctShared + 400)]]);
    const stored = await db.sql`select count(*)::int as n from meter_events where meter_id = ${meter.id}`;
    expect(stored[0]!.n).toBe(1 + distinctShared + 400);
  });

  it('a cancelled event stops counting; cancelling is refused after 24 h and for an unknown identifier', async () => {
    const meter = await createMeter({ eventName: unique('tokens'), aggregation: 'sum', valueKey: 'tokens' });
    const send = (identifier: string, tokens: string) =>
      api('POST', '/v1/billing/meter-events', {
        eventName: meter.eventName,
        identifier,
        timestamp: at(HOUR),
        payload: { customerId, tokens },
      });
    const keep = unique('keep');
    const drop = unique('drop');
    await send(keep, '10');
    await send(drop, '7.25');
    expect(await values(meter.id, 'hour')).toEqual([[at(HOUR), '17.25']]);

    const cancelled = await api('POST', '/v1/billing/meter-events/cancel', { identifier: drop });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ object: 'billing.meter_event_cancellation', identifier: drop });
    expect(await values(meter.id, 'hour')).toEqual([[at(HOUR), '10']]);
    const twice = await api('POST', '/v1/billing/meter-events/cancel', { identifier: drop });
    expect(twice.json().cancelledAt).toBe(cancelled.json().cancelledAt);
    expect(await values(meter.id, 'hour')).toEqual([[at(HOUR), '10']]);
    // A cancelled identifier stays taken: sending it again is a duplicate, not a new event.
    expect((await send(drop, '7.25')).json().duplicate).toBe(true);
    expect(await values(meter.id, 'hour')).toEqual([[at(HOUR), '10']]);

    expectRefusal(await api('POST', '/v1/billing/meter-events/cancel', { identifier: unique('never') }), 'not_found', 'identifier');
    expectRefusal(await api('POST', '/v1/billing/meter-events/cancel', { identifier: keep }, other.secretKey), 'not_found', 'identifier');
    // Accepted 25 hours ago (the row is aged, as the clock would): too late to cancel.
    await db.sql`update meter_events set created_at = now() - interval '25 hours' where identifier = ${keep}`;
    expectRefusal(await api('POST', '/v1/billing/meter-events/cancel', { identifier: keep }), 'invalid_request', 'identifier');
    expect(await values(meter.id, 'hour')).toEqual([[at(HOUR), '10']]);
  });

  it('maps the customer by wallet address, whatever its case', async () => {
    const meter = await createMeter({
      eventName: unique('seats'),
      aggregation: 'max',
      valueKey: 'seats',
      customerMapping: { type: 'by_wallet', eventPayloadKey: 'wallet' },
    });
    const send = (wallet: string, seats: string) =>
      api('POST', '/v1/billing/meter-events', {
        eventName: meter.eventName,
        identifier: unique('w'),
        timestamp: at(HOUR),
        payload: { wallet, seats },
      });
    expect((await send(WALLET.toUpperCase().replace('0X', '0x'), '3')).statusCode).toBe(200);
    expectRefusal(await send(`0x${'9'.repeat(40)}`, '3'), 'invalid_request', 'payload.wallet');
    expect(await values(meter.id, 'day', walletCustomerId)).toEqual([[at(0), '3']]);
  });
});

describe('event summaries', () => {
  // Five events over two days: hour 1 (two), hour 2 (one), and day 1 hour 0 (two); the last of them cancelled.
  const events: Array<[number, string, string]> = [
    [HOUR + 10 * 60_000, '2.5', 'alice'],
    [HOUR + 50 * 60_000, '4', 'bob'],
    [2 * HOUR + 5 * 60_000, '1', 'alice'],
    [DAY + 30 * 60_000, '3', 'carol'],
    [DAY + 40 * 60_000, '9', 'dave'],
  ];

  async function meterWithEvents(aggregation: string, valueKey?: string) {
    const meter = await createMeter({ eventName: unique(aggregation), aggregation, ...(valueKey ? { valueKey } : {}) });
    const identifiers = events.map(() => unique('s'));
    const response = await api('POST', '/v1/billing/meter-events/batch', {
      events: events.map(([offset, value, user], i) => ({
        eventName: meter.eventName,
        identifier: identifiers[i],
        timestamp: at(offset),
        payload: { customerId, ...(valueKey === 'user' ? { user } : valueKey ? { [valueKey]: value } : {}) },
      })),
    });
    expect(response.json().accepted, response.body).toBe(events.length);
    await api('POST', '/v1/billing/meter-events/cancel', { identifier: identifiers[4] });
    return meter;
  }

  // `exact`: the period close's reading between instants that are not whole hours (01:30 to day 1 00:35: bob, alice
  // at 02:05 and carol), whole hours from the rollup and the edges from the events.
  const expected: Record<string, { hour: string[]; day: string[]; total: string; exact: string }> = {
    sum: { hour: ['6.5', '1', '3'], day: ['7.5', '3'], total: '10.5', exact: '8' },
    count: { hour: ['2', '1', '1'], day: ['3', '1'], total: '4', exact: '3' },
    max: { hour: ['4', '1', '3'], day: ['4', '3'], total: '4', exact: '4' },
    last: { hour: ['4', '1', '3'], day: ['1', '3'], total: '3', exact: '3' },
    unique_count: { hour: ['2', '1', '1'], day: ['2', '1'], total: '3', exact: '3' },
  };

  for (const [aggregation, want] of Object.entries(expected)) {
    it(`${aggregation}: per hour, per day and over the range`, async () => {
      const valueKey = aggregation === 'count' ? undefined : aggregation === 'unique_count' ? 'user' : 'quantity';
      const meter = await meterWithEvents(aggregation, valueKey);
      expect(await values(meter.id, 'hour')).toEqual([
        [at(HOUR), want.hour[0]],
        [at(2 * HOUR), want.hour[1]],
        [at(DAY), want.hour[2]],
      ]);
      expect(await values(meter.id, 'day')).toEqual([
        [at(0), want.day[0]],
        [at(DAY), want.day[1]],
      ]);
      expect(await values(meter.id, undefined)).toEqual([[at(0), want.total]]);
      // A window boundary is exclusive at the end: [hour 1, hour 2) holds the first two events only.
      const narrow = await summaries(meter.id, { startTime: at(HOUR), endTime: at(2 * HOUR) });
      expect(narrow.json().data.map((s: { aggregatedValue: string }) => s.aggregatedValue)).toEqual([want.hour[0]]);
      const stored = { id: meter.id, aggregation: aggregation as MeterAggregation };
      expect(
        await aggregateExactUsage(db.sql, stored, customerId, {
          start: new Date(at(HOUR + 30 * 60_000)),
          end: new Date(at(DAY + 35 * 60_000)),
        }),
      ).toBe(want.exact);
      // Inside one hour only (no whole hour in the range): the events alone, 01:15 to 01:55 holds bob's 4.
      const oneHour = await aggregateExactUsage(db.sql, stored, customerId, {
        start: new Date(at(HOUR + 15 * 60_000)),
        end: new Date(at(HOUR + 55 * 60_000)),
      });
      expect(oneHour).toBe(aggregation === 'count' || aggregation === 'unique_count' ? '1' : '4');
    });
  }

  it('unique_count: the distinct-value rollups agree with the events after racing batches and cancellations', async () => {
    const meter = await createMeter({ eventName: unique('users'), aggregation: 'unique_count', valueKey: 'user' });
    // A fixed pseudo-random sequence: 700 events over three days from 25 users, some hours with one user many times.
    let state = 41;
    const next = (n: number) => (state = (state * 48_271) % 2_147_483_647) % n;
    const events = Array.from({ length: 700 }, (_, i) => ({
      eventName: meter.eventName,
      identifier: `${meter.eventName}-${i}`,
      timestamp: at(next(3 * 24) * HOUR + next(3600) * 1000),
      payload: { customerId, user: `user-${next(25)}` },
    }));
    const batch = (list: typeof events) => api('POST', '/v1/billing/meter-events/batch', { events: list });
    const cancel = (identifier: string) => api('POST', '/v1/billing/meter-events/cancel', { identifier });
    // Seven batches at once, each sharing 30 identifiers with the next (duplicates racing on the same rollup rows).
    const first = await Promise.all(Array.from({ length: 7 }, (_, b) => batch(events.slice(b * 70, b * 70 + 100))));
    for (const r of first) expect(r.statusCode, r.body).toBe(200);
    // Cancellations racing a batch of the same users: every fifth of the stored events, while the rest go in.
    const cancelled = events.slice(0, 490).filter((_, i) => i % 5 === 0);
    const second = await Promise.all([
      batch(events.slice(490, 590)),
      batch(events.slice(590, 690)),
      batch(events.slice(690)),
      ...cancelled.map((e) => cancel(e.identifier)),
    ]);
    for (const r of second) expect(r.statusCode, r.body).toBe(200);

    const live = (await db.sql`select count(*)::int as n from meter_events where meter_id = ${meter.id} and cancelled_at is null`)[0]!.n;
    expect(live).toBe(700 - cancelled.length);
    const truth = async (start: number, end: number, window?: 'hour' | 'day') =>
      (
        await db.sql<{ start: Date; value: string }[]>`
          select ${window ? db.sql`date_trunc(${window}, event_time, 'UTC')` : db.sql`${at(start)}::timestamptz`} as start,
            count(distinct distinct_value)::text as value
          from meter_events where meter_id = ${meter.id} and customer_id = ${customerId} and cancelled_at is null
            and event_time >= ${at(start)} and event_time < ${at(end)}
          group by 1 order by 1`
      ).map((r) => [r.start.toISOString(), r.value]);
    const total = async (start: number, end: number) => (await truth(start, end))[0] ?? [at(start), '0'];
    const read = async (start: number, end: number, window?: 'hour' | 'day') => {
      const query: Record<string, string> = { startTime: at(start), endTime: at(end), ...(window ? { valueGroupingWindow: window } : {}) };
      const response = await summaries(meter.id, query);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.map((s: { startTime: string; aggregatedValue: string }) => [s.startTime, s.aggregatedValue]);
    };
    expect((await read(0, 3 * DAY, 'hour')).length).toBeGreaterThan(60);
    expect(await read(0, 3 * DAY, 'hour')).toEqual(await truth(0, 3 * DAY, 'hour'));
    expect(await read(0, 3 * DAY, 'day')).toEqual(await truth(0, 3 * DAY, 'day'));
    // Whole ranges: days inside with hours around them, hours alone, one hour.
    for (const [start, end] of [
      [0, 3 * DAY],
      [5 * HOUR, 2 * DAY + 7 * HOUR],
      [5 * HOUR, 9 * HOUR],
      [DAY, DAY + HOUR],
    ] as const) {
      expect(await read(start, end), `${start}..${end}`).toEqual([await total(start, end)]);
    }
    // The period close's reading at seconds that are not whole hours (events, hours and days united).
    const stored = { id: meter.id, aggregation: 'unique_count' as const };
    for (const [start, end] of [
      [1234 * 1000, 2 * DAY + 5 * HOUR + 17 * 1000],
      [HOUR + 1000, 3 * HOUR - 1000],
      [DAY + 600_000, DAY + 1_200_000],
    ] as const) {
      const exact = await aggregateExactUsage(db.sql, stored, customerId, { start: new Date(at(start)), end: new Date(at(end)) });
      expect(exact, `${start}..${end}`).toBe((await total(start, end))[1]);
    }
  });

  it('refuses a bad summary query with the param', async () => {
    const meter = await createMeter({ eventName: unique('q'), aggregation: 'count' });
    const cases: Array<[Record<string, string>, string]> = [
      [{ startTime: at(HOUR / 2), endTime: at(DAY) }, 'startTime'],
      [{ startTime: at(0), endTime: at(DAY + 1000) }, 'endTime'],
      [{ startTime: at(HOUR), endTime: at(DAY), valueGroupingWindow: 'day' }, 'startTime'],
      [{ startTime: at(DAY), endTime: at(0) }, 'endTime'],
      [{ startTime: at(0), endTime: at(400 * DAY) }, 'endTime'],
      [{ startTime: at(0), endTime: at(DAY), valueGroupingWindow: 'week' }, 'valueGroupingWindow'],
      [{ startTime: 'today', endTime: at(DAY) }, 'startTime'],
      [{ startTime: at(0), endTime: at(DAY), customerId: newId('customer') }, 'customerId'],
      [{ startTime: at(0), endTime: at(DAY), customerId: 'nobody' }, 'customerId'],
    ];
    for (const [query, param] of cases) expectRefusal(await summaries(meter.id, query), 'invalid_request', param);
    const missing = await api('GET', `/v1/billing/meters/${meter.id}/event-summaries?customerId=${customerId}`);
    expect(missing.statusCode).toBe(400);
  });
});
