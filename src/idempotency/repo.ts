// SQL for idempotency records, one per merchant, mode, key class and key. A request holds
// its key under a lease (`lease_token`, `locked_at`); every time comparison is
// made by Postgres, never on a timestamp read back into JavaScript.
import type { Db } from '../db/client.js';

export type IdempotencyRow = {
  requestHash: string;
  state: 'in_progress' | 'completed';
  responseStatus: number | null;
  responseBody: string | null;
  expired: boolean;
};

/**
 * Who may use a key: the public publishable key, the merchant's secret keys, or its dashboard sessions.
 * Each class has keys of its own, so a holder of the publishable key cannot take a server's key.
 */
export type IdempotencyKeyClass = 'secret' | 'publishable' | 'dashboard';

export type IdempotencyKeyRef = { merchantId: string; livemode: boolean; keyClass: IdempotencyKeyClass; key: string };

export type KeyClaim = {
  requestHash: string;
  method: string;
  path: string;
  retentionSeconds: number;
  leaseSeconds: number;
  /** Identifies this request as the key's holder until it completes or loses the lease. */
  leaseToken: string;
};

/**
 * Claims the key for this request: inserts it, reuses a record past its retention, or takes over
 * the same request's record whose holder's lease ran out (the holder died or is too slow: its
 * completion will find the token changed and roll back). Returns true when this request holds the key.
 */
export async function claimKey(db: Db, ref: IdempotencyKeyRef, claim: KeyClaim): Promise<boolean> {
  const rows = await db`
    insert into idempotency_keys (merchant_id, livemode, key_class, key, request_hash, method, path, state, lease_token, expires_at)
    values (${ref.merchantId}, ${ref.livemode}, ${ref.keyClass}, ${ref.key}, ${claim.requestHash}, ${claim.method}, ${claim.path},
            'in_progress', ${claim.leaseToken}, now() + make_interval(secs => ${claim.retentionSeconds}))
    on conflict (merchant_id, livemode, key_class, key) do update
      set request_hash = excluded.request_hash, method = excluded.method, path = excluded.path,
          state = 'in_progress', response_status = null, response_body = null, lease_token = excluded.lease_token,
          locked_at = now(), created_at = now(), expires_at = excluded.expires_at
      where idempotency_keys.expires_at <= now()
         or (idempotency_keys.state = 'in_progress' and idempotency_keys.request_hash = excluded.request_hash
             and idempotency_keys.locked_at <= now() - make_interval(secs => ${claim.leaseSeconds}))
    returning 1`;
  return rows.length === 1;
}

export async function findKey(db: Db, ref: IdempotencyKeyRef): Promise<IdempotencyRow | undefined> {
  const [row] = await db<IdempotencyRow[]>`
    select request_hash as "requestHash", state, response_status as "responseStatus", response_body as "responseBody",
           expires_at <= now() as expired
    from idempotency_keys
    where merchant_id = ${ref.merchantId} and livemode = ${ref.livemode} and key_class = ${ref.keyClass} and key = ${ref.key}`;
  return row;
}

/**
 * Stores the response, in the request's own transaction when it has one. False when the lease was
 * taken over: the caller must then roll its effect back (the taker's effect is the one that counts).
 */
export async function completeKey(db: Db, ref: IdempotencyKeyRef, leaseToken: string, status: number, body: string): Promise<boolean> {
  const rows = await db`
    update idempotency_keys set state = 'completed', response_status = ${status}, response_body = ${body}
    where merchant_id = ${ref.merchantId} and livemode = ${ref.livemode} and key_class = ${ref.keyClass} and key = ${ref.key}
      and state = 'in_progress' and lease_token = ${leaseToken}
    returning 1`;
  return rows.length === 1;
}

/** Frees the key after a server error (nothing was committed), unless another request holds it now. */
export async function releaseKey(db: Db, ref: IdempotencyKeyRef, leaseToken: string): Promise<void> {
  await db`
    delete from idempotency_keys
    where merchant_id = ${ref.merchantId} and livemode = ${ref.livemode} and key_class = ${ref.keyClass} and key = ${ref.key}
      and state = 'in_progress' and lease_token = ${leaseToken}`;
}

export async function deleteExpiredKeys(db: Db, limit = 10_000): Promise<number> {
  const rows = await db`
    delete from idempotency_keys where ctid in (
      select ctid from idempotency_keys where expires_at <= now() limit ${limit})
    returning 1`;
  return rows.length;
}
