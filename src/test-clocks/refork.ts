// Bringing the live test clocks' chains back when the process that owns them starts (TEST_CLOCK_CHAINS=fork):
// each fork died with the previous process, so it is forked again under the clock's chain id (from its
// dumped state when TEST_CLOCK_CHAIN_STATE_DIR is set, else afresh from the test chain), moved to the
// clock's time, and its new RPC URL recorded on the clock row, which is where everyone else finds it.
import type { FastifyBaseLogger } from 'fastify';
import { moveChainTimeTo } from '../chain/test-chain-time.js';
import type { Sql } from '../db/client.js';
import type { ClockChains } from './clock-chains.js';
import * as repo from './repo.js';

/** Forks again every live clock's chain; a clock whose fork fails is logged and left (its advances fail until the next start). */
export async function reforkLiveClockChains(deps: {
  sql: Sql;
  clockChains: ClockChains;
  testChainRpcUrl: string;
  log: Pick<FastifyBaseLogger, 'info' | 'error'>;
}): Promise<number> {
  let reforked = 0;
  for (const clock of await repo.liveClockChains(deps.sql)) {
    try {
      const { chainId, rpcUrl } = await deps.clockChains.start(clock.id, deps.testChainRpcUrl);
      // A fork from the test chain as it is now starts at the test chain's time; the clock's is later.
      await moveChainTimeTo(rpcUrl, clock.frozenTime.getTime());
      await repo.updateClockChainRpcUrl(deps.sql, clock.id, rpcUrl);
      deps.log.info({ testClockId: clock.id, chainId }, 'test clock chain forked again');
      reforked++;
    } catch (error) {
      deps.log.error({ err: error, testClockId: clock.id }, 'test clock chain could not be forked again');
    }
  }
  return reforked;
}
