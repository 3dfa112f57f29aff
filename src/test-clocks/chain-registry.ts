// The clock rows as the registry of test clocks' chains (issue 39, TEST_CLOCK_CHAINS=fork): resolves a
// chain id to its settings as `chainFor` does, and, for a test-mode id no configured chain has, to the
// live clock's fork with that id: the test chain's contracts (a fork has them at the same addresses) and
// keys, the fork's RPC URL. What is read is cached briefly: a fork's URL changes only when its owner restarts.
import { chainFor, type ChainConfig, type ChainSettings } from '../chain/config.js';
import type { Sql } from '../db/client.js';
import { InvalidRequestError } from '../errors.js';
import * as repo from './repo.js';

/** The settings of a mode's chain `chainId` (absent: the mode's first), a test clock's fork included. */
export type ChainResolver = (livemode: boolean, chainId?: number) => Promise<ChainSettings>;

/** A clock fork's settings: the test chain's (contracts at the same addresses, test-mode keys) but for its id and node. */
export function clockChainSettings(test: ChainSettings, row: { chainId: string | number; rpcUrl: string }): ChainSettings {
  return { ...test, chainId: Number(row.chainId), rpcUrl: row.rpcUrl, variablePrefix: undefined };
}

export function createChainResolver(deps: {
  sql: Sql;
  config: ChainConfig;
  /** How long the clock chains read are trusted (default 5 s). */
  ttlMs?: number;
  /** An id not found is looked up again at most this often (default 1 s), so a new clock is found soon. */
  missRefreshMs?: number;
}): ChainResolver {
  const ttlMs = deps.ttlMs ?? 5_000;
  const missRefreshMs = Math.min(deps.missRefreshMs ?? 1_000, ttlMs);
  let forks = new Map<number, ChainSettings>();
  let readAt = -Infinity;
  let reading: Promise<void> | undefined;

  const read = (): Promise<void> =>
    (reading ??= repo
      .liveClockChains(deps.sql)
      .then((rows) => {
        const test = deps.config.test!;
        // A fork's settings are the test chain's but for its id and node; the same object while its URL holds.
        forks = new Map(
          rows.map((row) => {
            const chainId = Number(row.chainId);
            const known = forks.get(chainId);
            const settings = known?.rpcUrl === row.rpcUrl ? known : clockChainSettings(test, row);
            return [chainId, settings] as const;
          }),
        );
        readAt = Date.now();
      })
      .finally(() => (reading = undefined)));

  return async (livemode, chainId) => {
    try {
      return chainFor(deps.config, livemode, chainId);
    } catch (error) {
      // Only a test-mode chain id the configuration does not have can be a clock's.
      if (!(error instanceof InvalidRequestError) || livemode || chainId === undefined || !deps.config.test) throw error;
      const age = Date.now() - readAt;
      if (age > ttlMs || (!forks.has(chainId) && age > missRefreshMs)) await read();
      const fork = forks.get(chainId);
      if (!fork) throw error;
      return fork;
    }
  };
}

/** The resolver's settings, or undefined where it refuses the id (not a chain of the mode, no live clock has it). */
export function findChainWith(resolve: ChainResolver): (livemode: boolean, chainId: number) => Promise<ChainSettings | undefined> {
  return async (livemode, chainId) => {
    try {
      return await resolve(livemode, chainId);
    } catch (error) {
      if (error instanceof InvalidRequestError) return undefined;
      throw error;
    }
  };
}
