// SQL of the indexer's lease (table indexer_leases). Every time is the
// database's clock_timestamp(): one clock for all indexers, and, unlike now(),
// not frozen at the start of a transaction.
import type { Db } from '../db/client.js';
import type { ChainRef } from './repo.js';

export type LeaseTerm = { holder: string; epoch: bigint };

/**
 * Takes the lease when it is free, expired or already ours; a new epoch every time. Returns the
 * epoch, or undefined while another holder's lease runs.
 */
export async function acquireLease(db: Db, ref: ChainRef, holder: string, ttlMs: number): Promise<bigint | undefined> {
  const [row] = await db<{ epoch: string }[]>`
    insert into indexer_leases (chain_id, livemode, holder, epoch, expires_at, acquired_at, renewed_at)
    values (${ref.chainId}, ${ref.livemode}, ${holder}, 1,
            clock_timestamp() + ${ttlMs} * interval '1 millisecond', clock_timestamp(), clock_timestamp())
    on conflict (chain_id, livemode) do update
      set holder = excluded.holder, epoch = indexer_leases.epoch + 1, expires_at = excluded.expires_at,
          acquired_at = excluded.acquired_at, renewed_at = excluded.renewed_at
      where indexer_leases.expires_at <= clock_timestamp() or indexer_leases.holder = excluded.holder
    returning epoch::text as epoch`;
  return row ? BigInt(row.epoch) : undefined;
}

/** Extends a lease still held; false when it expired or another indexer took it. */
export async function renewLease(db: Db, ref: ChainRef, term: LeaseTerm, ttlMs: number): Promise<boolean> {
  const renewed = await db`
    update indexer_leases
    set expires_at = clock_timestamp() + ${ttlMs} * interval '1 millisecond', renewed_at = clock_timestamp()
    where chain_id = ${ref.chainId} and livemode = ${ref.livemode} and holder = ${term.holder}
      and epoch = ${term.epoch.toString()} and expires_at > clock_timestamp()`;
  return renewed.count === 1;
}

/**
 * The fence: true when `term` still holds the lease. Inside a transaction the row stays locked
 * (FOR SHARE) until commit, so no other indexer can take the lease over between this check and
 * the transaction's writes: a takeover's update waits for the commit.
 */
export async function holdsLease(db: Db, ref: ChainRef, term: LeaseTerm): Promise<boolean> {
  const [row] = await db`
    select 1 from indexer_leases
    where chain_id = ${ref.chainId} and livemode = ${ref.livemode} and holder = ${term.holder}
      and epoch = ${term.epoch.toString()} and expires_at > clock_timestamp()
    for share`;
  return row !== undefined;
}

/** Ends a lease at once (a clean stop), so a standby takes over without waiting for the expiry. */
export async function releaseLease(db: Db, ref: ChainRef, term: LeaseTerm): Promise<void> {
  await db`
    update indexer_leases set expires_at = clock_timestamp()
    where chain_id = ${ref.chainId} and livemode = ${ref.livemode} and holder = ${term.holder}
      and epoch = ${term.epoch.toString()} and expires_at > clock_timestamp()`;
}

export type LeaseRow = { holder: string; epoch: bigint; expiresAt: Date; valid: boolean };

/** The lease as it stands (operations and tests). */
export async function findLease(db: Db, ref: ChainRef): Promise<LeaseRow | undefined> {
  const [row] = await db<{ holder: string; epoch: string; expiresAt: Date; valid: boolean }[]>`
    select holder, epoch::text as epoch, expires_at as "expiresAt", expires_at > clock_timestamp() as valid
    from indexer_leases where chain_id = ${ref.chainId} and livemode = ${ref.livemode}`;
  return row ? { ...row, epoch: BigInt(row.epoch) } : undefined;
}
