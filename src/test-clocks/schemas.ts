// Request and response shapes of test clocks (test mode only).
import { z } from 'zod';
import { pathId, timestamp } from '../http/schemas.js';
import { listOf, listQueryOf } from '../http/pagination.js';
import { address } from '../tokens/schemas.js';

/** Documented limits (docs/operations.md, "Test clocks"). */
export const TEST_CLOCK_LIMITS = {
  /** Clocks a merchant may hold at once (not deleted). */
  clocksPerMerchant: 20,
  /** Payer wallets on one clock: every subscription, session and invoice of them rides on it. */
  walletsPerClock: 10,
  /** How far one advance may move a clock. */
  maxAdvanceDays: 400,
} as const;

const wallets = z
  .array(address)
  .max(TEST_CLOCK_LIMITS.walletsPerClock)
  .describe(
    `Payer wallets whose subscriptions, payment sessions and invoices with this merchant follow the clock (at most ${TEST_CLOCK_LIMITS.walletsPerClock} per clock).`,
  );

export const createTestClockBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    frozenTime: timestamp.describe(
      `The clock's starting time; not before the test chain's current block time (chain time only moves forward), at most ${TEST_CLOCK_LIMITS.maxAdvanceDays} days after now (as one advance).`,
    ),
    wallets: wallets.default([]),
  })
  .strict();

export const advanceTestClockBody = z
  .object({
    frozenTime: timestamp.describe(`The time to move to: after the clock's time, at most ${TEST_CLOCK_LIMITS.maxAdvanceDays} days later.`),
  })
  .strict();

export const attachWalletsBody = z.object({ wallets: wallets.min(1) }).strict();

export const testClock = z
  .object({
    id: z.string(),
    object: z.literal('test_clock'),
    name: z.string(),
    frozenTime: timestamp.describe("The clock's time. While `advancing` it is the time it moves from."),
    status: z
      .enum(['ready', 'advancing', 'deleted'])
      .describe('`advancing` until the chain and every attached workflow reached `advancingTo`.'),
    advancingTo: timestamp.nullable(),
    wallets: z.array(z.object({ walletAddress: z.string(), attachedAt: timestamp })),
    livemode: z.literal(false),
    createdAt: timestamp,
    deletedAt: timestamp.nullable(),
  })
  .meta({ id: 'TestClock' });

export const testClockParams = z.object({ id: pathId('testClock') });
export const testClockList = listOf(testClock);
export const testClockListQuery = listQueryOf('testClock');

export type CreateTestClockBody = z.infer<typeof createTestClockBody>;
export type AdvanceTestClockBody = z.infer<typeof advanceTestClockBody>;
export type AttachWalletsBody = z.infer<typeof attachWalletsBody>;
export type TestClock = z.infer<typeof testClock>;
