// Activities of test clocks (workflows/test-clock.ts): move the test chain's time, record the
// clock's state. Each is idempotent: a retry finds the chain or the row already where it should be.
import { ApplicationFailure } from '@temporalio/activity';
import type { ChainConfig } from '../src/chain/config.js';
import { isControllableChain, moveChainTimeTo } from '../src/chain/test-chain-time.js';
import type { Sql } from '../src/db/client.js';
import * as repo from '../src/test-clocks/repo.js';

export type TestClockActivityDeps = { sql: Sql; chain?: ChainConfig };

export function createTestClockActivities({ sql, chain = {} }: TestClockActivityDeps) {
  return {
    /** Moves the test chain's next block time to at least `toMs` (anvil only; the API refused clocks elsewhere). */
    async moveTestChainTime(input: { toMs: number }): Promise<{ moved: boolean }> {
      const rpcUrl = chain.test?.rpcUrl;
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
