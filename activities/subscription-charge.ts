// One attempt at a period's charge as ONE local activity (issue 42, "Renewal day at the floor"):
// the attempt row, the on-chain charge (batched with the other charges due), the outcome with its
// event and, after a success, the allowance note (with the allowance its batch read back, when it
// did: one round trip per batch, not one per charge); after a failure, the recovery agent's settings.
// Four local activities per charge cost the workflow thread about 3 ms each; one does the same.
//
// A retry of the whole (a worker killed mid-way, an RPC or database outage) is safe because every
// step is idempotent: the attempt row is unique per (subscription, period) and attempt number, the
// contract charges a period once (the chain port answers `alreadyCharged`), and the outcome and the
// allowance notice are written once. The steps stay the domain activities they were; this only
// runs them in order.
import type { AgentRecoverySettings, createAgentRecoveryActivities } from './agent-recovery.js';
import type { createSubscriptionRenewalActivities } from './subscription-renewals.js';
import type { ChargeAttempt, createSubscriptionActivities } from './subscriptions.js';
import type { ChargeResult } from '../src/subscriptions/chain.js';
import { permanentFailureType } from '../src/temporal/failures.js';

type Subscriptions = ReturnType<typeof createSubscriptionActivities>;
type Renewals = Pick<ReturnType<typeof createSubscriptionRenewalActivities>, 'noteAllowanceAfterCharge'>;
type Recovery = Pick<ReturnType<typeof createAgentRecoveryActivities>, 'findAgentRecovery'>;

type Refusal = Extract<ChargeResult, { ok: false }>;

export type ChargePeriodOutcome =
  /** Paused (this period is skipped), or the read model is already terminal. */
  | Exclude<ChargeAttempt, { kind: 'charge' }>
  | { kind: 'charged'; chargeId: string }
  /** Not a failed attempt, nothing recorded: the workflow waits (period_not_started) or ends (cancelled_on_chain, period_beyond_term). */
  | { kind: 'not_due'; chargeId: string; failure: 'period_not_started' | 'cancelled_on_chain' | 'period_beyond_term'; retryAt?: string }
  /** A refused attempt, recorded (at_risk, charge_failed event), with the grace that applies and the agent's recovery, if on. */
  | {
      kind: 'failed';
      chargeId: string;
      failure: string;
      reason: string;
      gracePeriodHours: number;
      windowLeftHours: number | null;
      recovery: AgentRecoverySettings | null;
    };

const NOT_DUE = new Set(['period_not_started', 'cancelled_on_chain', 'period_beyond_term']);

export function createSubscriptionChargeActivities(deps: { subscriptions: Subscriptions; renewals: Renewals; recovery: Recovery }) {
  const { subscriptions, renewals, recovery } = deps;

  /** The charge, with a permanent failure (a corrupt on-chain id, a final revert) as a refusal like any other. */
  const chargeOrRefusal = async (charge: Parameters<Subscriptions['chargeOnChain']>[0]): Promise<ChargeResult> => {
    try {
      return await subscriptions.chargeOnChain(charge);
    } catch (error) {
      const type = permanentFailureType(error);
      if (type === undefined) throw error;
      const message = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      return { ok: false, failure: 'charge_refused', reason: `${type}: ${message}` } as Refusal;
    }
  };

  return {
    /**
     * Attempt `attempt` at period `periodIndex`: records the attempt, charges (unless an earlier
     * attempt already did), records the outcome. `nextChargeAt` is the calendar start of the next
     * period (null after the last); `nowMs` the workflow's time, which the grace is measured from.
     */
    async chargePeriodAttempt(input: {
      subscriptionId: string;
      livemode: boolean;
      periodIndex: number;
      periodStart: string;
      attempt: number;
      nextChargeAt: string | null;
      nowMs: number;
    }): Promise<ChargePeriodOutcome> {
      const attempt = await subscriptions.recordChargeAttempt({
        subscriptionId: input.subscriptionId,
        periodIndex: input.periodIndex,
        periodStart: input.periodStart,
        attempt: input.attempt,
      });
      if (attempt.kind !== 'charge') return attempt;
      const result = attempt.alreadySucceeded
        ? null
        : await chargeOrRefusal({
            livemode: input.livemode,
            onChainId: attempt.onChainId,
            contractAddress: attempt.contractAddress,
            // The subscription's own chain: its charge never goes to another (src/subscriptions/chain.ts).
            ...(attempt.chainId !== undefined ? { chainId: attempt.chainId } : {}),
            periodIndex: attempt.onChainPeriodIndex ?? input.periodIndex,
            amount: attempt.amount,
            periodStart: input.periodStart,
            // The batch reads every subscriber's allowance left in one round trip (src/subscriptions/chain.ts).
            ...(attempt.subscriberAddress && attempt.tokenAddress
              ? { subscriber: attempt.subscriberAddress, token: attempt.tokenAddress }
              : {}),
          });
      if (result === null || result.ok) {
        await subscriptions.recordChargeSucceeded({
          subscriptionId: input.subscriptionId,
          chargeId: attempt.chargeId,
          periodIndex: input.periodIndex,
          txHash: result?.txHash ?? null,
          blockNumber: result?.blockNumber ?? null,
          nextChargeAt: input.nextChargeAt,
        });
        // A low allowance left on-chain queues the renewal email (activities/subscription-renewals.ts).
        // The allowance the batch already read is used as is; without one (charged alone, already charged) the note reads it.
        await renewals.noteAllowanceAfterCharge({
          subscriptionId: input.subscriptionId,
          periodIndex: input.periodIndex,
          ...(result?.allowance === undefined ? {} : { allowance: result.allowance }),
        });
        return { kind: 'charged', chargeId: attempt.chargeId };
      }
      if (NOT_DUE.has(result.failure)) {
        return {
          kind: 'not_due',
          chargeId: attempt.chargeId,
          failure: result.failure as 'period_not_started' | 'cancelled_on_chain' | 'period_beyond_term',
          ...(result.retryAt ? { retryAt: result.retryAt } : {}),
        };
      }
      const failed = await subscriptions.recordChargeFailed({
        subscriptionId: input.subscriptionId,
        chargeId: attempt.chargeId,
        attempt: input.attempt,
        failureCode: result.failure,
        failureReason: result.reason,
        nowMs: input.nowMs,
      });
      // The plan's trialEndBehavior ended the trial instead of dunning: as a cancelled or paused read model would.
      if (failed.trialEnd?.status === 'cancelled')
        return { kind: 'closed', status: 'cancelled', cancelledBy: 'system', cancelReason: failed.trialEnd.cancelReason };
      if (failed.trialEnd?.status === 'paused') return { kind: 'paused' };
      return {
        kind: 'failed',
        chargeId: attempt.chargeId,
        failure: result.failure,
        reason: result.reason,
        gracePeriodHours: failed.gracePeriodHours,
        windowLeftHours: failed.windowLeftHours,
        recovery: await recovery.findAgentRecovery({ subscriptionId: input.subscriptionId }),
      };
    },
  };
}
