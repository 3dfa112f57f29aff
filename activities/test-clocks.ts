// Activities of test clocks (workflows/test-clock.ts): move the clock's chain's time, record the
// clock's state. Each is idempotent: a retry finds the chain or the row already where it should be.
import { ApplicationFailure } from '@temporalio/activity';
import type { ChainConfig } from '../src/chain/config.js';
import { isControllableChain, moveChainTimeTo } from '../src/chain/test-chain-time.js';
import type { Sql } from '../src/db/client.js';
import * as repo from '../src/test-clocks/repo.js';

export type TestClockActivityDeps = { sql: Sql; chain?: ChainConfig };

export function createTestClockActivities({ sql, chain = {} }: TestClockActivityDeps) {
  return {
    /**
     * Moves the clock's chain's next block time to at least `toMs` (anvil only; the API refused clocks
     * elsewhere): the clock's own fork when it has one (issue 39), else the test chain. Runs of before
     * the fork name no clock and move the test chain, as they did.
     */
    async moveTestChainTime(input: { toMs: number; testClockId?: string }): Promise<{ moved: boolean }> {
      const rpcUrl = (input.testClockId ? await repo.clockChainRpcUrl(sql, input.testClockId) : null) ?? chain.test?.rpcUrl;
      // Without a test chain there is nothing to move: workflow time alone follows the clock.
      if (!rpcUrl) return { moved: false };
      if (!(await isControllableChain(rpcUrl))) {
        throw ApplicationFailure.nonRetryable('the test chain is not an anvil node: its time cannot be moved', 'ChainNotControllable');
      }
      const { moved } = await moveChainTimeTo(rpcUrl, input.toMs);
      return { moved };
    },

    async markTestClockReady(input: { testClockId: string; frozenTimeMs: number }): Promise<void> {
      await repo.finishAdvance(sql, input.testClockId, new Date(input.frozenTimeMs));
    },

    async markTestClockDeleted(input: { testClockId: string }): Promise<void> {
      await repo.markDeleted(sql, input.testClockId);
    },
  };
}
