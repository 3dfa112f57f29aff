// The one Postgres client (porsager/postgres). Repos take a `Db`, which is
// either this client or a transaction handed down from `sql.begin`. Services are
// built on a handle (`ServiceOn`): a route builds its service on `request.db`,
// the request's open transaction or the pool (src/plugins/idempotency.ts).
import postgres from 'postgres';
import { installReservedTransactions } from './transactions.js';

export type Sql = postgres.Sql;
export type Db = postgres.Sql | postgres.TransactionSql;
/** A service built on one handle: routes call it with `request.db`, so their queries run where the request's do. */
export type ServiceOn<S> = (db: Sql) => S;
/**
 * The pool itself: neither a transaction (`savepoint`) nor a reserved connection (`release`) satisfies
 * it. What a send to the chain takes (src/chain/sender.ts), so that no send can run inside a caller's
 * transaction; a plain `Sql` does.
 */
export type PoolSql = Sql & { savepoint?: never; release?: never };

/**
 * Bounds on waiting for Postgres, so a request never hangs on a database that is down or stuck
 * (docs/operations.md, "When a dependency is down"). 0 turns a server-side timeout off.
 */
export type DatabaseTimeouts = {
  /** Opening a connection (TCP, TLS, auth): DATABASE_CONNECT_TIMEOUT_SECONDS. The library's own default is 30 s. */
  connectTimeoutSeconds: number;
  /** Any one statement, enforced by the server: DATABASE_STATEMENT_TIMEOUT_MS. */
  statementTimeoutMs: number;
  /** A transaction left open doing nothing, ended by the server: DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS. */
  idleInTransactionTimeoutMs: number;
  /**
   * Longest wait before reconnecting after failed connects: DATABASE_RECONNECT_MAX_DELAY_MS. The
   * library's own backoff grows to 20 s after a dozen failures, so after an outage the first
   * requests waited that long for a database that was back.
   */
  reconnectMaxDelayMs: number;
};

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  connectTimeoutSeconds: 5,
  statementTimeoutMs: 30_000,
  idleInTransactionTimeoutMs: 60_000,
  reconnectMaxDelayMs: 1_000,
};

export type SqlOptions = {
  max?: number;
  timeouts?: Partial<DatabaseTimeouts>;
  /** Shown in pg_stat_activity (default `stablepay`). */
  applicationName?: string;
};

/**
 * The library (3.4.9) reads the server's array types on every new connection, and a connection it
 * opens for `sql.reserve()` (every transaction reserves first) is handed over only at the end of that
 * read: skip the read and the reserve waits for ever (porsager/postgres#751, #1219; fix unreleased).
 * So the read stays on. But the library drops the promise of the read (porsager/postgres#1192): a
 * connection lost during it (Postgres restarting) rejects a promise nobody handles, which would end
 * the process. That failure costs the client nothing (the connection is closed and reopened, and
 * reads the types again), so it alone is ignored; any other unhandled rejection keeps Node's default.
 */
const TYPE_READ = /from pg_catalog\.pg_type a\s+left join pg_catalog\.pg_type b on b\.oid = a\.typelem/;

/** True for the failure of the library's own array-type read on a new connection. */
export function isDroppedTypeReadFailure(reason: unknown): boolean {
  const query = (reason as { query?: unknown } | null)?.query;
  return typeof query === 'string' && TYPE_READ.test(query);
}

let typeReadFailuresIgnored = false;
function ignoreDroppedTypeReadFailures(): void {
  if (typeReadFailuresIgnored) return;
  typeReadFailuresIgnored = true;
  process.on('unhandledRejection', (reason) => {
    if (isDroppedTypeReadFailure(reason)) return;
    // With no other listener Node would raise it as an uncaught exception: keep that.
    if (process.listenerCount('unhandledRejection') === 1) throw reason;
  });
}

export function createSql(databaseUrl: string, options: SqlOptions = {}): Sql {
  const timeouts = { ...DEFAULT_DATABASE_TIMEOUTS, ...options.timeouts };
  ignoreDroppedTypeReadFailures();
  // sql.begin runs on a connection reserved before BEGIN (src/db/transactions.ts).
  return installReservedTransactions(
    postgres(databaseUrl, {
      max: options.max ?? 10,
      onnotice: () => {},
      // bigint columns come back as strings: money never passes through a float.
      types: { bigint: postgres.BigInt },
      transform: { undefined: null },
      connect_timeout: timeouts.connectTimeoutSeconds,
      // Seconds, jittered: 50 ms doubling per failed connect, capped.
      backoff: (retries: number) => (Math.min(50 * 2 ** retries, timeouts.reconnectMaxDelayMs) / 1000) * (0.5 + Math.random() / 2),
      connection: {
        application_name: options.applicationName ?? 'stablepay',
        // Session settings sent at connect time: every statement of every connection is bounded.
        statement_timeout: timeouts.statementTimeoutMs,
        idle_in_transaction_session_timeout: timeouts.idleInTransactionTimeoutMs,
      },
    }),
  );
}

/** True for a unique-constraint violation (SQLSTATE 23505), optionally on one constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (!(error instanceof postgres.PostgresError)) return false;
  if (error.code !== '23505') return false;
  return constraint === undefined || error.constraint_name === constraint;
}
