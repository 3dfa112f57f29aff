import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import type { Resolver } from '../../src/webhooks/targets.js';

let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;

const dns: Record<string, string[]> = {
  'hooks.example': ['93.184.216.34'],
  'internal.example': ['10.0.0.7'],
  'metadata.example': ['169.254.169.254'],
};
const resolver: Resolver = async (host) => dns[host] ?? [];

beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp(db.sql, { webhookResolver: resolver });
  merchant = await seedMerchant(db.sql);
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const valid = { url: 'https://hooks.example/stablepay', events: ['invoice.paid', 'subscription.charged'], description: 'Main' };

async function create(payload: unknown, key = merchant.secretKey) {
  return t.app.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers: auth(key), payload: payload as object });
}

describe('webhook endpoints', () => {
  it('registers an endpoint, returns the secret once and stores it encrypted', async () => {
    const response = await create(valid);
    expect(response.statusCode).toBe(200);
    const { endpoint, signingSecret } = response.json();
    expect(signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(signingSecret.slice(6), 'base64')).toHaveLength(32);
    expect(endpoint).toMatchObject({
      object: 'webhook_endpoint',
      url: valid.url,
      events: valid.events,
      mode: 'test',
      status: 'active',
      description: 'Main',
      livemode: false,
      disabledReason: null,
      previousSecretExpiresAt: null,
    });
    expect(endpoint.id).toMatch(/^we_/);
    expect(endpoint.signingSecretPrefix).toBe(signingSecret.slice(0, 12));

    const read = await t.app.inject({ method: 'GET', url: `/v1/webhook-endpoints/${endpoint.id}`, headers: auth(merchant.secretKey) });
    expect(read.json()).toEqual(endpoint);
    expect(read.body).not.toContain(signingSecret);

    const [row] = await db.sql`select secret_ciphertext from webhook_endpoints where id = ${endpoint.id}`;
    expect(Buffer.from(row!.secret_ciphertext).toString('latin1')).not.toContain(signingSecret.slice(6, 20));
    expect(t.logs.join('')).not.toContain(signingSecret);
  });

  it('accepts the * wildcard and stores it alone', async () => {
    const { endpoint } = (await create({ ...valid, events: ['invoice.paid', '*'] })).json();
    expect(endpoint.events).toEqual(['*']);
  });

  it.each([
    [{ ...valid, url: 'http://hooks.example/x' }, 'url'],
    [{ ...valid, url: 'https://internal.example/x' }, 'url'],
    [{ ...valid, url: 'https://metadata.example/latest/meta-data' }, 'url'],
    [{ ...valid, url: 'https://127.0.0.1/x' }, 'url'],
    [{ ...valid, url: 'https://2130706433/x' }, 'url'],
    [{ ...valid, url: 'https://[::ffff:10.0.0.1]/x' }, 'url'],
    [{ ...valid, url: 'https://does-not-resolve.example/x' }, 'url'],
    [{ ...valid, url: 'https://user:pass@hooks.example/x' }, 'url'],
    [{ ...valid, events: ['invoice.exploded'] }, 'events.0'],
    [{ ...valid, events: [] }, 'events'],
    [{ ...valid, mode: 'sandbox' }, 'mode'],
    [{ events: ['invoice.paid'] }, 'url'],
  ])('refuses %j with invalid_request on %s and creates nothing', async (payload, param) => {
    const before = await db.sql`select count(*)::int as n from webhook_endpoints`;
    const response = await create(payload);
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe('invalid_request');
    expect(error.param).toBe(param);
    const after = await db.sql`select count(*)::int as n from webhook_endpoints`;
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('refuses an endpoint of the other mode with permission_denied on mode, and creates nothing', async () => {
    const before = await db.sql`select count(*)::int as n from webhook_endpoints`;
    const response = await create({ ...valid, mode: 'live' });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toMatchObject({ code: 'permission_denied', param: 'mode' });
    expect((await db.sql`select count(*)::int as n from webhook_endpoints`)[0]!.n).toBe(before[0]!.n);
  });

  it('disables, refuses a second disable, enables', async () => {
    const { endpoint } = (await create(valid)).json();
    const disabled = await t.app.inject({
      method: 'POST',
      url: `/v1/webhook-endpoints/${endpoint.id}/disable`,
      headers: auth(merchant.secretKey),
    });
    expect(disabled.json()).toMatchObject({ status: 'disabled', disabledReason: 'manual' });
    const again = await t.app.inject({
      method: 'POST',
      url: `/v1/webhook-endpoints/${endpoint.id}/disable`,
      headers: auth(merchant.secretKey),
    });
    expect(again.statusCode).toBe(403);
    expect(again.json().error.code).toBe('session_invalid_state');
    const enabled = await t.app.inject({
      method: 'POST',
      url: `/v1/webhook-endpoints/${endpoint.id}/enable`,
      headers: auth(merchant.secretKey),
    });
    expect(enabled.json()).toMatchObject({ status: 'active', disabledReason: null, disabledAt: null });
  });

  it('rotates the secret with a 24 hour overlap', async () => {
    const { endpoint, signingSecret } = (await create(valid)).json();
    const rotated = await t.app.inject({
      method: 'POST',
      url: `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`,
      headers: auth(merchant.secretKey),
    });
    expect(rotated.statusCode).toBe(200);
    const body = rotated.json();
    expect(body.signingSecret).toMatch(/^whsec_/);
    expect(body.signingSecret).not.toBe(signingSecret);
    expect(body.endpoint.signingSecretPrefix).toBe(body.signingSecret.slice(0, 12));
    const overlapHours = (Date.parse(body.endpoint.previousSecretExpiresAt) - Date.now()) / 3_600_000;
    expect(overlapHours).toBeGreaterThan(23.9);
    expect(overlapHours).toBeLessThanOrEqual(24);
  });

  it('enforces scopes and scopes objects to merchant and mode', async () => {
    const readOnly = await merchant.keyWithScopes(['webhooks_read']);
    expect((await create(valid, readOnly)).json().error.code).toBe('permission_denied');
    const { endpoint } = (await create(valid)).json();
    expect((await t.app.inject({ method: 'GET', url: `/v1/webhook-endpoints/${endpoint.id}`, headers: auth(readOnly) })).statusCode).toBe(
      200,
    );
    const noScope = await merchant.keyWithScopes(['plans_read']);
    expect((await t.app.inject({ method: 'GET', url: '/v1/webhook-endpoints', headers: auth(noScope) })).json().error.code).toBe(
      'permission_denied',
    );
    expect(
      (await t.app.inject({ method: 'GET', url: `/v1/webhook-endpoints/${endpoint.id}`, headers: auth(merchant.liveSecretKey) }))
        .statusCode,
    ).toBe(404);
    const other = await seedMerchant(db.sql, 'Other');
    expect(
      (await t.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/disable`, headers: auth(other.secretKey) }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/v1/webhook-endpoints', headers: auth(other.secretKey) })).json().data).toEqual([]);
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/webhook-endpoints/not-an-id', headers: auth(merchant.secretKey) })).json().error.code,
    ).toBe('not_found');
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/v1/webhook-deliveries/wdl_01ARZ3NDEKTSV4RRFFQ69G5FAV',
          headers: auth(merchant.secretKey),
        })
      ).statusCode,
    ).toBe(404);
  });

  it('documents the webhook routes in /openapi.json', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const path of [
      '/v1/webhook-endpoints',
      '/v1/webhook-endpoints/{id}/rotate-secret',
      '/v1/webhook-deliveries',
      '/v1/webhook-deliveries/{id}/replay',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });

  it('refuses private targets in live mode even when local receivers are allowed', async () => {
    const local = await createTestApp(db.sql, { webhookResolver: resolver, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    try {
      const testMode = await local.app.inject({
        method: 'POST',
        url: '/v1/webhook-endpoints',
        headers: auth(merchant.secretKey),
        payload: { ...valid, url: 'https://internal.example/x' },
      });
      expect(testMode.statusCode).toBe(200);
      const liveMode = await local.app.inject({
        method: 'POST',
        url: '/v1/webhook-endpoints',
        headers: auth(merchant.liveSecretKey),
        payload: { ...valid, url: 'https://internal.example/x' },
      });
      expect(liveMode.statusCode).toBe(400);
      expect(liveMode.json().error.param).toBe('url');
    } finally {
      await local.close();
    }
  });
});
