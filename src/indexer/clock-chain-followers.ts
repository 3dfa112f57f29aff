// The indexer's followers of test clocks' own chains (issue 39, TEST_CLOCK_CHAINS=fork): a clock's fork
// is one more chain of test mode, so what happens on it (an enrolment, a deposit, a top-up) reaches the
// same hooks as on the test chain, recorded under the fork's chain id. The clock rows say which forks
// live (the API process that owns them writes them): read every `refreshMs`, a follower is started for
// each new clock chain (or a fork forked again on a new URL) and stopped when its clock is deleted.
// A fork's blocks up to the one it was forked at are the test chain's (anvil serves them from there):
// a follower starts after that block, so the test chain's history is never recorded twice.
import type { Client } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPublicClient, http } from 'viem';
import type { ChainConfig, ChainSettings } from '../chain/config.js';
import type { Sql } from '../db/client.js';
import { clockChainSettings } from '../test-clocks/chain-registry.js';
import { liveClockChains } from '../test-clocks/repo.js';
import type { HookRegistry } from './hooks.js';
import { createIndexer, type IndexerLog } from './indexer.js';
import type { LeaseSettings } from './lease.js';

/** The first block a fork made itself: the block after the one it was forked at (anvil_nodeInfo). */
export async function forkStartBlock(rpcUrl: string): Promise<bigint> {
  const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 1 }) });
  const info = (await client.request({ method: 'anvil_nodeInfo' } as never)) as { forkConfig?: { forkBlockNumber?: number | string } };
  const forked = info.forkConfig?.forkBlockNumber;
  if (forked === undefined || forked === null) throw new Error(`${rpcUrl} is not a fork: no fork block to start after`);
  return BigInt(forked) + 1n;
}

export type ClockChainFollowersDeps = {
  sql: Sql;
  /** The test chain's settings are a fork's but for its id, node and start block. */
  config: ChainConfig;
  /** The hooks of one clock chain: the same hooks as the configured chains', built over a configuration that has it. */
  hooksFor: (config: ChainConfig) => HookRegistry;
  temporal?: Client;
  /** How often the clock rows are read (default 1 s): how soon a new clock's chain is followed. */
  refreshMs?: number;
  batchSize?: number;
  lease?: Partial<LeaseSettings> & { sql?: Sql };
  log: IndexerLog;
};

/** Follows each live clock's chain until `signal` aborts; resolves once every follower stopped. */
export async function followClockChains(deps: ClockChainFollowersDeps, signal: AbortSignal): Promise<void> {
  const test = deps.config.test;
  if (!test) return;
  const running = new Map<string, { stop: AbortController; done: Promise<void> }>();
  const start = async (row: { id: string; chainId: string; rpcUrl: string }, key: string) => {
    const settings: ChainSettings = { ...clockChainSettings(test, row), startBlock: await forkStartBlock(row.rpcUrl) };
    const stop = new AbortController();
    const done = createIndexer({
      sql: deps.sql,
      settings,
      hooks: deps.hooksFor({ test: settings }),
      ...(deps.temporal ? { temporal: deps.temporal } : {}),
      ...(deps.batchSize ? { batchSize: deps.batchSize } : {}),
      ...(deps.lease ? { lease: deps.lease } : {}),
      log: deps.log,
    })
      .run(AbortSignal.any([signal, stop.signal]))
      // One clock's chain refusing (misconfigured) stops only its follower; the next read starts it again.
      .catch((error: unknown) => deps.log.error({ err: error, testClockId: row.id }, 'test clock chain follower stopped'))
      .finally(() => running.delete(key));
    running.set(key, { stop, done });
    deps.log.info(
      { testClockId: row.id, chainId: settings.chainId, fromBlock: settings.startBlock.toString() },
      'following test clock chain',
    );
  };
  while (!signal.aborted) {
    try {
      const rows = await liveClockChains(deps.sql);
      // Keyed by node too: a fork forked again (owner restarted) answers on another URL.
      const live = new Map(rows.map((row) => [`${row.chainId}@${row.rpcUrl}`, row]));
      for (const [key, follower] of running) if (!live.has(key)) follower.stop.abort();
      for (const [key, row] of live) {
        if (running.has(key)) continue;
        await start(row, key).catch((error: unknown) =>
          deps.log.warn({ err: error, testClockId: row.id }, 'test clock chain not followed yet (its node does not answer); retrying'),
        );
      }
    } catch (error) {
      deps.log.error({ err: error }, 'reading the test clocks’ chains failed; retrying');
    }
    await sleep(deps.refreshMs ?? 1_000, undefined, { signal }).catch(() => undefined);
  }
  await Promise.all([...running.values()].map((follower) => follower.done));
}
