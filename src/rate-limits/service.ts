// Fixed-window rate limiting shared by every api instance through Postgres,
// without a database write on the request path. Each instance counts locally
// per bucket (an IP, a key, a dashboard user) and window; every flush interval
// (~250 ms) it adds its local increments to the shared counter rows in one
// statement and reads the global totals back (for every bucket it has seen in
// the current window, so idle buckets learn the other instances' counts). A request is refused when the
// last known global total plus the local, not yet flushed count reaches the
// limit. The price is a bounded overshoot: across N instances at most the
// requests that arrive within one flush interval on the other instances.
import type { Sql } from '../db/client.js';
import * as repo from './repo.js';

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export type RateLimiter = {
  /** Counts one request against `bucket` (unless refused) and says whether it may proceed. */
  hit(bucket: string, limitPerWindow: number): RateLimitDecision;
  /** Pushes local counts to Postgres and reads the global totals back. */
  flush(): Promise<void>;
  close(): Promise<void>;
};

type Bucket = { window: number; pending: number; global: number };

export type RateLimiterOptions = {
  flushIntervalMs: number;
  windowMs?: number;
  /** The clock; tests pin it so a window boundary never falls inside a test. */
  now?: () => number;
  onError?: (error: unknown) => void;
};

export function createRateLimiter(sql: Sql, options: RateLimiterOptions): RateLimiter {
  const windowMs = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const buckets = new Map<string, Bucket>();
  let lastCleanedWindow = -1;
  let flushing: Promise<void> | undefined;

  async function flushOnce(): Promise<void> {
    const current = Math.floor(now() / windowMs);
    const increments: repo.CounterIncrement[] = [];
    for (const [name, bucket] of buckets) {
      if (bucket.window < current) {
        buckets.delete(name);
        continue;
      }
      // Buckets without new requests are sent with 0: the statement still reads
      // their global total back, so this instance sees the other instances' counts.
      increments.push({ bucket: name, window: bucket.window, count: bucket.pending });
      bucket.pending = 0;
    }
    try {
      const totals = await repo.addToCounters(sql, increments);
      for (const total of totals) {
        const bucket = buckets.get(total.bucket);
        if (bucket && bucket.window === total.window) bucket.global = Math.max(bucket.global, total.count);
      }
      if (current !== lastCleanedWindow) {
        lastCleanedWindow = current;
        await repo.deleteWindowsBefore(sql, current - 1);
      }
    } catch (error) {
      // Keep the counts for the next flush; limiting goes on with local knowledge.
      for (const inc of increments) {
        const bucket = buckets.get(inc.bucket);
        if (bucket && bucket.window === inc.window) bucket.pending += inc.count;
      }
      options.onError?.(error);
    }
  }

  const timer = setInterval(() => {
    void limiter.flush();
  }, options.flushIntervalMs);
  timer.unref();

  const limiter: RateLimiter = {
    hit(name, limit) {
      const at = now();
      const window = Math.floor(at / windowMs);
      let bucket = buckets.get(name);
      if (!bucket || bucket.window !== window) {
        bucket = { window, pending: 0, global: 0 };
        buckets.set(name, bucket);
      }
      if (bucket.global + bucket.pending >= limit) {
        return { allowed: false, retryAfterSeconds: ((window + 1) * windowMs - at) / 1000 };
      }
      bucket.pending += 1;
      return { allowed: true };
    },
    flush() {
      // One flush at a time; a caller during a flush waits for it, then flushes again.
      const run = (flushing ?? Promise.resolve()).then(flushOnce);
      flushing = run.finally(() => {
        if (flushing === run) flushing = undefined;
      });
      return run;
    },
    async close() {
      clearInterval(timer);
      await limiter.flush();
    },
  };
  return limiter;
}
