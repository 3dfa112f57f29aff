// Two api instances on one database share the rate-limit counters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiter, type RateLimiter } from '../../src/rate-limits/service.js';
import { setRateLimitOverride } from '../../src/merchants/repo.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';

let db: TestDatabase;
let a: TestApp;
let b: TestApp;
let limiterA: RateLimiter;
let limiterB: RateLimiter;
let merchant: SeededMerchant;
// A pinned clock: no window boundary can fall inside a test.
const fixedNow = Math.floor(Date.now() / 60_000) * 60_000 + 10_000;

const PER_IP = 40;
const PER_KEY = 12;

beforeAll(async () => {
  db = await createTestDatabase();
  // Long flush interval: the tests flush explicitly.
  limiterA = createRateLimiter(db.sql, { flushIntervalMs: 60_000, now: () => fixedNow });
  limiterB = createRateLimiter(db.sql, { flushIntervalMs: 60_000, now: () => fixedNow });
  // The test plays a proxy on loopback that names the client in X-Forwarded-For.
  const env = { RATE_LIMIT_PER_IP_PER_MINUTE: String(PER_IP), RATE_LIMIT_PER_KEY_PER_MINUTE: String(PER_KEY), TRUST_PROXY: 'loopback' };
  a = await createTestApp(db.sql, { env, rateLimiter: limiterA });
  b = await createTestApp(db.sql, { env, rateLimiter: limiterB });
  merchant = await seedMerchant(db.sql);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await limiterA?.close();
  await limiterB?.close();
  await db?.drop();
});

const get = (t: TestApp, key: string, ip = '198.51.100.1') =>
  t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': ip } });

describe('per-key limit across two instances', () => {
  it('counts requests on both instances against one limit and answers 429 rate_limited with Retry-After', async () => {
    const key = await merchant.keyWithScopes(['plans_read']);
    for (let i = 0; i < 8; i++) expect((await get(a, key, '198.51.100.10')).statusCode).toBe(200);
    await limiterA.flush();
    // Instance B has seen none of them yet, but learns the shared total on its flush.
    expect((await get(b, key, '198.51.100.11')).statusCode).toBe(200);
    await limiterB.flush();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await get(b, key, '198.51.100.11')).statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(PER_KEY - 9);
    const refused = await get(b, key, '198.51.100.11');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    await limiterB.flush();
    await limiterA.flush();
    expect((await get(a, key, '198.51.100.10')).statusCode).toBe(429);

    // Another key of the same merchant has its own budget.
    const other = await merchant.keyWithScopes(['plans_read']);
    expect((await get(a, other, '198.51.100.10')).statusCode).toBe(200);
  });

  it('applies the per-merchant override (Enterprise)', async () => {
    const enterprise = await seedMerchant(db.sql, 'Enterprise');
    await setRateLimitOverride(db.sql, enterprise.merchantId, PER_KEY * 3);
    const key = await enterprise.keyWithScopes(['plans_read']);
    for (let i = 0; i < PER_KEY * 2; i++) expect((await get(a, key, `203.0.113.${i}`)).statusCode).toBe(200);
    await limiterA.flush();
    expect((await get(b, key, '203.0.114.200')).statusCode).toBe(200);
    await limiterB.flush();
    for (let i = 1; i < PER_KEY; i++) expect((await get(b, key, `203.0.114.${i}`)).statusCode).toBe(200);
    expect((await get(b, key, '203.0.115.1')).statusCode).toBe(429);
  });
});

describe('per-IP limit across two instances', () => {
  it('limits every request from one IP, authenticated or not, on both instances together', async () => {
    const ip = '192.0.2.77';
    const half = PER_IP / 2;
    for (let i = 0; i < half; i++) {
      const response = await a.app.inject({
        method: 'GET',
        url: '/v1/checkout/plans/plan_01ARZ3NDEKTSV4RRFFQ69G5FAV',
        headers: { 'x-forwarded-for': ip },
      });
      expect(response.statusCode).toBe(404);
    }
    await limiterA.flush();
    expect((await b.app.inject({ method: 'GET', url: '/v1/nowhere', headers: { 'x-forwarded-for': ip } })).statusCode).toBe(404);
    await limiterB.flush();
    for (let i = 1; i < half; i++) {
      const response = await b.app.inject({ method: 'GET', url: '/v1/nowhere', headers: { 'x-forwarded-for': ip } });
      expect(response.statusCode).toBe(404);
    }
    const refused = await b.app.inject({
      method: 'GET',
      url: '/v1/subscription-plans',
      headers: { 'x-forwarded-for': ip, authorization: 'Bearer nope' },
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    // Another IP is unaffected.
    const other = await b.app.inject({ method: 'GET', url: '/v1/nowhere', headers: { 'x-forwarded-for': '192.0.2.78' } });
    expect(other.statusCode).toBe(404);
    await limiterA.flush();
    await limiterB.flush();
    const rows = await db.sql<{ count: string }[]>`select count::text from rate_limit_counters where bucket = ${`ip:${ip}`}`;
    expect(Number(rows[0]!.count)).toBe(PER_IP);
  });
});

describe('the client IP', () => {
  it('ignores X-Forwarded-For unless TRUST_PROXY names the proxy: a client cannot pick its own per-IP bucket', async () => {
    const limiter = createRateLimiter(db.sql, { flushIntervalMs: 60_000, now: () => fixedNow });
    const direct = await createTestApp(db.sql, { env: { RATE_LIMIT_PER_IP_PER_MINUTE: String(PER_IP) }, rateLimiter: limiter });
    try {
      // Every request claims another address; all of them come from this one socket address.
      for (let i = 0; i < PER_IP; i++) {
        const response = await direct.app.inject({ method: 'GET', url: '/v1/nowhere', headers: { 'x-forwarded-for': `198.18.${i}.1` } });
        expect(response.statusCode).toBe(404);
      }
      const refused = await direct.app.inject({ method: 'GET', url: '/v1/nowhere', headers: { 'x-forwarded-for': '198.18.250.1' } });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe('rate_limited');
    } finally {
      await direct.close();
      await limiter.close();
    }
  });
});
