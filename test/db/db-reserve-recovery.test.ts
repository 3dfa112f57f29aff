// A reserve (so every sql.begin, src/db/transactions.ts) settles when connections drop, on a
// Postgres this test owns and kills. Without scripts/patch-postgres-client.mjs the client leaves
// such a reserve pending for ever: a reserve queued behind a connection whose backend is
// terminated (porsager/postgres#1195), and transactions started while Postgres is down and coming
// back. The worker's relayer queues every send behind one transaction, so one stranded reserve
// stopped its payments for good after an outage (test/chaos/worker-postgres-outage.test.ts). And a
// reserved handle whose connection closed must touch nothing after: its late query once ended the
// process (a write to a null socket) or reached another reservation's connection.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../src/db/client.js';
import { portInUse } from '../../tools/dev/ports.js';
import { startPostgresProcess, type PostgresProcess } from '../../tools/dev/postgres-process.js';
import { PROJECT_ROOT } from '../../tools/dev/temporal.js';

let dataDir: string;
let postgres: PostgresProcess;
let port: number;
const pools: Sql[] = [];

const pool = (max: number) => {
  const sql = createSql(postgres.url('postgres'), { max, timeouts: { connectTimeoutSeconds: 2 } });
  pools.push(sql);
  return sql;
};

/** 'resolved', 'rejected' or 'pending' after `ms`. */
async function outcomeWithin(promise: Promise<unknown>, ms: number): Promise<string> {
  return Promise.race([
    promise.then(
      () => 'resolved',
      () => 'rejected',
    ),
    sleep(ms).then(() => 'pending'),
  ]);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(PROJECT_ROOT, '.data', 'test-reserve-'));
  postgres = await startPostgresProcess({ dataDir, durable: true });
  port = Number(new URL(postgres.url('')).port);
});
afterAll(async () => {
  for (const sql of pools) await sql.end({ timeout: 1 }).catch(() => undefined);
  await postgres?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('reserved connections across dropped connections', () => {
  it('the installed client carries the fix', () => {
    for (const build of ['src', 'cjs/src']) {
      const library = readFileSync(join(PROJECT_ROOT, 'node_modules', 'postgres', build, 'index.js'), 'utf8');
      const connection = readFileSync(join(PROJECT_ROOT, 'node_modules', 'postgres', build, 'connection.js'), 'utf8');
      expect(library.split('stablepay patch: reserve always settles').length - 1).toBe(6);
      expect(connection).toContain('stablepay patch: reserve always settles (4)');
    }
  });

  it('a reserve queued behind a connection whose backend is terminated gets the reconnected connection', async () => {
    const one = pool(1);
    const admin = pool(1);
    const held = await one.reserve();
    const { pid } = (await held<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]!;
    const queued = one.reserve();
    await admin`select pg_terminate_backend(${pid})`;
    expect(await outcomeWithin(queued, 10_000)).toBe('resolved');
    const reserved = await queued;
    expect((await reserved<{ one: number }[]>`select 1 as one`)[0]!.one).toBe(1);
    reserved.release();
  });

  it('a reserved handle whose connection closed touches nothing after: its queries fail and its release is ignored', async () => {
    const one = pool(1);
    const admin = pool(1);
    const stale = await one.reserve();
    const { pid } = (await stale<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]!;
    await admin`select pg_terminate_backend(${pid})`;
    // The terminated connection answers its next query with a failure, and the pool reconnects it.
    expect(await outcomeWithin(stale`select 1`, 10_000)).toBe('rejected');
    const current = await one.reserve();
    expect((await current<{ one: number }[]>`select 1 as one`)[0]!.one).toBe(1);

    // A pool query waits: the pool's one connection is reserved by `current`.
    const poolQuery = one`select 1`;
    // The stale handle's late work (a rollback, a release in a finally) must not reach `current`'s connection.
    const late = await stale`rollback`.then(
      () => 'resolved',
      (error: { code?: string }) => error.code,
    );
    expect(late).toBe('CONNECTION_CLOSED');
    stale.release();
    expect(await outcomeWithin(poolQuery, 1000)).toBe('pending');
    current.release();
    expect(await outcomeWithin(poolQuery, 10_000)).toBe('resolved');
  });

  it('transactions started before, during and after an outage all settle, and the pool works after it', async () => {
    const sql = pool(3);
    await sql`select 1`;
    const started: Promise<unknown>[] = [];
    let loading = true;
    const load = (async () => {
      while (loading) {
        const transaction = sql.begin((tx) => tx`select 1`);
        transaction.catch(() => undefined); // failing while the database is away is expected
        started.push(transaction);
        await sleep(20);
      }
    })();

    await sleep(1000);
    process.kill(-postgres.pid, 'SIGKILL');
    while (await portInUse(port)) await sleep(100);
    await sleep(4000);
    postgres = await startPostgresProcess({ dataDir, durable: true, port });
    await sleep(3000);
    loading = false;
    await load;

    // Every one has an answer: committed, or failed while the database was away. None waits on.
    const outcomes = await Promise.all(started.map((p) => outcomeWithin(p, 15_000)));
    const count = (what: string) => outcomes.filter((o) => o === what).length;
    expect({ pending: count('pending') }).toEqual({ pending: 0 });
    expect(count('resolved')).toBeGreaterThan(0);

    // As many transactions at once as the pool has connections, and more: none is lost to it.
    const after = await Promise.all(
      Array.from({ length: 12 }, () =>
        outcomeWithin(
          sql.begin((tx) => tx`select 1`),
          10_000,
        ),
      ),
    );
    expect(after).toEqual(Array(12).fill('resolved'));
  }, 90_000);
});
