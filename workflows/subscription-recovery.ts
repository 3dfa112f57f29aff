// subscriptionRecoveryWorkflow: the agent's `recovery` capability for one at_risk
// period of a subscription (docs/agents.md, Recovery). A child of
// subscriptionWorkflow, started at the period's first refused charge when the
// merchant enabled `recovery` (patch `agent-recovery`); workflow id
// `<subscription id>_recovery_<period index>`.
//
//   start: notice with top-up link emailed, `recovery_started` + `customer_notified` in the feed
//   at each retry time of the strategy (timers, no polling), or at once on a top-up the parent forwards:
//     retry the charge -> paid: charge recorded, subscription active, `subscription_recovered` -> 'recovered'
//                      -> refused: `charge_retried` (failed), wait for the next retry time
//   last retry (at the grace deadline) refused -> `subscription_lapsed` -> 'lapsed' (the parent lapses it)
//
// The charge steps are the subscription workflow's own activities (idempotent per
// subscriptionId:periodIndex and attempt). A retry in flight finishes even when the
// parent cancels this run (cancel API): the parent then records the cancel.
import { CancellationScope, defineSignal, proxyActivities, proxyLocalActivities, setHandler, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { recoveryRetryTimes, type RecoveryStrategy } from '../src/agents/recovery.js';
import { permanentFailureType } from '../src/temporal/failures.js';
import { workflowClock } from './clock.js';
import { CHAIN_ACTIVITY, DATABASE_ACTIVITY, DATABASE_LOCAL_ACTIVITY } from './options.js';

const db = proxyActivities<Activities>(DATABASE_ACTIVITY);
const localDb = proxyLocalActivities<Activities>(DATABASE_LOCAL_ACTIVITY);
const chain = proxyActivities<Activities>(CHAIN_ACTIVITY);

export type SubscriptionRecoveryInput = {
  subscriptionId: string;
  livemode: boolean;
  periodIndex: number;
  /** ISO start of the period being recovered. */
  periodStart: string;
  /** ISO start of the next period, or null after the last authorised one (recorded with a successful retry). */
  nextChargeAt: string | null;
  /** Charge attempts of this period so far (the refused one that started recovery included). */
  attempts: number;
  /** Epoch ms of the first refusal of the period: the grace window starts there. */
  graceStartedAtMs: number;
  gracePeriodHours: number;
  strategy: RecoveryStrategy;
  /** The parent's test clock (issue #30): the retry times are on its time. Absent: wall time. */
  testClockId?: string;
};

export type SubscriptionRecoveryResult =
  | { outcome: 'recovered'; attempts: number }
  | { outcome: 'lapsed'; attempts: number }
  /** The merchant paused it meanwhile: the period is skipped. */
  | { outcome: 'paused'; attempts: number }
  /** The read model is terminal (cancelled through the API, ...). */
  | {
      outcome: 'closed';
      attempts: number;
      status: 'cancelled' | 'lapsed' | 'completed';
      cancelledBy: 'merchant' | 'subscriber' | 'operator' | 'system' | null;
      cancelReason: string | null;
    }
  | { outcome: 'cancelled_on_chain'; attempts: number }
  | { outcome: 'period_beyond_term'; attempts: number };

/** The subscriber's wallet received funds or allowance (forwarded by the parent): retry now. */
export const recoveryWalletFundedSignal = defineSignal('recoveryWalletFunded');

export const subscriptionRecoveryWorkflowId = (subscriptionId: string, periodIndex: number): string =>
  `${subscriptionId}_recovery_${periodIndex}`;

const HOUR_MS = 3_600_000;
/** How long to wait when the chain's clock is behind the calendar (as the subscription workflow). */
const CHAIN_CLOCK_WAIT_MS = 60_000;

export async function subscriptionRecoveryWorkflow(input: SubscriptionRecoveryInput): Promise<SubscriptionRecoveryResult> {
  let walletFunded = false;
  setHandler(recoveryWalletFundedSignal, () => void (walletFunded = true));
  const clock = workflowClock(input.testClockId);
  await clock.join();
  try {
    return await recover(
      input,
      clock,
      () => walletFunded,
      () => void (walletFunded = false),
    );
  } finally {
    // Also when the parent cancels this run: the clock must not wait for it.
    await CancellationScope.nonCancellable(() => clock.detach());
  }
}

async function recover(
  input: SubscriptionRecoveryInput,
  clock: ReturnType<typeof workflowClock>,
  isWalletFunded: () => boolean,
  clearWalletFunded: () => void,
): Promise<SubscriptionRecoveryResult> {
  const { subscriptionId, periodIndex } = input;

  const graceDeadlineMs = input.graceStartedAtMs + input.gracePeriodHours * HOUR_MS;
  const retryTimes = recoveryRetryTimes(input.strategy, input.gracePeriodHours, input.graceStartedAtMs);
  await db.startAgentRecovery({
    subscriptionId,
    periodIndex,
    strategy: input.strategy,
    gracePeriodHours: input.gracePeriodHours,
    graceDeadline: new Date(graceDeadlineMs).toISOString(),
    retryAt: retryTimes.map((t) => new Date(t).toISOString()),
  });

  let attempts = input.attempts;

  /** One retry: the charge attempt, the on-chain charge and its record. 'refused' when the chain said no. */
  const retry = async (trigger: 'scheduled' | 'top_up'): Promise<SubscriptionRecoveryResult | 'refused'> => {
    for (;;) {
      attempts += 1;
      const attempt = await localDb.recordChargeAttempt({ subscriptionId, periodIndex, periodStart: input.periodStart, attempt: attempts });
      if (attempt.kind === 'paused') return { outcome: 'paused', attempts };
      if (attempt.kind === 'closed')
        return {
          outcome: 'closed',
          attempts,
          status: attempt.status,
          cancelledBy: attempt.cancelledBy,
          cancelReason: attempt.cancelReason,
        };
      let result: Awaited<ReturnType<typeof chain.chargeOnChain>> | null = null;
      if (!attempt.alreadySucceeded) {
        try {
          result = await chain.chargeOnChain({
            livemode: input.livemode,
            onChainId: attempt.onChainId,
            contractAddress: attempt.contractAddress,
            ...(attempt.chainId !== undefined ? { chainId: attempt.chainId } : {}),
            // A replacement enrolment counts from its own start (an activity result: no command changes).
            periodIndex: attempt.onChainPeriodIndex ?? periodIndex,
            amount: attempt.amount,
            periodStart: input.periodStart,
          });
        } catch (error) {
          const type = permanentFailureType(error);
          if (type === undefined) throw error;
          result = {
            ok: false,
            failure: 'charge_refused',
            reason: `${type}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`,
          };
        }
      }
      if (result === null || result.ok) {
        const txHash = result?.txHash ?? null;
        await localDb.recordChargeSucceeded({
          subscriptionId,
          chargeId: attempt.chargeId,
          periodIndex,
          txHash,
          blockNumber: result?.blockNumber ?? null,
          nextChargeAt: input.nextChargeAt,
        });
        await db.recordAgentRecoveryStep({
          subscriptionId,
          periodIndex,
          step: 'charge_retried',
          attempt: attempts,
          succeeded: true,
          trigger,
          transactionId: txHash,
          failure: null,
        });
        await db.recordAgentRecoveryStep({
          subscriptionId,
          periodIndex,
          step: 'subscription_recovered',
          attempt: attempts,
          transactionId: txHash,
        });
        return { outcome: 'recovered', attempts };
      }
      if (result.failure === 'cancelled_on_chain') return { outcome: 'cancelled_on_chain', attempts };
      if (result.failure === 'period_beyond_term') return { outcome: 'period_beyond_term', attempts };
      if (result.failure === 'period_not_started') {
        // Not a refusal: the chain's clock is behind. The attempt number is reused.
        attempts -= 1;
        await sleep(CHAIN_CLOCK_WAIT_MS);
        continue;
      }
      await localDb.recordChargeFailed({
        subscriptionId,
        chargeId: attempt.chargeId,
        attempt: attempts,
        failureCode: result.failure,
        failureReason: result.reason,
      });
      await db.recordAgentRecoveryStep({
        subscriptionId,
        periodIndex,
        step: 'charge_retried',
        attempt: attempts,
        succeeded: false,
        trigger,
        transactionId: null,
        failure: result.failure,
      });
      return 'refused';
    }
  };

  let next = 0;
  while (next < retryTimes.length) {
    const wait = retryTimes[next]! - clock.now();
    const toppedUp = isWalletFunded() || (wait > 0 && (await clock.waitFor(isWalletFunded, wait)));
    clearWalletFunded();
    // A top-up retries besides the schedule; a scheduled retry uses up its slot.
    if (!toppedUp) next += 1;
    const outcome = await CancellationScope.nonCancellable(() => retry(toppedUp ? 'top_up' : 'scheduled'));
    if (outcome !== 'refused') return outcome;
  }
  await db.recordAgentRecoveryStep({ subscriptionId, periodIndex, step: 'subscription_lapsed', attempts });
  return { outcome: 'lapsed', attempts };
}
