// The one Postgres client (porsager/postgres). Repos take a `Db`, which is
// either this client or a transaction handed down from `sql.begin`.
import postgres from 'postgres';
import { routeIntoRequestTransactions } from './request-transaction.js';
import { installReservedTransactions } from './transactions.js';

export type Sql = postgres.Sql;
export type Db = postgres.Sql | postgres.TransactionSql;

export function createSql(databaseUrl: string, options: { max?: number } = {}): Sql {
  // sql.begin runs on a connection reserved before BEGIN (src/db/transactions.ts).
  // Inside an idempotent request, its queries join the request's transaction (src/db/request-transaction.ts).
  return routeIntoRequestTransactions(installReservedTransactions(postgres(databaseUrl, {
    max: options.max ?? 10,
    onnotice: () => {},
    // bigint columns come back as strings: money never passes through a float.
    types: { bigint: postgres.BigInt },
    transform: { undefined: null },
    connection: { application_name: 'stablepay' },
  })));
}

/** True for a unique-constraint violation (SQLSTATE 23505), optionally on one constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (!(error instanceof postgres.PostgresError)) return false;
  if (error.code !== '23505') return false;
  return constraint === undefined || error.constraint_name === constraint;
}
