// sql.begin on a reserved connection (src/db/transactions.ts) against a real Postgres: commits,
// rolls back, takes options, and stays safe when every connection is busy and pipelining, the
// load under which the library's own begin sends BEGIN on a connection it never reserves.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql } from '../../src/db/client.js';
import { installReservedTransactions } from '../../src/db/transactions.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.sql`create table tx_probe (id serial primary key, label text not null)`;
});
afterAll(async () => db?.drop());

const labels = async (prefix: string) =>
  (await db.sql<{ label: string }[]>`select label from tx_probe where label like ${`${prefix}%`} order by id`).map((r) => r.label);

describe('transactions on a reserved connection', () => {
  it('commits, rolls back on an error (and on an aborted statement), takes options, returns the result', async () => {
    const result = await db.sql.begin(async (tx) => {
      await tx`insert into tx_probe (label) values ('commit-a')`;
      await tx`insert into tx_probe (label) values ('commit-b')`;
      return 'done';
    });
    expect(result).toBe('done');
    expect(await labels('commit-')).toEqual(['commit-a', 'commit-b']);

    await expect(
      db.sql.begin(async (tx) => {
        await tx`insert into tx_probe (label) values ('rollback-a')`;
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await expect(
      db.sql.begin(async (tx) => [await tx`insert into tx_probe (label) values ('bad-a')`, await tx`select 1/0`]),
    ).rejects.toThrow(/division by zero/);
    expect(await labels('rollback-')).toEqual([]);
    expect(await labels('bad-')).toEqual([]);

    const isolation = await db.sql.begin(
      'isolation level serializable',
      async (tx) => (await tx`select current_setting('transaction_isolation') as level`)[0]!.level,
    );
    expect(isolation).toBe('serializable');
    // An array of queries is awaited as the library does.
    const rows = await db.sql.begin((tx) => [tx`select 1 as one`, tx`select 2 as two`]);
    expect(rows).toMatchObject([[{ one: 1 }], [{ two: 2 }]]);
  });

  it('a commit that Postgres turns into a rollback (a failed statement was swallowed) is an error', async () => {
    await expect(
      db.sql.begin(async (tx) => {
        await tx`insert into tx_probe (label) values ('swallowed-a')`;
        await tx`select 1/0`.catch(() => undefined);
      }),
    ).rejects.toThrow(/rolled back at commit/);
    expect(await labels('swallowed-')).toEqual([]);
  });

  it('under a saturated, pipelining pool every transaction is its own and no connection is left inside one', async () => {
    // Three connections, at most two queries pipelined on each. Each round makes every connection
    // busy (a sleep) with one query queued behind it, so the next query sent to it fills its pipeline:
    // the library's own begin, sent then, skips its reservation and fails with UNSAFE_TRANSACTION
    // every round (porsager/postgres#823). `.execute()` sends at once (queries are lazy otherwise).
    // max_pipeline is a runtime option of the library that its types do not list.
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- postgres's type parameter for "no custom types"
    const options = { max: 3, max_pipeline: 2, onnotice: () => {}, connection: { application_name: 'tx-probe' } } as postgres.Options<{}>;
    const sql = installReservedTransactions(postgres(db.url, options));
    try {
      for (let round = 0; round < 10; round++) {
        const sleepers = [0, 1, 2].map(() => sql`select pg_sleep(0.05)`.execute());
        const queued = [0, 1, 2].map((i) => sql`select ${i}::int as i`.execute());
        const transactions = Array.from({ length: 5 }, (_, i) =>
          sql.begin(async (tx) => {
            await tx`insert into tx_probe (label) values (${`race-${round}-${i}-a`})`;
            await tx`insert into tx_probe (label) values (${`race-${round}-${i}-b`})`;
            return (await tx`select txid_current()::text as id`)[0]!.id as string;
          }),
        );
        const settled = await Promise.allSettled([...sleepers, ...queued, ...transactions]);
        expect(settled.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason))).toEqual([]);
        expect(new Set(await Promise.all(transactions)).size).toBe(5);
      }
      expect((await labels('race-')).length).toBe(10 * 5 * 2);
      const open =
        await db.sql`select count(*)::int as n from pg_stat_activity where application_name = 'tx-probe' and state like 'idle in transaction%'`;
      expect(open[0]!.n).toBe(0);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });

  it('a transaction that needs a new connection gets one while the only open one is reserved', async () => {
    // postgres 3.4.9 hands a connection it opened for a reserve() over only at the end of the
    // array-type fetch; a client that skipped that fetch on later connections left such a reserve
    // (every sql.begin) waiting for ever (porsager/postgres#751, #1219): the agent funding crash
    // test hung on it while it held a row lock on the pool's one open connection.
    const sql = createSql(db.url, { max: 3, applicationName: 'tx-probe-cold' });
    try {
      expect((await sql<{ one: number }[]>`select 1 as one`)[0]!.one).toBe(1); // one connection, types read
      const held = await sql.reserve();
      try {
        await held`select 1`;
        const bounded = <T>(work: Promise<T>) =>
          Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no connection within 10 s')), 10_000))]);
        const label = await bounded(
          sql.begin(async (tx) => (await tx`insert into tx_probe (label) values ('cold-a') returning label`)[0]!.label as string),
        );
        expect(label).toBe('cold-a');
        // A second fresh connection, and array values both ways (their types come from the fetch).
        const second = await bounded(sql.reserve());
        const arrays = await second<{ labels: string[] }[]>`select ${sql.array(['x', 'y'])}::text[] as labels`;
        second.release();
        expect(arrays[0]!.labels).toEqual(['x', 'y']);
      } finally {
        held.release();
      }
      expect(await labels('cold-')).toEqual(['cold-a']);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });

  it('a failed array-type read of a new connection (a promise the library drops) does not end the process', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('../support/type-read-failure-process.ts', import.meta.url))],
      {
        env: { ...process.env, DATABASE_URL: db.url },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect({ code, out: out.trim(), err: err.trim() }).toEqual({ code: 0, out: 'alive', err: '' });
  }, 30_000);
});
