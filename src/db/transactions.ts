// Transactions on a connection reserved before BEGIN is sent.
//
// porsager/postgres 3.4.9's own `sql.begin` sends BEGIN through the shared pool
// and reserves the connection only after the write, and skips the reservation
// when that write fills the connection's pipeline or meets socket
// back-pressure (porsager/postgres#823, #1189; fixes unreleased). Under load the
// transaction then fails with UNSAFE_TRANSACTION, and the server-side
// transaction it opened stays open on a connection the pool hands to unrelated
// queries. The subscription bench met it at N = 10,000 on a slow machine.
// `sql.reserve()` takes an idle connection for itself first, so BEGIN can never
// share one. `createSql` installs this `begin` in place of the library's, so
// every `sql.begin(...)` call site gets it.
// An idempotent request's own transaction is a handle of its own (src/db/request-transaction.ts),
// whose `begin` runs a savepoint: this pool-level `begin` never joins anything.
import type postgres from 'postgres';
import { lostConnection } from './request-transaction.js';

type Body<T> = (tx: postgres.TransactionSql) => T | Promise<T>;

async function runInReservedTransaction<T>(sql: postgres.Sql, options: string, body: Body<T>): Promise<unknown> {
  const reserved = await sql.reserve();
  let lost = false;
  try {
    // As the library does: only letters and spaces (isolation level, read only, ...).
    await reserved.unsafe(`begin ${options.replace(/[^a-z ]/gi, '')}`);
    let result: unknown;
    try {
      const returned = body(reserved as unknown as postgres.TransactionSql);
      result = await (Array.isArray(returned) ? Promise.all(returned) : returned);
    } catch (error) {
      lost = lostConnection(error);
      if (!lost) await reserved.unsafe('rollback').catch((rollbackError: unknown) => void (lost = lostConnection(rollbackError)));
      throw error;
    }
    // COMMIT of a transaction that a failed statement aborted answers ROLLBACK, without an error.
    const committed = await reserved.unsafe('commit');
    if (committed.command !== 'COMMIT') throw new Error('The transaction was rolled back at commit: one of its statements had failed.');
    return result;
  } catch (error) {
    lost ||= lostConnection(error);
    throw error;
  } finally {
    // A lost connection is already back in the pool's closed list; releasing it would reopen a dead one.
    if (!lost) reserved.release();
  }
}

/** Replaces `sql.begin` with the reserved-connection transaction above (same signatures and results). */
export function installReservedTransactions(sql: postgres.Sql): postgres.Sql {
  const begin = (optionsOrBody: string | Body<unknown>, maybeBody?: Body<unknown>) =>
    typeof optionsOrBody === 'string'
      ? runInReservedTransaction(sql, optionsOrBody, maybeBody!)
      : runInReservedTransaction(sql, '', optionsOrBody);
  Object.defineProperty(sql, 'begin', { value: begin, configurable: true, writable: true });
  return sql;
}
