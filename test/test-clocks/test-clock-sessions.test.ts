// Payment sessions on a test clock (issue 36, item 8), on a private anvil (a clock moves chain time),
// the real indexer with the deposit hooks, a worker on the Temporal dev server and Postgres:
//   a transfer to a clock session's deposit address is judged on time or late by the clock's time
//   (the session's business time), not by the wall clock;
//   a session created while its clock is being deleted ends as on a deleted clock (expired) instead
//   of waiting for ever.
import { type Address, createPublicClient, createWalletClient, erc20Abi, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClockWorkflowId } from '../../workflows/clock-signals.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import type { ChainSettings } from '../../src/chain/config.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { createEventDispatcher } from '../../src/events/dispatch.js';
import { createHookRegistry } from '../../src/indexer/hooks.js';
import { createIndexer } from '../../src/indexer/indexer.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { depositIndexerHooks } from '../../src/payment-sessions/deposit-hooks.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, startPrivateChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';

const MINUTE = 60_000;
let chain: DevChain;
let settings: ChainSettings;
let db: TestDatabase;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
const indexerStop = new AbortController();
let indexerRun: Promise<void>;
const payer = privateKeyToAccount(DEV_ACCOUNTS.payers[4]!.privateKey);

beforeAll(async () => {
  chain = await startPrivateChain();
  settings = settingsOf(chain.info, { pollIntervalMs: 100 });
  db = await createTestDatabase();
  temporal = await startDevServerWorker(db.sql, { chain: { test: settings } });
  // The clock moves the test chain, where these sessions are paid (the indexer here follows the test chain only).
  t = await createTestApp(db.sql, {
    temporal: temporal.client,
    taskQueue: temporal.taskQueue,
    chain: { test: settings },
    env: { TEST_CLOCK_CHAINS: 'shared' },
  });
  merchant = await seedMerchant(db.sql, 'Clock shop');
  await setPayoutAddress(db.sql, merchant.merchantId, DEV_ACCOUNTS.merchant.address);
  const hooks = createHookRegistry(
    depositIndexerHooks({
      sql: db.sql,
      events: createEventDispatcher(temporal.client, temporal.taskQueue, () => {}),
      temporal: temporal.client,
      taskQueue: temporal.taskQueue,
      publicBaseUrl: 'http://127.0.0.1',
    }),
  );
  indexerRun = createIndexer({ sql: db.sql, settings, hooks, temporal: temporal.client }).run(indexerStop.signal);
}, 180_000);
afterAll(async () => {
  indexerStop.abort();
  await indexerRun?.catch(() => undefined);
  await t?.close();
  await temporal?.stop();
  await db?.drop();
  await chain?.stop();
});

const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${merchant.secretKey}` }, ...(payload ? { payload } : {}) });
const chainNowMs = async () => Number((await createPublicClient({ transport: http(chain.info.rpcUrl) }).getBlock()).timestamp) * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

async function eventually<T>(get: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await get();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function newClock(name: string): Promise<{ id: string; frozenTime: string }> {
  const frozenTime = iso(Math.ceil(((await chainNowMs()) + MINUTE) / 1000) * 1000);
  const created = await api('POST', '/v1/test-clocks', { name, frozenTime });
  expect(created.statusCode, created.body).toBe(200);
  return created.json();
}

async function transfer(to: Address, amount: bigint): Promise<string> {
  const viemChain = chainDefinition(chain.info.chainId, chain.info.rpcUrl);
  const wallet = createWalletClient({ account: payer, chain: viemChain, transport: http(chain.info.rpcUrl) });
  const pub = createPublicClient({ chain: viemChain, transport: http(chain.info.rpcUrl), pollingInterval: 50 });
  const hash = await wallet.writeContract({ address: settings.token, abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
  expect((await waitForDevReceipt(pub, hash)).status).toBe('success');
  return hash;
}

const session = async (id: string) => (await api('GET', `/v1/payment-sessions/${id}`)).json();

describe('payment sessions on a test clock', () => {
  it("credits a transfer by the clock's time: open on the clock while the wall clock is past expiresAt", async () => {
    const clock = await newClock('Frozen while the wall clock runs');
    const created = await api('POST', '/v1/payment-sessions', { amount: '2000000', testClock: clock.id, expiresInSeconds: 1800 });
    expect(created.statusCode, created.body).toBe(200);
    const { id, deposit, expiresAt } = created.json() as { id: string; deposit: { address: Address }; expiresAt: string };
    expect(Date.parse(expiresAt)).toBe(Date.parse(clock.frozenTime) + 1800_000);

    // The clock stays frozen while wall time runs past expiresAt: shift the clock's time and the
    // session's expiry back together, as if both were made 40 minutes ago (their distance unchanged).
    const shift = Date.parse(expiresAt) - Date.now() + 10 * MINUTE;
    await db.sql`update test_clocks set frozen_time = frozen_time - ${shift} * interval '1 millisecond' where id = ${clock.id}`;
    await db.sql`update payment_sessions set expires_at = expires_at - ${shift} * interval '1 millisecond' where id = ${id}`;
    expect(Date.parse((await session(id)).expiresAt)).toBeLessThan(Date.now());

    const hash = await transfer(deposit.address, 2_000_000n);
    const paid = await eventually(
      () => session(id),
      (s) => s.status !== 'open',
      'the session to be paid',
    );
    expect(paid.status).toBe('completed');
    expect(paid.transactionHash).toBe(hash);
    const [row] = await db.sql<{ status: string }[]>`select status from deposits where payment_session_id = ${id}`;
    expect(row?.status).toBe('credited');
  });

  it('refuses a transfer as late once the clock passed expiresAt, though the wall clock has not', async () => {
    const clock = await newClock('Moving to after the expiry');
    const created = await api('POST', '/v1/payment-sessions', { amount: '1000000', testClock: clock.id, expiresInSeconds: 1800 });
    const { id, deposit, expiresAt } = created.json() as { id: string; deposit: { address: Address }; expiresAt: string };
    // The clock is advancing to an hour past the expiry: its attached workflows act at that time, so a
    // transfer arriving now is after the session's end in business time (wall time is before it).
    await db.sql`update test_clocks set status = 'advancing', advancing_to = ${new Date(Date.parse(expiresAt) + 60 * MINUTE)} where id = ${clock.id}`;
    await transfer(deposit.address, 1_000_000n);
    const [row] = await eventually(
      () => db.sql<{ status: string }[]>`select status from deposits where payment_session_id = ${id}`,
      (rows) => rows.length > 0 && rows[0]!.status !== 'pending',
      'the deposit to be judged',
    );
    expect(row!.status).toBe('late');
    expect((await session(id)).deposit.amountReceived).toBe('0');
    await db.sql`update test_clocks set status = 'ready', advancing_to = null where id = ${clock.id}`;
  });

  it('a session created while its clock is being deleted ends (expired) instead of waiting for ever', async () => {
    const clock = await newClock('Deleted under a new session');
    const deleted = await api('POST', `/v1/test-clocks/${clock.id}/delete`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    await temporal.client.workflow.getHandle(testClockWorkflowId(clock.id)).result();
    // The session's create read the clock before the delete committed: the row says ready again for
    // that one read, then deleted as it is.
    await db.sql`update test_clocks set status = 'ready', deleted_at = null where id = ${clock.id}`;
    const created = await api('POST', '/v1/payment-sessions', { amount: '1000000', testClock: clock.id, expiresInSeconds: 1800 });
    await db.sql`update test_clocks set status = 'deleted', deleted_at = now() where id = ${clock.id}`;
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json() as { id: string };
    const ended = await eventually(
      () => session(id),
      (s) => s.status !== 'open',
      'the session to end',
      30_000,
    );
    expect(ended.status).toBe('expired');
  });
});
