// The indexer: follows one chain (of one mode) from its checkpoint in Postgres.
// Each step reads the contracts' logs of a block range that has the configured
// confirmations, and in ONE transaction records the events (unique per chain,
// transaction and log index), the hashes of the blocks it processed and the new
// checkpoint; then it runs the hooks for events not yet dispatched. Before each
// step it compares the checkpoint's block hash with the chain's: a mismatch is a
// reorg, and it rewinds to the newest stored block still on the chain, marking
// the events above it removed. Killed at any instant it resumes from the last
// committed checkpoint: nothing lost (hooks run until they succeed), nothing
// doubled (events are unique, hooks idempotent with deterministic workflow ids).
import type { Client } from '@temporalio/client';
import { type Address, type Log, type PublicClient, getAddress, parseEventLogs } from 'viem';
import { setTimeout as sleep } from 'node:timers/promises';
import { agenticCommerceEscrowAbi, subscriptionManagerAbi } from '../chain/generated/contracts.js';
import { fiatTokenAbi } from '../chain/generated/fiat-token.js';
import { type ChainSettings, subscriptionManagersOf } from '../chain/config.js';
import { publicClientFor, safeChainError } from '../chain/clients.js';
import { ChainMisconfiguredError, chainLabel, checkChain } from '../chain/chain-check.js';
import type { Sql } from '../db/client.js';
import type { ChainContract, ChainEvent, HookRegistry } from './hooks.js';
import {
  DEFAULT_LEASE_RENEW_MS,
  DEFAULT_LEASE_TTL_MS,
  createLeaderLease,
  defaultLeaseHolder,
  type Fence,
  type LeaseSettings,
} from './lease.js';
import * as repo from './repo.js';

export type IndexerLog = {
  info: (obj: object, msg: string) => void;
  warn: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
};

export type IndexerOptions = {
  sql: Sql;
  settings: ChainSettings;
  hooks: HookRegistry;
  temporal?: Client;
  /** Blocks per step (default 500). */
  batchSize?: number;
  /** Block hashes kept for fork-point search (default 2000). */
  keepBlocks?: number;
  log?: IndexerLog;
  /**
   * Leadership (src/indexer/lease.ts): the lease's own connection (default: `sql`; the process
   * passes a dedicated client) and its timings (defaults 15 s / 5 s, a holder id per instance).
   */
  lease?: Partial<LeaseSettings> & { sql?: Sql };
};

export type StepResult =
  | { kind: 'advanced'; from: bigint; to: bigint; events: number }
  | { kind: 'idle' }
  | { kind: 'rewound'; to: bigint; removed: number }
  /** The chain moved while the step read it: nothing was written; step again at once. */
  | { kind: 'raced' };

/** No leadership to check: `step()` called directly (tests, single-run scripts). */
const unfenced: Fence = async () => {};

function jsonArgs(args: unknown): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  if (args && typeof args === 'object') {
    for (const [k, v] of Object.entries(args as Record<string, unknown>)) {
      out[k] = typeof v === 'bigint' ? v.toString() : typeof v === 'number' || typeof v === 'boolean' ? v : String(v);
    }
  }
  return out;
}

const quietLog: IndexerLog = { info: () => {}, warn: () => {}, error: () => {} };

export function createIndexer(options: IndexerOptions) {
  const { sql, settings, hooks, temporal } = options;
  const ref = { chainId: settings.chainId, livemode: settings.livemode };
  const batchSize = BigInt(options.batchSize ?? 500);
  const keepBlocks = BigInt(options.keepBlocks ?? 2000);
  const log = options.log ?? quietLog;
  const client: PublicClient = publicClientFor(settings);
  const contracts: Record<string, ChainContract> = {
    [settings.token.toLowerCase()]: 'token',
    // Both versions (v1 subscriptions keep their manager); v2 keeps v1's event signatures, so one ABI decodes both.
    ...Object.fromEntries(subscriptionManagersOf(settings).map((m) => [m.toLowerCase(), 'subscriptionManager' as const])),
    [settings.escrow.toLowerCase()]: 'escrow',
  };
  const abi = [...fiatTokenAbi, ...subscriptionManagerAbi, ...agenticCommerceEscrowAbi];

  async function blockHash(number: bigint): Promise<string> {
    return (await client.getBlock({ blockNumber: number })).hash!;
  }

  /** Newest stored block still on the chain; everything above it is rewound. */
  async function rewind(checkpoint: repo.Checkpoint, fence: Fence): Promise<StepResult> {
    let forkPoint: repo.Checkpoint | undefined;
    let below = checkpoint.blockNumber;
    search: for (;;) {
      const stored = await repo.recentBlocks(sql, ref, below, 100);
      if (stored.length === 0) break;
      for (const block of stored) {
        if ((await blockHash(block.blockNumber).catch(() => '')) === block.blockHash) {
          forkPoint = block;
          break search;
        }
      }
      below = stored[stored.length - 1]!.blockNumber - 1n;
    }
    const removed = await sql.begin(async (tx) => {
      await fence(tx);
      if (forkPoint) {
        const n = await repo.rewindAbove(tx, ref, forkPoint.blockNumber);
        await repo.saveCheckpoint(tx, ref, forkPoint);
        return n;
      }
      // No stored block survives: start over from the configured start block.
      const n = await repo.rewindAbove(tx, ref, settings.startBlock - 1n);
      await repo.deleteCheckpoint(tx, ref);
      return n;
    });
    const to = forkPoint?.blockNumber ?? settings.startBlock - 1n;
    log.warn(
      { chainId: ref.chainId, livemode: ref.livemode, from: checkpoint.blockNumber.toString(), to: to.toString(), removed },
      'reorg: rewound',
    );
    return { kind: 'rewound', to, removed };
  }

  const toEvent = (row: repo.ChainEventRow): ChainEvent => ({
    chainId: row.chainId,
    livemode: row.livemode,
    contract: contracts[row.address.toLowerCase()] ?? 'token',
    address: getAddress(row.address),
    eventName: row.eventName,
    args: row.args as ChainEvent['args'],
    blockNumber: row.blockNumber,
    blockHash: row.blockHash,
    transactionHash: row.transactionHash,
    logIndex: row.logIndex,
  });

  /** Tells the hooks with an `unwind` about dispatched events a reorg removed, newest first (behind the fence, like dispatch). */
  async function unwind(fence: Fence): Promise<void> {
    for (;;) {
      const rows = await repo.eventsToUnwind(sql, ref, 200);
      if (rows.length === 0) return;
      for (const row of rows) {
        const event = toEvent(row);
        const matching = hooks.matching(event).filter((hook) => hook.unwind);
        // The hooks run inside the fenced transaction (see dispatch).
        await sql.begin(async (tx) => {
          await fence(tx);
          for (const hook of matching) {
            await hook.unwind!(event, { ...(temporal ? { temporal } : {}) });
          }
          await repo.markUnwound(tx, row.id);
        });
      }
    }
  }

  /**
   * Runs the hooks of committed, undispatched events in chain order; stops at the first failure.
   * Each event's hooks run inside the fenced transaction that marks it dispatched: the fence locks
   * the lease row (FOR SHARE) until that commits, so no other indexer can take the lease (and then
   * rewind and unwind this event) between the check and the hooks' last effect. A deposed leader
   * never applies a hook after its successor began. The transaction holds only that lock while the
   * hooks write (on their own connections) and start workflows; the hooks' records commit before
   * their starts, as everywhere. Unwinds of removed events come first.
   */
  async function dispatch(fence: Fence = unfenced): Promise<number> {
    await unwind(fence);
    let dispatched = 0;
    for (;;) {
      const rows = await repo.undispatchedEvents(sql, ref, 200);
      if (rows.length === 0) return dispatched;
      for (const row of rows) {
        const event = toEvent(row);
        const matching = hooks.matching(event);
        await sql.begin(async (tx) => {
          await fence(tx);
          for (const hook of matching) {
            await hook.handle(event, { ...(temporal ? { temporal } : {}) });
          }
          await repo.markDispatched(tx, row.id);
        });
        dispatched++;
      }
    }
  }

  /** One step: reorg check, then one confirmed block range, then hooks; every write behind `fence`. */
  async function step(fence: Fence = unfenced): Promise<StepResult> {
    await dispatch(fence);
    const checkpoint = await repo.findCheckpoint(sql, ref);
    if (checkpoint && (await blockHash(checkpoint.blockNumber).catch(() => '')) !== checkpoint.blockHash) {
      return rewind(checkpoint, fence);
    }
    const head = await client.getBlockNumber();
    const safe = head - BigInt(settings.confirmations - 1);
    const from = checkpoint ? checkpoint.blockNumber + 1n : settings.startBlock;
    if (from > safe) return { kind: 'idle' };
    const to = from + batchSize - 1n < safe ? from + batchSize - 1n : safe;

    const toBlock = await client.getBlock({ blockNumber: to });
    const fromBlock = from === to ? toBlock : await client.getBlock({ blockNumber: from });
    if (checkpoint && fromBlock.parentHash !== checkpoint.blockHash) {
      // The chain moved under the checkpoint since we looked: the next step rewinds.
      return { kind: 'raced' };
    }
    const logs = (await client.getLogs({
      address: Object.keys(contracts).map((a) => getAddress(a)) as Address[],
      fromBlock: from,
      toBlock: to,
    })) as Log[];
    if ((await blockHash(to)) !== toBlock.hash) return { kind: 'raced' }; // reorg during the read
    if (logs.some((l) => l.blockNumber === to && l.blockHash !== toBlock.hash)) return { kind: 'raced' };

    const parsed = parseEventLogs({ abi, logs, strict: false });
    const events: repo.ChainEventInput[] = parsed
      .filter((l) => !l.removed && l.blockNumber !== null && l.transactionHash !== null && l.logIndex !== null)
      .map((l) => ({
        blockNumber: l.blockNumber!,
        blockHash: l.blockHash!,
        transactionHash: l.transactionHash!,
        logIndex: l.logIndex!,
        address: getAddress(l.address),
        eventName: l.eventName ?? 'Unknown',
        args: jsonArgs(l.args),
      }));
    const blocks = new Map<bigint, string>([[to, toBlock.hash!]]);
    blocks.set(from, fromBlock.hash!);
    for (const e of events) blocks.set(e.blockNumber, e.blockHash);

    await sql.begin(async (tx) => {
      await fence(tx);
      await repo.upsertEvents(tx, ref, events);
      await repo.saveBlocks(
        tx,
        ref,
        [...blocks].map(([blockNumber, hash]) => ({ blockNumber, blockHash: hash })),
      );
      await repo.saveCheckpoint(tx, ref, { blockNumber: to, blockHash: toBlock.hash! });
      if (to > keepBlocks) await repo.pruneBlocks(tx, ref, to - keepBlocks);
    });
    await dispatch(fence);
    return { kind: 'advanced', from, to, events: events.length };
  }

  /**
   * The start-up check of this chain (src/chain/chain-check.ts), repeated while its node does not answer:
   * a chain that is down at start waits here without holding the other chains' followers back. A node
   * of another chain, or a chain without our contracts, throws ChainMisconfiguredError. False when
   * `signal` aborted first.
   */
  async function untilChainChecked(signal: AbortSignal): Promise<boolean> {
    for (let failures = 1; !signal.aborted; failures++) {
      const check = await checkChain(settings);
      if (check.kind === 'ok') return true;
      if (check.kind === 'misconfigured') throw new ChainMisconfiguredError(check.problems);
      log.warn(
        { err: check.error, failures, chainId: settings.chainId },
        `${chainLabel(settings)} does not answer; waiting for it before following it`,
      );
      await sleep(Math.min(30_000, 250 * 2 ** failures), undefined, { signal }).catch(() => undefined);
    }
    return false;
  }

  /**
   * Runs until `signal` aborts: checks the chain (untilChainChecked), waits for the lease (src/indexer/lease.ts), then steps while it
   * holds it, sleeping when idle and backing off on errors; back to waiting when the lease is lost.
   */
  async function run(signal: AbortSignal): Promise<void> {
    if (!(await untilChainChecked(signal))) return;
    const lease = createLeaderLease({
      sql: options.lease?.sql ?? sql,
      ref,
      settings: {
        ttlMs: options.lease?.ttlMs ?? DEFAULT_LEASE_TTL_MS,
        renewIntervalMs: options.lease?.renewIntervalMs ?? DEFAULT_LEASE_RENEW_MS,
        holder: options.lease?.holder ?? defaultLeaseHolder(),
      },
      log,
    });
    await lease.lead(signal, async (term) => {
      let failures = 0;
      while (!term.signal.aborted) {
        try {
          const result = await step(term.fence);
          failures = 0;
          if (result.kind === 'idle') await sleep(settings.pollIntervalMs, undefined, { signal: term.signal }).catch(() => undefined);
        } catch (error) {
          if (term.signal.aborted) break; // the lease is gone: the refused write is expected
          failures++;
          log.error({ err: safeChainError(error), failures, chainId: settings.chainId }, 'indexer step failed; retrying');
          await sleep(Math.min(30_000, 250 * 2 ** failures), undefined, { signal: term.signal }).catch(() => undefined);
        }
      }
    });
  }

  return { step, dispatch, run };
}

export type Indexer = ReturnType<typeof createIndexer>;
