// SQL of the indexer: checkpoints, processed block hashes and observed chain events.
import type { Db } from '../db/client.js';

export type ChainRef = { chainId: number; livemode: boolean };

export type Checkpoint = { blockNumber: bigint; blockHash: string };

export async function findCheckpoint(db: Db, ref: ChainRef): Promise<Checkpoint | undefined> {
  const [row] = await db<{ blockNumber: string; blockHash: string }[]>`
    select block_number::text as "blockNumber", block_hash as "blockHash" from indexer_checkpoints
    where chain_id = ${ref.chainId} and livemode = ${ref.livemode}`;
  return row ? { blockNumber: BigInt(row.blockNumber), blockHash: row.blockHash } : undefined;
}

export async function saveCheckpoint(db: Db, ref: ChainRef, checkpoint: Checkpoint): Promise<void> {
  await db`
    insert into indexer_checkpoints (chain_id, livemode, block_number, block_hash)
    values (${ref.chainId}, ${ref.livemode}, ${checkpoint.blockNumber.toString()}, ${checkpoint.blockHash})
    on conflict (chain_id, livemode) do update set block_number = excluded.block_number, block_hash = excluded.block_hash, updated_at = now()`;
}

export async function deleteCheckpoint(db: Db, ref: ChainRef): Promise<void> {
  await db`delete from indexer_checkpoints where chain_id = ${ref.chainId} and livemode = ${ref.livemode}`;
}

export async function saveBlocks(db: Db, ref: ChainRef, blocks: { blockNumber: bigint; blockHash: string }[]): Promise<void> {
  if (blocks.length === 0) return;
  const rows = blocks.map((b) => ({
    chain_id: ref.chainId,
    livemode: ref.livemode,
    block_number: b.blockNumber.toString(),
    block_hash: b.blockHash,
  }));
  await db`
    insert into indexer_blocks ${db(rows, 'chain_id', 'livemode', 'block_number', 'block_hash')}
    on conflict (chain_id, livemode, block_number) do update set block_hash = excluded.block_hash`;
}

/** Stored block hashes at or below `blockNumber`, newest first (fork-point search). */
export async function recentBlocks(db: Db, ref: ChainRef, atOrBelow: bigint, limit: number): Promise<Checkpoint[]> {
  const rows = await db<{ blockNumber: string; blockHash: string }[]>`
    select block_number::text as "blockNumber", block_hash as "blockHash" from indexer_blocks
    where chain_id = ${ref.chainId} and livemode = ${ref.livemode} and block_number <= ${atOrBelow.toString()}
    order by block_number desc limit ${limit}`;
  return rows.map((r) => ({ blockNumber: BigInt(r.blockNumber), blockHash: r.blockHash }));
}

export async function pruneBlocks(db: Db, ref: ChainRef, below: bigint): Promise<void> {
  await db`delete from indexer_blocks where chain_id = ${ref.chainId} and livemode = ${ref.livemode} and block_number < ${below.toString()}`;
}

/** Rewinds to `forkPoint`: blocks above it are forgotten and their events marked removed. Returns how many events. */
export async function rewindAbove(db: Db, ref: ChainRef, forkPoint: bigint): Promise<number> {
  await db`delete from indexer_blocks where chain_id = ${ref.chainId} and livemode = ${ref.livemode} and block_number > ${forkPoint.toString()}`;
  const removed = await db`
    update chain_events set removed_at = now()
    where chain_id = ${ref.chainId} and livemode = ${ref.livemode} and block_number > ${forkPoint.toString()} and removed_at is null`;
  return removed.count;
}

export type ChainEventInput = {
  blockNumber: bigint;
  blockHash: string;
  transactionHash: string;
  logIndex: number;
  address: string;
  eventName: string;
  args: Record<string, unknown>;
};

export type ChainEventRow = ChainEventInput & { id: string; chainId: number; livemode: boolean; removedAt: Date | null };

/**
 * Records observed events; one row per (chain, transaction, log index), so a re-read range
 * changes nothing. An event a reorg removed and the new chain includes again is restored (and not
 * dispatched a second time).
 */
export async function upsertEvents(db: Db, ref: ChainRef, events: ChainEventInput[]): Promise<void> {
  for (const e of events) {
    await db`
      insert into chain_events (chain_id, livemode, block_number, block_hash, transaction_hash, log_index, address, event_name, args)
      values (${ref.chainId}, ${ref.livemode}, ${e.blockNumber.toString()}, ${e.blockHash}, ${e.transactionHash}, ${e.logIndex},
              ${e.address}, ${e.eventName}, ${db.json(e.args as never)})
      on conflict (chain_id, transaction_hash, log_index) do update
        set block_number = excluded.block_number, block_hash = excluded.block_hash, removed_at = null,
            -- Hooks were told it was gone: they hear of it again.
            dispatched_at = case when chain_events.unwound_at is null then chain_events.dispatched_at end,
            unwound_at = null
        where chain_events.removed_at is not null or chain_events.block_hash <> excluded.block_hash`;
  }
}

const eventColumns = (db: Db) =>
  db`id::text as id, chain_id::int as "chainId", livemode, block_number::text as "blockNumber", block_hash as "blockHash",
     transaction_hash as "transactionHash", log_index as "logIndex", address, event_name as "eventName", args, removed_at as "removedAt"`;

type RawEventRow = Omit<ChainEventRow, 'blockNumber'> & { blockNumber: string };

export async function undispatchedEvents(db: Db, ref: ChainRef, limit: number): Promise<ChainEventRow[]> {
  const rows = await db<RawEventRow[]>`
    select ${eventColumns(db)} from chain_events
    where chain_id = ${ref.chainId} and livemode = ${ref.livemode} and dispatched_at is null and removed_at is null
    order by block_number, log_index limit ${limit}`;
  return rows.map((r) => ({ ...r, blockNumber: BigInt(r.blockNumber) }));
}

/** Dispatched events a reorg removed that the hooks were not told about yet, in reverse chain order. */
export async function eventsToUnwind(db: Db, ref: ChainRef, limit: number): Promise<ChainEventRow[]> {
  const rows = await db<RawEventRow[]>`
    select ${eventColumns(db)} from chain_events
    where chain_id = ${ref.chainId} and livemode = ${ref.livemode} and removed_at is not null and dispatched_at is not null
      and unwound_at is null
    order by block_number desc, log_index desc limit ${limit}`;
  return rows.map((r) => ({ ...r, blockNumber: BigInt(r.blockNumber) }));
}

export async function markUnwound(db: Db, id: string): Promise<void> {
  await db`update chain_events set unwound_at = now() where id = ${id} and unwound_at is null`;
}

export async function markDispatched(db: Db, id: string): Promise<void> {
  await db`update chain_events set dispatched_at = now() where id = ${id} and dispatched_at is null`;
}

export async function listEvents(db: Db, ref: ChainRef): Promise<ChainEventRow[]> {
  const rows = await db<RawEventRow[]>`
    select ${eventColumns(db)} from chain_events where chain_id = ${ref.chainId} and livemode = ${ref.livemode}
    order by block_number, log_index`;
  return rows.map((r) => ({ ...r, blockNumber: BigInt(r.blockNumber) }));
}
