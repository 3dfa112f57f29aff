// Leadership of one chain (one mode) among any number of indexers: a lease row
// in Postgres (src/indexer/lease-repo.ts) with an expiry on the database's
// clock and an epoch that grows with every acquisition.
//
// - A standby tries to acquire every `renewIntervalMs`; it succeeds once the
//   holder's lease expired (or was released by a clean stop).
// - The leader renews every `renewIntervalMs` on its own connection, and
//   believes it leads only until `ttlMs` after it SENT its last successful
//   renewal (a monotonic local clock): the database set the expiry later than
//   that, so the leader stops believing before the database stops agreeing.
// - A term ends the moment the lease is lost: a refused renewal, no renewal
//   before the local deadline (a partition, a paused process, a database
//   down), or a refused fence. The term's signal aborts; the indexer stops
//   stepping and goes back to standby.
// - Every write is fenced: the transaction first checks holder, epoch and
//   expiry and locks the row (src/indexer/lease-repo.ts, holdsLease), so a
//   leader that lost the lease, whatever it still believes, writes nothing.
import { setTimeout as sleep } from 'node:timers/promises';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Db, Sql } from '../db/client.js';
import type { ChainRef } from './repo.js';
import * as leases from './lease-repo.js';

export type LeaseSettings = {
  /** How long an acquisition or renewal holds the lease (INDEXER_LEASE_TTL_MS). */
  ttlMs: number;
  /** How often the leader renews and a standby tries to acquire (INDEXER_LEASE_RENEW_MS). */
  renewIntervalMs: number;
  /** Names this indexer in the lease row and the logs; unique per process. */
  holder: string;
};

export const DEFAULT_LEASE_TTL_MS = 15_000;
export const DEFAULT_LEASE_RENEW_MS = 5_000;

export function defaultLeaseHolder(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

export class LeaseLostError extends Error {
  constructor(message = 'this indexer no longer holds the lease') {
    super(message);
    this.name = 'LeaseLostError';
  }
}

/** Throws LeaseLostError unless the term still holds the lease; in a transaction, holds it until commit. */
export type Fence = (db: Db) => Promise<void>;

/** One uninterrupted period of leadership. */
export type LeaderTerm = {
  epoch: bigint;
  /** Aborts the moment the lease is lost, or when the indexer stops. */
  signal: AbortSignal;
  fence: Fence;
};

type LeaseLog = { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };

export type LeaderLeaseOptions = {
  /** The lease's own connection (a client with max 1), so renewals never queue behind the indexer's work. */
  sql: Sql;
  ref: ChainRef;
  settings: LeaseSettings;
  log: LeaseLog;
};

/** Resolves with the promise's value, or with undefined as soon as `signal` aborts (leaving the promise behind). */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export function createLeaderLease(options: LeaderLeaseOptions) {
  const { sql, ref, settings, log } = options;
  const { ttlMs, renewIntervalMs, holder } = settings;
  const context = { chainId: ref.chainId, livemode: ref.livemode, holder };

  /** Runs one term: renews in the background while `body` runs; ends when the lease is lost or `stop` aborts. */
  async function serve(epoch: bigint, acquireSentAt: number, stop: AbortSignal, body: (term: LeaderTerm) => Promise<void>): Promise<void> {
    const term = { holder, epoch };
    const ended = new AbortController();
    const endOnStop = () => ended.abort();
    stop.addEventListener('abort', endOnStop, { once: true });
    let lost = false;
    let deadline = acquireSentAt + ttlMs;
    const lose = (reason: string) => {
      if (lost) return;
      lost = true;
      log.warn({ ...context, epoch: epoch.toString(), reason }, 'indexer lost the lease; stopped leading');
      ended.abort();
    };
    let expiry = setTimeout(() => lose('no renewal before the lease expired'), deadline - performance.now());

    const renewing = (async () => {
      while (!ended.signal.aborted) {
        await sleep(renewIntervalMs, undefined, { signal: ended.signal }).catch(() => undefined);
        if (ended.signal.aborted) return;
        const sentAt = performance.now();
        try {
          // A renewal stuck in a partition is left behind when the term ends; the expiry timer ends it.
          const renewed = await unlessAborted(leases.renewLease(sql, ref, term, ttlMs), ended.signal);
          if (renewed === undefined) return;
          if (!renewed) return lose('the lease expired or another indexer took it');
          deadline = sentAt + ttlMs;
          clearTimeout(expiry);
          expiry = setTimeout(() => lose('no renewal before the lease expired'), deadline - performance.now());
        } catch (error) {
          log.warn({ ...context, err: error }, 'lease renewal failed; retrying until the lease expires');
        }
      }
    })();

    // A stop (not a loss) lets the write in flight finish: the lease is held until released.
    const fence: Fence = async (db) => {
      if (!lost && performance.now() >= deadline) lose('no renewal before the lease expired');
      if (lost) throw new LeaseLostError();
      if (!(await leases.holdsLease(db, ref, term))) {
        lose('the fence refused a write');
        throw new LeaseLostError();
      }
    };

    log.info({ ...context, epoch: epoch.toString() }, 'indexer is the leader');
    try {
      await body({ epoch, signal: ended.signal, fence });
    } finally {
      ended.abort();
      clearTimeout(expiry);
      stop.removeEventListener('abort', endOnStop);
      await renewing;
      if (!lost) {
        // A clean stop hands over at once instead of after the expiry.
        const released = await unlessAborted(
          leases.releaseLease(sql, ref, term).then(() => true),
          AbortSignal.timeout(ttlMs),
        ).catch((error: unknown) => (log.warn({ ...context, err: error }, 'releasing the lease failed; it expires by itself'), false));
        if (released) log.info({ ...context, epoch: epoch.toString() }, 'indexer released the lease');
        else if (released === undefined) log.warn(context, 'releasing the lease timed out; it expires by itself');
      }
    }
  }

  /**
   * Until `stop` aborts: waits for the lease, then runs `body` with the term; when the term
   * ends (lease lost), waits for the lease again. `body` must return once the term's signal aborts.
   */
  async function lead(stop: AbortSignal, body: (term: LeaderTerm) => Promise<void>): Promise<void> {
    let waitingLogged = false;
    while (!stop.aborted) {
      const sentAt = performance.now();
      let epoch: bigint | undefined;
      let failed = false;
      try {
        epoch = await unlessAborted(leases.acquireLease(sql, ref, holder, ttlMs), stop);
      } catch (error) {
        failed = true;
        log.warn({ ...context, err: error }, 'acquiring the lease failed; retrying');
      }
      if (epoch !== undefined && !stop.aborted) {
        waitingLogged = false;
        await serve(epoch, sentAt, stop, body);
        continue;
      }
      if (!failed && !waitingLogged && !stop.aborted) {
        log.info(context, 'indexer is a standby: another indexer holds the lease');
        waitingLogged = true;
      }
      await sleep(renewIntervalMs, undefined, { signal: stop }).catch(() => undefined);
    }
  }

  return { lead };
}

export type LeaderLease = ReturnType<typeof createLeaderLease>;
