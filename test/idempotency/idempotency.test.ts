// Idempotency-Key on POST: replay, conflict, concurrency, validation, expiry, crashes and leases.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevIdentityProvider, type DevIdentityProvider } from '../../tools/dev/identity-provider.js';
import { deleteExpiredKeys } from '../../src/idempotency/repo.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';

let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
let idp: DevIdentityProvider;

beforeAll(async () => {
  db = await createTestDatabase();
  idp = await startDevIdentityProvider();
  t = await createTestApp(db.sql, {
    idempotency: { retentionSeconds: 2 },
    env: { OIDC_ISSUER: idp.issuer, OIDC_AUDIENCE: idp.audience, OIDC_JWKS_URL: idp.jwksUrl },
  });
  merchant = await seedMerchant(db.sql);
});
afterAll(async () => {
  await t?.close();
  await idp?.stop();
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

  // Issue 36 item 2: the publishable key is public, so whoever reads it could take the server's keys.
  it('keeps a publishable-key request from occupying the key of a secret-key request', async () => {
    const stranger = await t.app.inject({
      method: 'POST',
      url: '/v1/payment-sessions',
      headers: { authorization: `Bearer ${merchant.publishableKey}`, 'idempotency-key': 'order-1001' },
      payload: { amount: '1000000' },
    });
    // Whatever it was answered (this app has no chain), the answer is stored under the key.
    expect(stranger.statusCode).toBeLessThan(500);
    const server = await post('order-1001', { ...plan, name: 'server-after-stranger' });
    expect(server.statusCode).toBe(200);
    expect(server.headers['idempotent-replayed']).toBeUndefined();
    expect(await countPlans('server-after-stranger')).toBe(1);
    // Each class still replays its own: the stranger gets its own stored answer back, not the server's.
    const again = await t.app.inject({
      method: 'POST',
      url: '/v1/payment-sessions',
      headers: { authorization: `Bearer ${merchant.publishableKey}`, 'idempotency-key': 'order-1001' },
      payload: { amount: '1000000' },
    });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(stranger.body);
  });

  it("keeps dashboard-session keys apart from the same merchant's secret-key keys", async () => {
    const token = await idp.mintToken(`idem_${Date.now()}`, { email: 'idem@example.com', name: 'Idem' });
    const auth = { authorization: `Bearer ${token}` };
    expect((await t.app.inject({ method: 'POST', url: '/v1/auth/sync', headers: auth })).statusCode).toBe(200);
    const issued = await t.app.inject({
      method: 'POST',
      url: '/v1/api-keys',
      headers: { ...auth, 'idempotency-key': 'shared-by-dashboard' },
      payload: { mode: 'test', kind: 'secret', name: 'server', preset: 'full' },
    });
    expect(issued.statusCode).toBe(200);
    const secretKey = issued.json().secret as string;
    const server = await post('shared-by-dashboard', { ...plan, name: 'server-after-dashboard' }, secretKey);
    expect(server.statusCode).toBe(200);
    expect(server.headers['idempotent-replayed']).toBeUndefined();
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

// Issue 29: the effect and the stored response commit together; a dead holder's key is taken over after its lease.
describe('Idempotency-Key after crashes', () => {
  const LEASE_SECONDS = 1;
  let crashApp: TestApp;
  beforeAll(async () => {
    crashApp = await createTestApp(db.sql, { idempotency: { leaseSeconds: LEASE_SECONDS, waitForOwnerMs: 300 } });
  });
  afterAll(async () => {
    await crashApp?.close();
  });

  const postTo = (key: string, payload: object) =>
    crashApp.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: { authorization: `Bearer ${merchant.secretKey}`, 'idempotency-key': key },
      payload,
    });
  // The hash the plugin stores for this request (after validation filled in defaults), learnt from a live-mode twin:
  // keys are per mode, the hash is not.
  const hashOf = async (key: string, payload: object) => {
    const twin = await crashApp.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: { authorization: `Bearer ${merchant.liveSecretKey}`, 'idempotency-key': key },
      payload,
    });
    expect(twin.statusCode).toBe(200);
    return ((await db.sql`select request_hash from idempotency_keys where key = ${key} and livemode`)[0] as { request_hash: string })
      .request_hash;
  };
  const countTestPlans = async (name: string) =>
    (await db.sql`select count(*)::int as n from subscription_plans where name = ${name} and not livemode`)[0]!.n as number;
  const keyRow = async (key: string) =>
    (await db.sql`select state, response_status from idempotency_keys where key = ${key}`)[0] as
      { state: string; response_status: number | null } | undefined;

  it('takes over the key of a request that died (its lease ran out, microsecond timestamps) and runs the retry', async () => {
    const payload = { ...plan, name: 'dead-holder' };
    // What a SIGKILLed api leaves: an in-progress key of this very request, claimed long ago, with microseconds.
    await db.sql`
      insert into idempotency_keys (merchant_id, livemode, key, request_hash, method, path, state, locked_at, expires_at)
      values (${merchant.merchantId}, false, 'key-dead-holder', ${await hashOf('key-dead-holder', payload)}, 'POST', '/v1/subscription-plans', 'in_progress',
              date_trunc('milliseconds', now()) - interval '5 minutes' + interval '123 microseconds', now() + interval '1 day')`;
    const retry = await postTo('key-dead-holder', payload);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await countTestPlans('dead-holder')).toBe(1);
    expect(await keyRow('key-dead-holder')).toEqual({ state: 'completed', response_status: 200 });
    const replay = await postTo('key-dead-holder', payload);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().id).toBe(retry.json().id);
  }, 60_000);

  it('leaves neither the object nor a completed key when the connection dies between the effect and the key completion', async () => {
    const payload = { ...plan, name: 'crash-before-commit' };
    // The session dies at the moment the key is being completed, after the plan was inserted in the same transaction.
    await db.sql.unsafe(`
      create function die_at_completion() returns trigger language plpgsql as $$
      begin perform pg_terminate_backend(pg_backend_pid()); return new; end $$;
      create trigger die_at_completion before update on idempotency_keys for each row
        when (new.key = 'key-crash' and new.state = 'completed') execute function die_at_completion();`);
    try {
      const crashed = await postTo('key-crash', payload);
      expect(crashed.statusCode).toBe(503); // the lost connection is an outage: service_unavailable
    } finally {
      await db.sql.unsafe('drop trigger die_at_completion on idempotency_keys; drop function die_at_completion();');
    }
    expect(await countPlans('crash-before-commit')).toBe(0);
    expect((await keyRow('key-crash'))?.state).not.toBe('completed');

    const retry = await postTo('key-crash', payload);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await countPlans('crash-before-commit')).toBe(1);
    expect(await keyRow('key-crash')).toEqual({ state: 'completed', response_status: 200 });
  });

  it('answers 409 to a concurrent request while the first holds the key, then replays its response', async () => {
    const payload = { ...plan, name: 'held-key' };
    // Blocks the first request inside its transaction (its plan insert waits for this lock).
    const blocker = await db.sql.reserve();
    await blocker`begin`;
    await blocker`lock table subscription_plans in share row exclusive mode`;
    let first: Promise<Awaited<ReturnType<typeof postTo>>>;
    try {
      first = postTo('key-held', payload);
      await waitFor(async () => (await keyRow('key-held'))?.state === 'in_progress');
      const concurrent = await postTo('key-held', payload);
      expect(concurrent.statusCode).toBe(409);
      expect(concurrent.json().error).toMatchObject({ code: 'idempotency_error', param: 'Idempotency-Key' });
    } finally {
      await blocker`commit`;
      blocker.release();
    }
    const answered = await first;
    expect(answered.statusCode).toBe(200);
    const replay = await postTo('key-held', payload);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().id).toBe(answered.json().id);
    expect(await countPlans('held-key')).toBe(1);
  });

  it('commits one object when a slow holder outlives its lease and a retry takes the key over', async () => {
    const payload = { ...plan, name: 'outlived-lease' };
    const blocker = await db.sql.reserve();
    await blocker`begin`;
    await blocker`lock table subscription_plans in share row exclusive mode`;
    let slow: Promise<Awaited<ReturnType<typeof postTo>>>;
    let retry: Promise<Awaited<ReturnType<typeof postTo>>>;
    try {
      slow = postTo('key-outlived', payload);
      await waitFor(async () => (await keyRow('key-outlived'))?.state === 'in_progress');
      await sleep(LEASE_SECONDS * 1000 + 200);
      // Past the lease the retry takes the key over (and waits on the same lock).
      retry = postTo('key-outlived', payload);
      await waitFor(
        async () => (await db.sql`select 1 from pg_locks where relation = 'subscription_plans'::regclass and not granted`).length >= 2,
      );
    } finally {
      await blocker`commit`;
      blocker.release();
    }
    const [slowAnswer, retryAnswer] = await Promise.all([slow, retry]);
    expect(slowAnswer.statusCode).toBe(409);
    expect(retryAnswer.statusCode).toBe(200);
    expect(await countPlans('outlived-lease')).toBe(1);
    const replay = await postTo('key-outlived', payload);
    expect(replay.json().id).toBe(retryAnswer.json().id);
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}
