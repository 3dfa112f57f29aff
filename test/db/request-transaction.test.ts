// The request's transaction is an explicit handle (src/db/request-transaction.ts): queries run in it
// only when made on it, `begin` on it is a savepoint, and work after the commit waits for the COMMIT
// only when it was given the request's handle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterCommit, RequestTransaction, runInRequestTransaction } from '../../src/db/request-transaction.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.sql`create table request_tx_probe (id text primary key)`;
});
afterAll(async () => db?.drop());

const ids = async () => (await db.sql<{ id: string }[]>`select id from request_tx_probe order by id`).map((r) => r.id);

describe('the request transaction handle', () => {
  it('runs in the transaction only what is made on the handle: the pool stays the pool', async () => {
    const request = new RequestTransaction();
    await runInRequestTransaction(request, async () => {
      const handle = await request.open(db.sql);
      await handle`insert into request_tx_probe values ('in-request')`;
      // The pool, inside the request's scope: its own connection, committed at once (a Proxy rerouted it).
      await db.sql`insert into request_tx_probe values ('on-pool')`;
      const [seen] = await db.sql<{ n: number }[]>`select count(*)::int as n from request_tx_probe where id = 'in-request'`;
      expect(seen!.n).toBe(0);
    });
    await request.rollback();
    expect(await ids()).toEqual(['on-pool']);
    await db.sql`delete from request_tx_probe`;
  });

  it('nests begin as savepoints, refuses an interleaved one, and defers work given its handle until the commit', async () => {
    const request = new RequestTransaction();
    const handle = await request.open(db.sql);
    const ran: string[] = [];
    await handle.begin(async (tx) => {
      await tx`insert into request_tx_probe values ('kept')`;
      // A failed inner transaction undoes only its own writes.
      await expect(
        (tx as unknown as typeof handle).begin(async (inner) => {
          await inner`insert into request_tx_probe values ('undone')`;
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
      // The outer handle, used while its savepoint runs, would interleave two savepoints on one connection.
      await expect(handle.begin((other) => other`select 1`)).rejects.toThrow(/still running/);
      await afterCommit(tx, async () => void ran.push('after savepoint write'));
    });
    await afterCommit(handle, async (after) => {
      const [row] = await after<{ n: number }[]>`select count(*)::int as n from request_tx_probe`;
      ran.push(`after commit sees ${row!.n}`);
    });
    await afterCommit(db.sql, async () => void ran.push('pool: now'));
    expect(ran).toEqual(['pool: now']);
    expect(await request.commit(db.sql, async (tx) => (await tx`select 1 as one`).length === 1)).toBe(true);
    expect(ran).toEqual(['pool: now', 'after savepoint write', 'after commit sees 1']);
    expect(await ids()).toEqual(['kept']);
  });
});
