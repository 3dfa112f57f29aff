// The test-clock API (issue #30) against a real app, Temporal dev server, Postgres and a private
// anvil (a clock moves chain time, which must not touch the suite's shared chain): who may call it,
// the limits and bad input with the error envelope, and the clock's life from ready to deleted.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PublicClient, createPublicClient, createTestClient, http } from 'viem';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, startPrivateChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { payRelayedSession } from '../support/relayed-session.js';
import { InvalidRequestError } from '../../src/errors.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { createChainResolver } from '../../src/test-clocks/chain-registry.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';

const DAY = 86_400_000;
let chain: DevChain;
let db: TestDatabase;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let other: SeededMerchant;

beforeAll(async () => {
  chain = await startPrivateChain();
  const settings = settingsOf(chain.info, { pollIntervalMs: 100 });
  db = await createTestDatabase();
  temporal = await startDevServerWorker(db.sql, { chain: { test: settings } });
  // The clocks below move the test chain (`shared`); the first describe opts into forks with an app of its own.
  t = await createTestApp(db.sql, {
    temporal: temporal.client,
    taskQueue: temporal.taskQueue,
    chain: { test: settings },
    env: { TEST_CLOCK_CHAINS: 'shared' },
  });
  merchant = await seedMerchant(db.sql);
  other = await seedMerchant(db.sql, 'Other merchant');
});
afterAll(async () => {
  await t?.close();
  await temporal?.stop();
  await db?.drop();
  await chain?.stop();
});

const call = (key: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload ? { payload } : {}) });
const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => call(merchant.secretKey, method, url, payload);
const chainNowMs = async () => Number((await createPublicClient({ transport: http(chain.info.rpcUrl) }).getBlock()).timestamp) * 1000;
const wallet = () => privateKeyToAccount(generatePrivateKey()).address;
const iso = (ms: number) => new Date(ms).toISOString();

async function untilReady(id: string) {
  for (let i = 0; i < 200; i++) {
    const clock = (await api('GET', `/v1/test-clocks/${id}`)).json();
    if (clock.status === 'ready') return clock;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('clock never ready');
}

// Issue 39: with TEST_CLOCK_CHAINS=fork a clock gets its own chain (an anvil forked from the test
// chain, a chain id of its own), whose time only it moves; deleting the clock stops it. First in the
// file: the shared-mode tests below move the test chain, and wall-clock signatures need it near now.
describe('a test clock on a chain of its own', () => {
  it('forks the test chain at creation, is found by its chain id, moves only the fork a year (other payments signed by the wall clock still complete), and stops the fork when deleted', async () => {
    const forked = await createTestApp(db.sql, {
      temporal: temporal.client,
      taskQueue: temporal.taskQueue,
      chain: { test: settingsOf(chain.info, { pollIntervalMs: 100 }) },
      env: { TEST_CLOCK_CHAINS: 'fork' },
    });
    try {
      const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
        forked.app.inject({ method, url, headers: { authorization: `Bearer ${other.secretKey}` }, ...(payload ? { payload } : {}) });
      const sharedBefore = await chainNowMs();
      const start = Math.ceil((sharedBefore + 3_600_000) / 1000) * 1000;
      const created = await call('POST', '/v1/test-clocks', { name: 'Own chain', frozenTime: iso(start) });
      expect(created.statusCode, created.body).toBe(200);
      const id = created.json().id as string;
      const [row] = await db.sql<{ chainId: string; rpcUrl: string }[]>`
        select chain_id::text as "chainId", rpc_url as "rpcUrl" from test_clocks where id = ${id}`;
      expect(row!.rpcUrl).not.toBe(chain.info.rpcUrl);
      expect(Number(row!.chainId)).not.toBe(chain.info.chainId);
      const fork = createPublicClient({ transport: http(row!.rpcUrl) });
      expect(await fork.getChainId()).toBe(Number(row!.chainId));
      // The token and contracts as they were on the test chain.
      const token = settingsOf(chain.info).token;
      expect(await fork.getCode({ address: token })).toBe(
        await createPublicClient({ transport: http(chain.info.rpcUrl) }).getCode({ address: token }),
      );
      expect(Number((await fork.getBlock()).timestamp) * 1000).toBeGreaterThanOrEqual(start);
      // The clock row is the registry the worker finds the fork by: the test chain's contracts and keys, the fork's node.
      const chainOf = createChainResolver({ sql: db.sql, config: { test: settingsOf(chain.info) } });
      const resolved = await chainOf(false, Number(row!.chainId));
      expect(resolved).toMatchObject({ chainId: Number(row!.chainId), rpcUrl: row!.rpcUrl, token, livemode: false });
      expect(await chainOf(false, Number(row!.chainId))).toBe(resolved);
      expect(await chainOf(false, chain.info.chainId)).toMatchObject({ rpcUrl: chain.info.rpcUrl });
      await expect(chainOf(false, 424_242)).rejects.toMatchObject({ param: 'chainId' });
      await expect(chainOf(true, Number(row!.chainId))).rejects.toBeInstanceOf(InvalidRequestError);

      const yearOn = start + 365 * DAY;
      expect((await call('POST', `/v1/test-clocks/${id}/advance`, { frozenTime: iso(yearOn) })).statusCode).toBe(200);
      for (let i = 0; i < 200 && (await call('GET', `/v1/test-clocks/${id}`)).json().status !== 'ready'; i++)
        await new Promise((r) => setTimeout(r, 50));
      expect((await call('GET', `/v1/test-clocks/${id}`)).json()).toMatchObject({ status: 'ready', frozenTime: iso(yearOn) });
      expect(Number((await fork.getBlock()).timestamp) * 1000).toBeGreaterThanOrEqual(yearOn);
      // The test chain, which every other merchant's wall-clock signatures are checked against, stayed.
      expect(await chainNowMs()).toBeLessThan(sharedBefore + 3_600_000);
      // So a payment signed with wall-clock validity (as the official x402 buyer and most wallets sign)
      // completes on it: another merchant's, and the clock's own merchant's from a wallet not on the clock.
      const testChain = createPublicClient({ transport: http(chain.info.rpcUrl), pollingInterval: 100 }) as PublicClient;
      for (const [payee, keyPrefix] of [
        [merchant, 'other-merchant'],
        [other, 'same-merchant-off-clock'],
      ] as const) {
        await setPayoutAddress(db.sql, payee.merchantId, DEV_ACCOUNTS.merchant.address);
        await payRelayedSession({
          app: forked.app,
          secretKey: payee.secretKey,
          pub: testChain,
          token,
          payer: privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey),
          payTo: DEV_ACCOUNTS.merchant.address,
          amount: 1_000_000n,
          keyPrefix,
          signedBy: 'wall',
        });
      }

      expect((await call('POST', `/v1/test-clocks/${id}/delete`)).statusCode).toBe(200);
      await expect(
        createChainResolver({ sql: db.sql, config: { test: settingsOf(chain.info) }, ttlMs: 0 })(false, Number(row!.chainId)),
      ).rejects.toMatchObject({ param: 'chainId' });
      await expect(createPublicClient({ transport: http(row!.rpcUrl, { retryCount: 0, timeout: 2_000 }) }).getChainId()).rejects.toThrow();
    } finally {
      await forked.close();
    }
  }, 60_000);

  it("forks the live clocks' chains again when the owning process starts, from their dumped state, at the clock's time", async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'clock-chains-'));
    const forkApp = () =>
      createTestApp(db.sql, {
        temporal: temporal.client,
        taskQueue: temporal.taskQueue,
        chain: { test: settingsOf(chain.info, { pollIntervalMs: 100 }) },
        env: { TEST_CLOCK_CHAINS: 'fork', TEST_CLOCK_CHAIN_STATE_DIR: stateDir },
      });
    const call = (app: TestApp, method: 'GET' | 'POST', url: string, payload?: object) =>
      app.app.inject({ method, url, headers: { authorization: `Bearer ${other.secretKey}` }, ...(payload ? { payload } : {}) });
    const rowOf = async (id: string) =>
      (
        await db.sql<{ chainId: string; rpcUrl: string }[]>`
        select chain_id::text as "chainId", rpc_url as "rpcUrl" from test_clocks where id = ${id}`
      )[0]!;
    const marked = wallet();
    const first = await forkApp();
    let id: string;
    let before: { chainId: string; rpcUrl: string };
    const frozenTime = Math.ceil(((await chainNowMs()) + 2 * DAY) / 1000) * 1000;
    try {
      const created = await call(first, 'POST', '/v1/test-clocks', { name: 'Survives restarts', frozenTime: iso(frozenTime) });
      expect(created.statusCode, created.body).toBe(200);
      id = created.json().id;
      before = await rowOf(id);
      // Something only this fork holds: it must come back from the dumped state.
      await createTestClient({ mode: 'anvil', transport: http(before.rpcUrl) }).setBalance({ address: marked, value: 12_345n });
    } finally {
      await first.close();
    }
    const second = await forkApp();
    try {
      const after = await rowOf(id);
      expect(after.chainId).toBe(before.chainId);
      expect(after.rpcUrl).not.toBe(before.rpcUrl);
      const fork = createPublicClient({ transport: http(after.rpcUrl) });
      expect(await fork.getChainId()).toBe(Number(after.chainId));
      expect(await fork.getBalance({ address: marked })).toBe(12_345n);
      expect(Number((await fork.getBlock()).timestamp) * 1000).toBeGreaterThanOrEqual(frozenTime);
      expect((await call(second, 'POST', `/v1/test-clocks/${id}/delete`)).statusCode).toBe(200);
    } finally {
      await second.close();
      await rm(stateDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('test clocks API', () => {
  it('creates, lists, advances (answering advancing, then ready, with the chain moved) and deletes a clock', async () => {
    const start = Math.ceil(((await chainNowMs()) + 3_600_000) / 1000) * 1000;
    const payer = wallet();
    const created = await api('POST', '/v1/test-clocks', { name: 'Clock', frozenTime: iso(start), wallets: [payer] });
    expect(created.statusCode, created.body).toBe(200);
    const clock = created.json();
    expect(clock).toMatchObject({ object: 'test_clock', status: 'ready', livemode: false, frozenTime: iso(start), advancingTo: null });
    expect(clock.id).toMatch(/^clock_/);
    expect(clock.wallets.map((w: { walletAddress: string }) => w.walletAddress)).toEqual([payer.toLowerCase()]);
    expect(await chainNowMs()).toBeGreaterThanOrEqual(start);

    const list = (await api('GET', '/v1/test-clocks')).json();
    expect(list.data.map((c: { id: string }) => c.id)).toContain(clock.id);

    const advanced = await api('POST', `/v1/test-clocks/${clock.id}/advance`, { frozenTime: iso(start + 31 * DAY) });
    expect(advanced.statusCode, advanced.body).toBe(200);
    expect(advanced.json()).toMatchObject({ status: 'advancing', frozenTime: iso(start), advancingTo: iso(start + 31 * DAY) });
    const ready = await untilReady(clock.id);
    expect(ready).toMatchObject({ status: 'ready', frozenTime: iso(start + 31 * DAY), advancingTo: null });
    expect(await chainNowMs()).toBeGreaterThanOrEqual(start + 31 * DAY);

    const more = wallet();
    const attached = await api('POST', `/v1/test-clocks/${clock.id}/wallets`, { wallets: [more] });
    expect(attached.statusCode, attached.body).toBe(200);
    expect(attached.json().wallets).toHaveLength(2);

    const deleted = await api('POST', `/v1/test-clocks/${clock.id}/delete`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toMatchObject({ id: clock.id, status: 'deleted', advancingTo: null });
    expect(deleted.json().deletedAt).not.toBeNull();
    // Then it is gone: read, listed, deleted again or advanced, it is not_found.
    for (const [method, url, payload] of [
      ['GET', `/v1/test-clocks/${clock.id}`],
      ['DELETE', `/v1/test-clocks/${clock.id}`],
      ['POST', `/v1/test-clocks/${clock.id}/delete`],
      ['POST', `/v1/test-clocks/${clock.id}/advance`, { frozenTime: iso(start + 60 * DAY) }],
      ['POST', `/v1/test-clocks/${clock.id}/wallets`, { wallets: [wallet()] }],
    ] as const) {
      const gone = await api(method, url, payload);
      expect(gone.statusCode, `${method} ${url}`).toBe(404);
      expect(gone.json().error.code).toBe('not_found');
    }
    expect((await api('GET', '/v1/test-clocks')).json().data.map((c: { id: string }) => c.id)).not.toContain(clock.id);
    // Its wallets are free for another clock.
    const again = await api('POST', '/v1/test-clocks', { name: 'Next', frozenTime: iso((await chainNowMs()) + DAY), wallets: [payer] });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('refuses live keys, publishable keys and other merchants, and bad input with the envelope, changing nothing', async () => {
    const frozenTime = iso((await chainNowMs()) + 3_600_000);
    const live = await call(merchant.liveSecretKey, 'POST', '/v1/test-clocks', { name: 'Live', frozenTime });
    expect(live.statusCode).toBe(403);
    expect(live.json().error.code).toBe('permission_denied');
    expect((await call(merchant.liveSecretKey, 'GET', '/v1/test-clocks')).statusCode).toBe(403);
    const publishable = await call(merchant.publishableKey, 'GET', '/v1/test-clocks');
    expect([401, 403]).toContain(publishable.statusCode);

    const clock = (await api('POST', '/v1/test-clocks', { name: 'Mine', frozenTime })).json();
    const foreign = await call(other.secretKey, 'GET', `/v1/test-clocks/${clock.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('not_found');
    expect(
      (await call(other.secretKey, 'POST', `/v1/test-clocks/${clock.id}/advance`, { frozenTime: iso(Date.parse(frozenTime) + DAY) }))
        .statusCode,
    ).toBe(404);
    for (const [method, url] of [
      ['POST', `/v1/test-clocks/${clock.id}/delete`],
      ['DELETE', `/v1/test-clocks/${clock.id}`],
    ] as const) {
      const notMine = await call(other.secretKey, method, url);
      expect(notMine.statusCode).toBe(404);
      expect(notMine.json().error.code).toBe('not_found');
    }
    expect((await api('GET', `/v1/test-clocks/${clock.id}`)).json().status).toBe('ready');

    const before = (await db.sql`select count(*)::int as n from test_clocks`)[0]!.n;
    const cases: [object, string][] = [
      [{ name: 'No time' }, 'frozenTime'],
      [{ name: 'Bad time', frozenTime: 'tomorrow' }, 'frozenTime'],
      [{ name: 'Past', frozenTime: iso((await chainNowMs()) - DAY) }, 'frozenTime'],
      [{ name: 'Bad wallet', frozenTime, wallets: ['0x123'] }, 'wallets.0'],
      [{ name: '', frozenTime }, 'name'],
      [{ name: 'Extra', frozenTime, colour: 'red' }, ''],
    ];
    for (const [body, param] of cases) {
      const response = await api('POST', '/v1/test-clocks', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const error = response.json().error;
      expect(error.code).toBe('invalid_request');
      if (param) expect(JSON.stringify(error.details.issues)).toContain(param);
    }
    expect((await db.sql`select count(*)::int as n from test_clocks`)[0]!.n).toBe(before);

    const backwards = await api('POST', `/v1/test-clocks/${clock.id}/advance`, { frozenTime: iso(Date.parse(frozenTime) - 1000) });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error.param).toBe('frozenTime');
    const tooFar = await api('POST', `/v1/test-clocks/${clock.id}/advance`, { frozenTime: iso(Date.parse(frozenTime) + 401 * DAY) });
    expect(tooFar.statusCode).toBe(400);
    expect(tooFar.json().error.message).toContain('400 days');
    expect((await api('GET', `/v1/test-clocks/${clock.id}`)).json()).toMatchObject({ status: 'ready', frozenTime });

    const payer = wallet();
    await api('POST', `/v1/test-clocks/${clock.id}/wallets`, { wallets: [payer] });
    const second = await api('POST', '/v1/test-clocks', { name: 'Second', frozenTime, wallets: [payer] });
    expect(second.statusCode).toBe(400);
    expect(second.json().error.param).toBe('wallets');
    const tooMany = await api('POST', `/v1/test-clocks/${clock.id}/wallets`, { wallets: Array.from({ length: 10 }, wallet) });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.param).toBe('wallets');
  });

  // Issue 36, item 8: creation was unbounded (a clock in the year 9999 moved the test chain there for good).
  it('refuses a frozenTime more than 400 days ahead at creation, as an advance is, with the envelope; nothing is created and the chain stays', async () => {
    const before = (await db.sql`select count(*)::int as n from test_clocks`)[0]!.n;
    const chainBefore = await chainNowMs();
    for (const frozenTime of [iso(chainBefore + 401 * DAY), iso(chainBefore + 50 * 365 * DAY), '9999-12-31T00:00:00.000Z']) {
      const response = await api('POST', '/v1/test-clocks', { name: 'Far', frozenTime });
      expect(response.statusCode, frozenTime).toBe(400);
      const error = response.json().error;
      expect(error.code).toBe('invalid_request');
      expect(error.param).toBe('frozenTime');
      expect(error.message).toContain('400 days');
      expect(JSON.stringify(error.details.issues)).toContain('frozenTime');
    }
    expect((await db.sql`select count(*)::int as n from test_clocks`)[0]!.n).toBe(before);
    expect(await chainNowMs()).toBeLessThan(chainBefore + DAY);
  });
});
