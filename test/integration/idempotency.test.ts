// Idempotency-Key on POST: replay, conflict, concurrency, validation, expiry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpiredKeys } from '../../src/idempotency/repo.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';

let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;

beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp(db.sql, { idempotency: { retentionSeconds: 2 } });
  merchant = await seedMerchant(db.sql);
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

const plan = { name: 'Gold', amount: '25000000', interval: 'yearly' };
const post = (key: string, payload: object, apiKey = merchant.secretKey) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/subscription-plans',
    headers: { authorization: `Bearer ${apiKey}`, 'idempotency-key': key },
    payload,
  });
const countPlans = async (name: string) =>
  (await db.sql`select count(*)::int as n from subscription_plans where name = ${name}`)[0]!.n as number;

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and payload', async () => {
    const first = await post('key-replay', { ...plan, name: 'replay' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await post('key-replay', { name: 'replay', interval: 'yearly', amount: '25000000' });
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    expect(await countPlans('replay')).toBe(1);
  });

  it('refuses the same key with a different payload with 409 idempotency_error', async () => {
    await post('key-conflict', { ...plan, name: 'conflict' });
    const second = await post('key-conflict', { ...plan, name: 'conflict', amount: '1' });
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toMatchObject({ code: 'idempotency_error', param: 'Idempotency-Key' });
    expect(await countPlans('conflict')).toBe(1);
  });

  it('executes concurrent requests with one key once', async () => {
    const responses = await Promise.all(Array.from({ length: 8 }, () => post('key-concurrent', { ...plan, name: 'concurrent' })));
    expect(responses.every((r) => r.statusCode === 200)).toBe(true);
    expect(new Set(responses.map((r) => r.json().id)).size).toBe(1);
    expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(7);
    expect(await countPlans('concurrent')).toBe(1);
  });

  it('does not remember a request refused by validation, so the corrected retry runs', async () => {
    const first = await post('key-invalid', { ...plan, name: 'corrected', amount: '0' });
    expect(first.statusCode).toBe(400);
    expect(await countPlans('corrected')).toBe(0);
    const second = await post('key-invalid', { ...plan, name: 'corrected' });
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(await countPlans('corrected')).toBe(1);
  });

  it('does not claim the key for a request refused by its scope', async () => {
    const other = await seedMerchant(db.sql, 'Refusals');
    const readOnly = await other.keyWithScopes(['plans_read']);
    // Scope refusals happen before the key is claimed, so the same key still works with a proper key.
    const refused = await post('key-refused', plan, readOnly);
    expect(refused.statusCode).toBe(403);
    const full = await post('key-refused', plan, other.secretKey);
    expect(full.statusCode).toBe(200);
  });

  it('keeps keys apart per merchant and per mode', async () => {
    const other = await seedMerchant(db.sql, 'Other');
    const a = await post('key-shared', { ...plan, name: 'shared-a' });
    const b = await post('key-shared', { ...plan, name: 'shared-b' }, other.secretKey);
    const c = await post('key-shared', { ...plan, name: 'shared-c' }, merchant.liveSecretKey);
    expect([a, b, c].map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(new Set([a, b, c].map((r) => r.json().id)).size).toBe(3);
  });

  it.each([['x'.repeat(256)], ['has space'], ['tab\tkey']])('refuses a malformed key %j with invalid_request', async (key) => {
    const response = await post(key, plan);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_request', param: 'Idempotency-Key' });
  });

  it('forgets a key after its retention period', async () => {
    await post('key-expiry', { ...plan, name: 'expiry-1' });
    const [{ expires_at: expiresAt }] = (await db.sql`select expires_at from idempotency_keys where key = 'key-expiry'`) as any;
    await db.sql`update idempotency_keys set expires_at = now() - interval '1 second' where key = 'key-expiry'`;
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    // After expiry the key is free again: a different payload runs instead of conflicting.
    const reused = await post('key-expiry', { ...plan, name: 'expiry-2' });
    expect(reused.statusCode).toBe(200);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();
    expect(await countPlans('expiry-2')).toBe(1);

    await db.sql`update idempotency_keys set expires_at = now() - interval '1 second' where key = 'key-expiry'`;
    expect(await deleteExpiredKeys(db.sql)).toBeGreaterThanOrEqual(1);
    expect(await db.sql`select 1 from idempotency_keys where key = 'key-expiry'`).toHaveLength(0);
  });

  it('takes over a key whose first request died mid-way', async () => {
    await db.sql`
      insert into idempotency_keys (merchant_id, livemode, key, request_hash, method, path, state, locked_at, expires_at)
      values (${merchant.merchantId}, false, 'key-stale', 'whatever', 'POST', '/v1/subscription-plans', 'in_progress',
              now() - interval '5 minutes', now() + interval '1 day')`;
    const response = await post('key-stale', { ...plan, name: 'stale' });
    // A different hash from the dead request is still a conflict: the key was used for another payload.
    expect(response.statusCode).toBe(409);
  });
});
