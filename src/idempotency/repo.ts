// SQL for idempotency records, one per merchant, mode and key.
import type { Db } from '../db/client.js';

export type IdempotencyRow = {
  requestHash: string;
  state: 'in_progress' | 'completed';
  responseStatus: number | null;
  responseBody: string | null;
  lockedAt: Date;
  expired: boolean;
  stale: boolean;
};

export type IdempotencyKeyRef = { merchantId: string; livemode: boolean; key: string };

/**
 * Claims the key for this request: inserts it, or takes over a record that has
 * expired. Returns true when this request now owns the key.
 */
export async function claimKey(
  db: Db,
  ref: IdempotencyKeyRef,
  request: { requestHash: string; method: string; path: string; retentionSeconds: number },
): Promise<boolean> {
  const rows = await db`
    insert into idempotency_keys (merchant_id, livemode, key, request_hash, method, path, state, expires_at)
    values (${ref.merchantId}, ${ref.livemode}, ${ref.key}, ${request.requestHash}, ${request.method}, ${request.path},
            'in_progress', now() + make_interval(secs => ${request.retentionSeconds}))
    on conflict (merchant_id, livemode, key) do update
      set request_hash = excluded.request_hash, method = excluded.method, path = excluded.path,
          state = 'in_progress', response_status = null, response_body = null,
          locked_at = now(), created_at = now(), expires_at = excluded.expires_at
      where idempotency_keys.expires_at <= now()
    returning 1`;
  return rows.length === 1;
}

export async function findKey(db: Db, ref: IdempotencyKeyRef, staleAfterSeconds: number): Promise<IdempotencyRow | undefined> {
  const [row] = await db<IdempotencyRow[]>`
    select request_hash as "requestHash", state, response_status as "responseStatus", response_body as "responseBody",
           locked_at as "lockedAt", expires_at <= now() as expired,
           locked_at <= now() - make_interval(secs => ${staleAfterSeconds}) as stale
    from idempotency_keys
    where merchant_id = ${ref.merchantId} and livemode = ${ref.livemode} and key = ${ref.key}`;
  return row;
}

/** Takes over an in-progress record whose owner died (its lock went stale). */
export async function takeOverStaleKey(db: Db, ref: IdempotencyKeyRef, lockedAt: Date): Promise<boolean> {
  const rows = await db`
    update idempotency_keys set locked_at = now()
    where merchant_id = ${ref.merchantId} and livemode = ${ref.livemode} and key = ${ref.key}
      and state = 'in_progress' and locked_at = ${lockedAt}
    returning 1`;
  return rows.length === 1;
}

export async function completeKey(db: Db, ref: IdempotencyKeyRef, status: number, body: string): Promise<void> {
  await db`
    update idempotency_keys set state = 'completed', response_status = ${status}, response_body = ${body}
    where merchant_id = ${ref.merchantId} and livemode = ${ref.livemode} and key = ${ref.key}`;
}

export async function releaseKey(db: Db, ref: IdempotencyKeyRef): Promise<void> {
  await db`
    delete from idempotency_keys
    where merchant_id = ${ref.merchantId} and livemode = ${ref.livemode} and key = ${ref.key} and state = 'in_progress'`;
}

export async function deleteExpiredKeys(db: Db, limit = 10_000): Promise<number> {
  const rows = await db`
    delete from idempotency_keys where ctid in (
      select ctid from idempotency_keys where expires_at <= now() limit ${limit})
    returning 1`;
  return rows.length;
}
