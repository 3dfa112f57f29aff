// One transaction per idempotent request: its effect and its stored response commit together.
//
// While a request holds an Idempotency-Key (src/plugins/idempotency.ts), the request runs inside a
// `RequestTransaction` scope. The first `sql.begin` of the request opens a transaction on a reserved
// connection and leaves it open when its body returns; later `sql.begin` calls of the request run in
// it as savepoints. The plugin then writes the response into the key row on that connection and
// commits, or rolls everything back. A crash before that COMMIT leaves neither the effect nor a
// completed key, so the retry runs the request for the first time; after it, the retry replays.
// Work that must follow the commit (waking the event dispatcher, workflow starts, mail) is deferred
// with `afterCommit` until the request's COMMIT, and the request's queries through the bare client run
// in its open transaction (`routeIntoRequestTransactions`).
import { AsyncLocalStorage } from 'node:async_hooks';
import type postgres from 'postgres';

/** Errors after which the connection is gone: the pool has already moved it to its closed list. */
const CONNECTION_LOST = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT']);
export const lostConnection = (error: unknown) => CONNECTION_LOST.has((error as { code?: string } | null)?.code ?? '');

type Body<T> = (tx: postgres.TransactionSql) => T | Promise<T>;
type Open = { connection: postgres.ReservedSql; savepoints: number; afterCommit: (() => Promise<void>)[] };

export type AfterCommitErrorHandler = (error: unknown) => void;

export class RequestTransaction {
  private open: Open | undefined;
  /** Set once the request's transaction ended; later `sql.begin` calls run on their own again. */
  private ended = false;
  /** True while a body runs: a concurrent `sql.begin` of the same request gets its own transaction. */
  private busy = false;

  constructor(private readonly onAfterCommitError: AfterCommitErrorHandler = () => {}) {}

  /** True when `sql.begin` should join this scope instead of committing on its own. */
  get joinable(): boolean {
    return !this.ended && !this.busy;
  }

  /** The open transaction's connection, where the request's queries through the bare client go. */
  get openConnection(): postgres.ReservedSql | undefined {
    return this.ended ? undefined : this.open?.connection;
  }

  /** Runs `body` in the request's transaction (opening it, or in a savepoint of it); never commits. */
  async run<T>(sql: postgres.Sql, options: string, body: Body<T>): Promise<unknown> {
    this.busy = true;
    try {
      if (!this.open) return await this.runFirst(sql, options, body);
      return await this.runInSavepoint(this.open, body);
    } finally {
      this.busy = false;
    }
  }

  private async runFirst<T>(sql: postgres.Sql, options: string, body: Body<T>): Promise<unknown> {
    const connection = await sql.reserve();
    try {
      await connection.unsafe(`begin ${options.replace(/[^a-z ]/gi, '')}`);
      // Open before the body runs: its queries through the bare client belong here too.
      this.open = { connection, savepoints: 0, afterCommit: [] };
      return await callBody(connection, body);
    } catch (error) {
      this.open = undefined;
      await endConnection(connection, 'rollback', error);
      throw error;
    }
  }

  private async runInSavepoint<T>(open: Open, body: Body<T>): Promise<unknown> {
    const name = `request_${++open.savepoints}`;
    await open.connection.unsafe(`savepoint ${name}`);
    try {
      const result = await callBody(open.connection, body);
      await open.connection.unsafe(`release savepoint ${name}`);
      return result;
    } catch (error) {
      // A failed body undoes only its own writes, as its own transaction would have.
      if (!lostConnection(error)) await open.connection.unsafe(`rollback to savepoint ${name}`).catch(() => undefined);
      throw error;
    }
  }

  /** Queues work for after the COMMIT, or runs it now when no transaction is open. */
  async afterCommit(work: () => Promise<void>): Promise<void> {
    if (this.open && !this.ended) this.open.afterCommit.push(work);
    else await work();
  }

  /**
   * Ends the request: `complete` runs on the open transaction (or on `sql` when the request opened
   * none) and decides whether it commits. Returns what `complete` returned; false rolls back.
   * After a commit the deferred work runs; its errors are reported, never thrown (the effect is committed).
   */
  async commit(sql: postgres.Sql, complete: (db: postgres.Sql | postgres.ReservedSql) => Promise<boolean>): Promise<boolean> {
    if (this.ended) throw new Error('The request transaction already ended');
    this.ended = true;
    const open = this.open;
    if (!open) return complete(sql);
    this.open = undefined;
    let completed: boolean;
    try {
      completed = await complete(open.connection);
    } catch (error) {
      await endConnection(open.connection, 'rollback', error);
      throw error;
    }
    if (!completed) {
      await endConnection(open.connection, 'rollback');
      return false;
    }
    await endConnection(open.connection, 'commit');
    for (const work of open.afterCommit) await work().catch(this.onAfterCommitError);
    return true;
  }

  /** Rolls the request's transaction back (a server error, an aborted request); idempotent. */
  async rollback(): Promise<void> {
    this.ended = true;
    const open = this.open;
    this.open = undefined;
    if (open) await endConnection(open.connection, 'rollback');
  }
}

async function callBody<T>(connection: postgres.ReservedSql, body: Body<T>): Promise<unknown> {
  const returned = body(connection as unknown as postgres.TransactionSql);
  return Array.isArray(returned) ? Promise.all(returned) : returned;
}

/** Commits or rolls back and hands the connection back to the pool (unless it was lost). */
async function endConnection(connection: postgres.ReservedSql, how: 'commit' | 'rollback', cause?: unknown): Promise<void> {
  let lost = lostConnection(cause);
  try {
    if (lost) return;
    const ended = await connection.unsafe(how);
    // COMMIT of a transaction that a failed statement aborted answers ROLLBACK, without an error.
    if (how === 'commit' && ended.command !== 'COMMIT')
      throw new Error('The transaction was rolled back at commit: one of its statements had failed.');
  } catch (error) {
    lost = lostConnection(error);
    if (how === 'commit') throw error;
  } finally {
    if (!lost) connection.release();
  }
}

const scopes = new AsyncLocalStorage<RequestTransaction>();

/**
 * Sends the queries a request makes through the bare client (`sql\`...\``, `sql.unsafe`) into its open
 * transaction: on another connection they would not see the request's own writes, and a write to a row
 * the transaction locked would wait for it forever. Outside such a request the client is unchanged.
 */
export function routeIntoRequestTransactions(sql: postgres.Sql): postgres.Sql {
  const open = () => scopes.getStore()?.openConnection;
  return new Proxy(sql, {
    apply(target, thisArg, args: unknown[]) {
      const isQuery = Array.isArray(args[0]) && 'raw' in (args[0] as object);
      const connection = isQuery ? open() : undefined;
      return Reflect.apply(connection ?? target, thisArg, args);
    },
    get(target, property, receiver) {
      const connection = property === 'unsafe' ? open() : undefined;
      return connection ? connection.unsafe.bind(connection) : Reflect.get(target, property, receiver);
    },
  });
}

/** Runs `fn` (and everything it starts) inside the request transaction `scope`. */
export function runInRequestTransaction<T>(scope: RequestTransaction, fn: () => T): T {
  return scopes.run(scope, fn);
}

/** The request transaction that `sql.begin` should join here, if any. */
export function joinableRequestTransaction(): RequestTransaction | undefined {
  const scope = scopes.getStore();
  return scope?.joinable ? scope : undefined;
}

/**
 * Runs `fn` on its own, outside the request's transaction: its transactions commit when they end. Only
 * for a request whose answer needs others (workers) to see its effect first; it gives up the guarantee
 * that effect and stored response commit together.
 */
export function outsideRequestTransaction<T>(fn: () => T): T {
  return scopes.exit(fn);
}

/**
 * True inside a request whose transaction is open (it has begun and not yet ended): its writes are not
 * committed yet. A send to the chain refuses to run here (src/chain/sender.ts).
 */
export function insideOpenRequestTransaction(): boolean {
  return scopes.getStore()?.openConnection !== undefined;
}

/**
 * Runs `work` once the current transaction has committed: now, or at the COMMIT of the request's
 * transaction when one is open in this scope (a workflow started earlier would look before the commit).
 */
export async function afterCommit(work: () => Promise<void>): Promise<void> {
  const scope = scopes.getStore();
  if (scope) await scope.afterCommit(work);
  else await work();
}
