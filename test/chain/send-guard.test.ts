// A send to the chain never runs inside a request transaction (src/chain/sender.ts): by type, the
// sender takes the pool, which a transaction or a reserved connection does not satisfy (checked by
// tsc through the `@ts-expect-error` lines); at run time, a send, look or settle inside a request
// whose Idempotency-Key transaction holds uncommitted writes is refused before it records or sends.
import type postgres from 'postgres';
import { createPublicClient, http, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorSender } from '../../src/chain/operator-sender.js';
import { createTransactionSender, SendInsideTransactionError, type TransactionRow } from '../../src/chain/sender.js';
import { insideOpenRequestTransaction, RequestTransaction, runInRequestTransaction } from '../../src/db/request-transaction.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.drop());

// Never contacted: every call below is refused before it reaches the node.
const client = createPublicClient({ transport: http('http://127.0.0.1:9') });
const account = privateKeyToAccount(generatePrivateKey());
const chainId = 31337;
const call = { purpose: 'send-guard:probe', to: account.address, data: '0x' as Hex, gas: 21_000n };

/** Type-level only (tsc checks it; never run): the senders refuse a transaction or a reserved connection. */
export function sendersTakeThePoolOnly(tx: postgres.TransactionSql, reserved: postgres.ReservedSql) {
  // @ts-expect-error a transaction is not the pool
  createTransactionSender({ sql: tx, client, account, chainId });
  // @ts-expect-error a reserved connection is not the pool
  createTransactionSender({ sql: reserved, client, account, chainId });
  // @ts-expect-error a transaction is not the pool
  createOperatorSender({ sql: tx, client, account, chainId, receipts: undefined!, stuckAfterMs: 1 });
}

describe('chain sends and request transactions', () => {
  it('refuses a send, look or settle while the request transaction holds uncommitted writes, and records nothing', async () => {
    const sender = createTransactionSender({ sql: db.sql, client, account, chainId });
    const request = new RequestTransaction();
    const attempts = await runInRequestTransaction(request, async () => {
      expect(insideOpenRequestTransaction()).toBe(false);
      // The plugin opens the request's transaction before the handler; it stays open until the plugin commits.
      const handle = await request.open(db.sql);
      await handle.begin((tx) => tx`create table send_guard_probe (id int)`);
      expect(insideOpenRequestTransaction()).toBe(true);
      const row = { id: 'ctx_probe' } as TransactionRow;
      return Promise.allSettled([
        sender.send(call),
        sender.look(row, { stuckAfterMs: 1 }),
        sender.settle(row, { receipts: undefined!, stuckAfterMs: 1 }),
      ]);
    });
    for (const attempt of attempts) {
      expect(attempt.status).toBe('rejected');
      expect((attempt as PromiseRejectedResult).reason).toBeInstanceOf(SendInsideTransactionError);
    }
    await request.rollback();
    expect(runInRequestTransaction(request, insideOpenRequestTransaction)).toBe(false);
    // Nothing reached the ledger: no sending account, no transaction row.
    const [ledger] = await db.sql<{ accounts: number; transactions: number }[]>`
      select (select count(*)::int from relayer_accounts) as accounts, (select count(*)::int from chain_transactions) as transactions`;
    expect(ledger).toEqual({ accounts: 0, transactions: 0 });
  });
});
