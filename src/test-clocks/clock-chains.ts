// A chain of its own per test clock (issue 39, docs/decisions.md "A test clock moves only its own chain"):
// an anvil forked from the test chain when the clock is created (token, contracts and balances as they
// were), under a chain id of its own, whose time only that clock moves; stopped when the clock is deleted.
// The API process that creates clocks owns the forks (they are its child processes); the clock row keeps
// each fork's chain id and RPC URL, which is how the worker reaches it.
import { join } from 'node:path';
import { createTestClient, http } from 'viem';
// Type only: the launcher is loaded when a fork is first asked for, which only a deployment with
// TEST_CLOCK_CHAINS=fork does; the anvil binary (@foundry-rs/anvil) is a development dependency.
import type { AnvilInstance } from '../chain/anvil.js';

/** Chain ids of clock forks: a band no public chain uses, one id per clock (derived from its id). */
const CLOCK_CHAIN_ID_BASE = 900_000_000;
const CLOCK_CHAIN_ID_SPAN = 90_000_000;

/** The chain id of a clock's fork: stable for the clock (a restart forks under the same id). FNV-1a of the id. */
export function clockChainId(testClockId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < testClockId.length; i++) hash = Math.imul(hash ^ testClockId.charCodeAt(i), 0x01000193) >>> 0;
  return CLOCK_CHAIN_ID_BASE + (hash % CLOCK_CHAIN_ID_SPAN);
}

/** Every later block of the anvil at `rpcUrl` carries the latest block's time, until a block time is set. */
async function freezeChainTime(rpcUrl: string): Promise<void> {
  await createTestClient({ mode: 'anvil', transport: http(rpcUrl) }).setBlockTimestampInterval({ interval: 0 });
}

export type ClockChain = { chainId: number; rpcUrl: string };

export type ClockChains = {
  /** Forks `forkUrl` for the clock (or answers the fork already running for it). */
  start: (testClockId: string, forkUrl: string) => Promise<ClockChain>;
  /** Stops the clock's fork, if this process runs one (its state is dumped first when a state dir is set). */
  stop: (testClockId: string) => Promise<void>;
  /** Stops every fork (the process is shutting down). */
  close: () => Promise<void>;
};

/**
 * `stateDir`: each fork dumps its state to `<stateDir>/<clock id>.json` when stopped and loads it when
 * forked again for the same clock (anvil --state), so a restart of the owning process can bring a
 * clock's chain back as it was.
 */
export function createClockChains(options: { stateDir?: string } = {}): ClockChains {
  const forks = new Map<string, Promise<AnvilInstance>>();
  return {
    async start(testClockId, forkUrl) {
      let fork = forks.get(testClockId);
      if (!fork) {
        fork = import('../chain/anvil.js').then(async ({ startAnvil }) => {
          const anvil = await startAnvil({
            chainId: clockChainId(testClockId),
            ...(options.stateDir ? { state: join(options.stateDir, `${testClockId}.json`) } : {}),
            extraArgs: ['--fork-url', forkUrl],
          });
          // The chain's time is the clock's: frozen between advances (every block keeps the time the last
          // advance set), not running on with the wall clock. Else what is enrolled on the clock starts its
          // period seconds after the clock's time, and nothing is charged until the next advance.
          await freezeChainTime(anvil.rpcUrl).catch(async (error: unknown) => {
            await anvil.stop();
            throw error;
          });
          return anvil;
        });
        forks.set(testClockId, fork);
        fork.catch(() => forks.delete(testClockId));
      }
      const { chainId, rpcUrl } = await fork;
      return { chainId, rpcUrl };
    },
    async stop(testClockId) {
      const fork = forks.get(testClockId);
      forks.delete(testClockId);
      await (await fork?.catch(() => undefined))?.stop();
    },
    async close() {
      const all = [...forks.values()];
      forks.clear();
      await Promise.all(all.map(async (fork) => (await fork.catch(() => undefined))?.stop()));
    },
  };
}
