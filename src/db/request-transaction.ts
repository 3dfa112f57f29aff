// One transaction per idempotent request: its effect and its stored response commit together.
//
// For a POST with an Idempotency-Key, the idempotency plugin (src/plugins/idempotency.ts) opens the
// request's transaction on a reserved connection before the handler runs and puts the handle on the
// request (`request.db`). Routes build their services on `request.db`, so every query of the request
// runs in that transaction because the route handed it down, not because a wrapper rerouted it.
// `handle.begin` runs a savepoint of it (a service's own transaction nests in the request's). The
// plugin then writes the response into the key row on the same handle and commits, or rolls
// everything back. A crash before that COMMIT leaves neither the effect nor a completed key, so the
// retry runs the request for the first time; after it, the retry replays.
// Work that must follow the commit (waking the event dispatcher, workflow starts, mail) is given to
// `afterCommit(db, work)` with the handle it wrote through: queued until the request's COMMIT when that
// handle is a request's open transaction, run at once otherwise.
import { AsyncLocalStorage } from 'node:async_hooks';
import type postgres from 'postgres';

/** Errors after which the connection is gone: the pool has already moved it to its closed list. */
const CONNECTION_LOST = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT']);
export const lostConnection = (error: unknown) => CONNECTION_LOST.has((error as { code?: string } | null)?.code ?? '');

type Body<T> = (tx: postgres.TransactionSql) => T | Promise<T>;
/** Work after a commit; `db` is where it may query: the pool once a request's connection went back. */
export type AfterCommitWork = (db: postgres.Sql | postgres.TransactionSql) => Promise<void>;
type Begin = (optionsOrBody: string | Body<unknown>, maybeBody?: Body<unknown>) => Promise<unknown>;

export type AfterCommitErrorHandler = (error: unknown) => void;

/** Request handles (and their savepoint handles) to the request transaction they belong to. */
const transactionsOf = new WeakMap<object, RequestTransaction>();

export class RequestTransaction {
  private connection: postgres.ReservedSql | undefined;
  private handle: postgres.Sql | undefined;
  private savepoints = 0;
  private pool: postgres.Sql | undefined;
  private readonly deferred: AfterCommitWork[] = [];
  private ended = false;

  constructor(private readonly onAfterCommitError: AfterCommitErrorHandler = () => {}) {}

  /** True while the transaction has begun and not ended: it may hold writes not yet committed. */
  get isOpen(): boolean {
    return this.handle !== undefined && !this.ended;
  }

  /**
   * Reserves a connection, sends BEGIN and returns the request's handle: queries on it run in the
   * transaction, and its `begin` runs a savepoint (same signatures and results as the pool's).
   */
  async open(pool: postgres.Sql): Promise<postgres.Sql> {
    if (this.handle || this.ended) throw new Error('The request transaction was already opened');
    const connection = await pool.reserve();
    try {
      await connection.unsafe('begin');
    } catch (error) {
      if (!lostConnection(error)) connection.release();
      throw error;
    }
    this.pool = pool;
    this.connection = connection;
    this.handle = this.savepointHandle(connection);
    return this.handle;
  }

  /**
   * A handle on `connection` whose `begin` runs `body` in a savepoint, on a child handle of its own:
   * a failed body undoes only its own writes, as its own transaction would have. One connection
   * cannot interleave two savepoints: a second `begin` on a handle whose savepoint is still running
   * (concurrent, or the outer handle used inside the body) is refused; nest through the body's handle.
   */
  private savepointHandle(connection: postgres.ReservedSql): postgres.Sql {
    const handle = ((...args: Parameters<postgres.Sql>) => connection(...args)) as unknown as postgres.Sql;
    Object.assign(handle, connection);
    let running = false;
    const begin: Begin = async (optionsOrBody, maybeBody) => {
      const body = typeof optionsOrBody === 'string' ? maybeBody! : optionsOrBody;
      if (running) throw new Error("A savepoint of this request transaction handle is still running: nest through its body's handle");
      running = true;
      try {
        return await this.inSavepoint(connection, body);
      } finally {
        running = false;
      }
    };
    Object.defineProperty(handle, 'begin', { value: begin, configurable: true, writable: true });
    Object.defineProperty(handle, 'savepoint', { value: begin, configurable: true, writable: true });
    transactionsOf.set(handle, this);
    return handle;
  }

  private async inSavepoint(connection: postgres.ReservedSql, body: Body<unknown>): Promise<unknown> {
    if (this.ended) throw new Error('The request transaction already ended');
    const name = `request_${++this.savepoints}`;
    await connection.unsafe(`savepoint ${name}`);
    try {
      const returned = body(this.savepointHandle(connection) as unknown as postgres.TransactionSql);
      const result = await (Array.isArray(returned) ? Promise.all(returned) : returned);
      await connection.unsafe(`release savepoint ${name}`);
      return result;
    } catch (error) {
      if (!lostConnection(error)) await connection.unsafe(`rollback to savepoint ${name}`).catch(() => undefined);
      throw error;
    }
  }

  /** Queues work for after the COMMIT, or runs it now (on the pool) when the transaction is not open. */
  async afterCommit(work: AfterCommitWork): Promise<void> {
    if (this.isOpen) this.deferred.push(work);
    else await work(this.pool!);
  }

  /**
   * Ends the request: `complete` runs on the open transaction (or on `pool` when none was opened) and
   * decides whether it commits. Returns what `complete` returned; false rolls back. After a commit the
   * deferred work runs; its errors are reported, never thrown (the effect is committed).
   */
  async commit(pool: postgres.Sql, complete: (db: postgres.Sql) => Promise<boolean>): Promise<boolean> {
    if (this.ended) throw new Error('The request transaction already ended');
    const { connection, handle } = this;
    if (!connection || !handle) {
      this.ended = true;
      return complete(pool);
    }
    let completed: boolean;
    try {
      completed = await complete(handle);
    } catch (error) {
      this.ended = true;
      await endConnection(connection, 'rollback', error);
      throw error;
    }
    this.ended = true;
    if (!completed) {
      await endConnection(connection, 'rollback');
      return false;
    }
    await endConnection(connection, 'commit');
    for (const work of this.deferred) await work(this.pool!).catch(this.onAfterCommitError);
    return true;
  }

  /** Rolls the request's transaction back (a server error, an aborted request); idempotent. */
  async rollback(): Promise<void> {
    const wasOpen = this.isOpen;
    this.ended = true;
    if (wasOpen && this.connection) await endConnection(this.connection, 'rollback');
  }
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

/** True when `db` is the handle of a request's transaction (or of a savepoint in it) that is still open. */
export function isOpenRequestTransaction(db: object): boolean {
  return transactionsOf.get(db)?.isOpen ?? false;
}

/**
 * Runs `work` once what was written through `db` has committed: at the COMMIT of the request's
 * transaction when `db` is its handle (a workflow started earlier would look before the commit), now
 * otherwise (the pool: the caller's own `begin` has returned). `work` gets where it may query: the
 * pool for a request's handle (its connection is back in the pool by then), else `db`.
 */
export async function afterCommit(db: postgres.Sql | postgres.TransactionSql, work: AfterCommitWork): Promise<void> {
  const transaction = transactionsOf.get(db);
  if (transaction) await transaction.afterCommit(work);
  else await work(db);
}

// Only the send guard reads this: a sender holds the pool, not the request's handle, so the handle
// cannot tell it that the request has writes not yet committed. It reroutes nothing.
const scopes = new AsyncLocalStorage<RequestTransaction>();

/** Runs `fn` (and everything it starts) as the request that owns `transaction` (for the send guard). */
export function runInRequestTransaction<T>(transaction: RequestTransaction, fn: () => T): T {
  return scopes.run(transaction, fn);
}

/**
 * True inside a request whose transaction is open (it has begun and not yet ended): its writes are not
 * committed yet. A send to the chain refuses to run here (src/chain/sender.ts).
 */
export function insideOpenRequestTransaction(): boolean {
  return scopes.getStore()?.isOpen ?? false;
}
