// Public token reads against the run's shared anvil.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil, type AnvilInstance } from '../../src/chain/anvil.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { sharedChain, settingsOf } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, type TestApp } from '../support/app.js';

let db: TestDatabase;
let t: TestApp;
const chain = sharedChain();

beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp(db.sql, { chain: { test: settingsOf(chain) } });
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

describe('GET /v1/tokens/{address}', () => {
  it('describes the token without credentials: metadata, domain and capability bits', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/tokens/${chain.token.toLowerCase()}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      object: 'token',
      address: chain.token,
      chainId: chain.chainId,
      livemode: false,
      name: 'USD Coin',
      symbol: 'USDC',
      decimals: 6,
      domain: { name: 'USD Coin', version: '2', chainId: chain.chainId, verifyingContract: chain.token },
      // Circle's USDC has no eip712Domain(): its domain is read from name() and version()
      capabilities: 1 | 2,
      supports: { eip3009: true, eip2612: true, erc5267: false },
    });
  });

  it('probes a contract without EIP-3009: the subscription manager is not a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/tokens/${chain.subscriptionManager}` });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatchObject({ code: 'not_found', param: 'address' });
  });

  it('answers not_found for an address without a contract', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/tokens/${DEV_ACCOUNTS.merchant.address}` });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });

  it.each(['0x123', 'not-an-address', `${'0x'}${'g'.repeat(40)}`])('refuses the malformed address %s', async (address) => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/tokens/${address}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', param: 'address' });
  });

  it('reads the live chain only with mode=live, and the test chain otherwise', async () => {
    // A live chain without the contracts: the same address is a token on test and nothing on live.
    let live: AnvilInstance | undefined;
    let split: TestApp | undefined;
    try {
      live = await startAnvil({ chainId: 31338 });
      split = await createTestApp(db.sql, {
        chain: { test: settingsOf(chain), live: settingsOf(chain, { mode: 'live', livemode: true, rpcUrl: live.rpcUrl, chainId: 31338 }) },
      });
      const testRead = await split.app.inject({ method: 'GET', url: `/v1/tokens/${chain.token}` });
      expect(testRead.json()).toMatchObject({ chainId: chain.chainId, livemode: false });
      const liveRead = await split.app.inject({ method: 'GET', url: `/v1/tokens/${chain.token}?mode=live` });
      expect(liveRead.statusCode).toBe(404);
      expect(liveRead.json().error.message).toMatch(/chain 31338/);
    } finally {
      await split?.close();
      await live?.stop();
    }
  });

  it('answers a clear error, not a 500, for live mode without a live chain', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/tokens/${chain.token}?mode=live` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid_request');
    expect(res.json().error.message).toMatch(/Live mode has no chain configured/);
  });
});

describe('OpenAPI', () => {
  it('documents the token and relay bodies and fields', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const path of [
      '/v1/tokens/{address}',
      '/v1/tokens/{address}/permit-nonce',
      '/v1/relay/payments',
      '/v1/relay/subscriptions',
      '/v1/relay/submissions/{idempotencyKey}',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    const text = JSON.stringify(doc);
    expect(text).toContain('1 = EIP-3009');
    expect(text).toContain('`pending`: accepted, not yet sent');
    expect(doc.paths['/v1/relay/payments'].post.requestBody).toBeDefined();
  });
});

describe('GET /v1/tokens/{address}/permit-nonce', () => {
  it("returns the owner's EIP-2612 nonce as an integer string", async () => {
    const owner = DEV_ACCOUNTS.payers[5]!.address;
    const res = await t.app.inject({ method: 'GET', url: `/v1/tokens/${chain.token}/permit-nonce?owner=${owner.toLowerCase()}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ object: 'permit_nonce', token: chain.token, owner, nonce: expect.stringMatching(/^\d+$/) });
  });

  it('refuses a missing or malformed owner', async () => {
    for (const query of ['', '?owner=0xabc']) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/tokens/${chain.token}/permit-nonce${query}` });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'invalid_request', param: 'owner' });
    }
  });
});
