// subscriptionWorkflow: one per on-chain subscription (workflow id = subscription id).
//
//   trialing --(period 0 charged)--> active --(period n charged)--> active
//   trialing/active --(charge refused: funds/allowance)--> at_risk
//   at_risk --(retry every retryIntervalHours, or at once on walletFundedSignal; charge succeeds)--> active
//     (walletFundedSignal also follows a renewed allowance: the hosted renewal page's permit, whose
//     link is emailed when the allowance covers RENEWAL_NOTICE_PERIODS periods or fewer)
//   at_risk --(grace window of the merchant exceeded, last retry fails)--> lapsed (terminal; on-chain cancel)
//   any non-terminal --(cancelSubscriptionSignal, API or on-chain cancel)--> cancelled (terminal; on-chain cancel)
//   any --(authorised periods used up)--> completed (this workflow ends; the API may still cancel it:
//     workflows/subscription-cancel.ts then runs the on-chain cancel)
//   active --(POST .../pause: read model set to paused)--> paused: each period that comes due is skipped (never charged)
//   paused --(POST .../resume)--> active: charging resumes at the next period that comes due
//   at each period's start, before its charge: a plan change scheduled for it (a downgrade) is applied;
//     a metered plan's period n >= 1 then waits the plan's usage grace, and its charge closes the usage of
//     period n-1 (src/billing-meters/period-close.ts: priced, frozen, pulled with period n's fixed price up to the cap);
//     the charge reads the plan's amount and any proration to collect from the read model
//   trialing/active with cancelAtPeriodEnd (read model) --(next period comes due)--> cancelled instead of charged
//     (the charge attempt finds the flag: no signal; on-chain cancel as any cancel)
//   trialing --(first charge refused for funds/allowance, plan's trialEndBehavior)--> at_risk (dunning), cancelled or paused
//   trialing --(3 days before the trial ends)--> subscription.trial_will_end, once (patch trial-will-end-notice)
//   cancelled or completed, metered plan --(the plan's usage grace after the cancel or the last period's end)-->
//     the last period's usage closed and invoiced, once (patch final-usage; src/billing-meters/period-close.ts)
//
// Every side effect is an idempotent activity keyed by subscriptionId:periodIndex
// (a unique charge row, the contract's once-per-period guard). The calendar
// (src/subscriptions/periods.ts) decides when a period is due. The run continues
// as new every `periodsPerRun` charged periods so history stays bounded.
import {
  allHandlersFinished,
  CancellationScope,
  type ChildWorkflowHandle,
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  startChild,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { periodStart, type PlanInterval, type Schedule } from '../src/subscriptions/periods.js';
import { permanentFailureType } from '../src/temporal/failures.js';
import { publishBusinessStatus } from './business-status.js';
import { workflowClock } from './clock.js';
import { CHAIN_ACTIVITY, CHAIN_LOCAL_ACTIVITY, DATABASE_ACTIVITY, DATABASE_LOCAL_ACTIVITY } from './options.js';
import {
  recoveryWalletFundedSignal,
  subscriptionRecoveryWorkflow,
  subscriptionRecoveryWorkflowId,
  type SubscriptionRecoveryResult,
} from './subscription-recovery.js';

const db = proxyActivities<Activities>(DATABASE_ACTIVITY);
const localDb = proxyLocalActivities<Activities>(DATABASE_LOCAL_ACTIVITY);
const chain = proxyActivities<Activities>(CHAIN_ACTIVITY);
const localChain = proxyLocalActivities<Activities>(CHAIN_LOCAL_ACTIVITY);

/**
 * A subscriber or merchant blacklisted by USDC can never be charged again: the subscription lapses
 * at once (the charge_failed event names the side) instead of dunning to the grace deadline.
 */
const BLACKLISTED = new Set(['payer_blacklisted', 'merchant_blacklisted', 'account_blacklisted']);

export type WorkflowSubscriptionStatus = 'trialing' | 'active' | 'at_risk' | 'paused' | 'cancelled' | 'lapsed' | 'completed';
export type SubscriptionCancelledBy = 'merchant' | 'subscriber' | 'operator' | 'system';

export type SubscriptionWorkflowInput = {
  subscriptionId: string;
  merchantId: string;
  livemode: boolean;
  planId: string;
  interval: PlanInterval;
  intervalCount: number;
  /** Authorised periods; 0 = open-ended. */
  periods: number;
  /** Start of period 0 (ISO), as the contract recorded it: the calendar anchor. */
  firstPeriodStart: string;
  status: 'trialing' | 'active';
  /** Hours between retries of a failed charge while at_risk (default 24). */
  retryIntervalHours?: number;
  /** Charged periods per run before continuing as new (default 12). */
  periodsPerRun?: number;
  /** Carried across continue-as-new. */
  nextPeriodIndex?: number;
  /**
   * The test clock the subscriber's wallet is on (test mode, issue #30): every wait of this run is
   * on the clock's time (workflows/clock.ts). Absent: wall time, as before clocks existed.
   */
  testClockId?: string;
};

export type CancelRequest = { reason?: string; by: SubscriptionCancelledBy };

export type SubscriptionWorkflowState = {
  status: WorkflowSubscriptionStatus;
  nextPeriodIndex: number;
  nextChargeAt: string | null;
  attempt: number;
  graceDeadline: string | null;
  lastFailure: string | null;
};

export const cancelSubscriptionSignal = defineSignal<[CancelRequest]>('cancelSubscription');
/** The subscriber's wallet received funds (or allowance): retry an at_risk charge now. */
export const walletFundedSignal = defineSignal<[]>('walletFunded');
export const getStatusQuery = defineQuery<SubscriptionWorkflowState>('getStatus');

/** One run per subscription: the id is the subscription's. */
export const subscriptionWorkflowId = (subscriptionId: string): string => subscriptionId;

const HOUR_MS = 3_600_000;
/** subscription.trial_will_end is sent this long before a trial ends (at once for a shorter trial). */
const TRIAL_NOTICE_MS = 72 * HOUR_MS;
/** Patch: the trial_will_end notice, a wait and an activity before period 0 of a trial (issue 40, item 3). */
const TRIAL_WILL_END = 'trial-will-end-notice';
/** Patch: a metered period's grace for late usage events before its charge closes the usage (issue 41, item 4). */
const METERED_USAGE = 'metered-usage';
/** Patch: a cancelled metered subscription's last usage closed and invoiced after the cancel (issue 41). */
const FINAL_USAGE = 'final-usage';
/** How long to wait when the chain's clock is behind the calendar (PeriodNotStarted). */
const CHAIN_CLOCK_WAIT_MS = 60_000;

export async function subscriptionWorkflow(input: SubscriptionWorkflowInput): Promise<WorkflowSubscriptionStatus> {
  const schedule: Schedule = { anchor: new Date(input.firstPeriodStart), interval: input.interval, intervalCount: input.intervalCount };
  const retryIntervalMs = (input.retryIntervalHours ?? 24) * HOUR_MS;
  const periodsPerRun = input.periodsPerRun ?? 12;
  const state: SubscriptionWorkflowState = {
    status: input.status,
    nextPeriodIndex: input.nextPeriodIndex ?? 0,
    nextChargeAt: null,
    attempt: 0,
    graceDeadline: null,
    lastFailure: null,
  };
  let cancelRequest: CancelRequest | null = null;
  let walletFunded = false;

  setHandler(cancelSubscriptionSignal, (request) => {
    cancelRequest ??= request;
  });
  setHandler(walletFundedSignal, () => {
    walletFunded = true;
  });
  setHandler(getStatusQuery, () => ({ ...state }));
  // Off a clock its waits are the plain timers of before; a deleted clock cancels the subscription.
  const clock = workflowClock(input.testClockId, {
    onDeleted: () => void (cancelRequest ??= { by: 'system', reason: 'Test clock deleted.' }),
  });
  // Business time (period waits, grace deadlines) is the clock's from the first step on.
  await clock.join();

  // The status shown in the Temporal UI (memo) and searched by (BusinessStatus) is written only when it
  // changes (workflows/business-status.ts): one visibility write per change, none per charge (issue 42).
  // The next charge date and period live in Postgres (the API), not in the memo.
  const publish = () => publishBusinessStatus(state.status);

  /** The on-chain cancel, retried until it lands; one the contract refuses for good leaves the terminal status recorded. */
  const cancelOnChain = async (): Promise<void> => {
    try {
      await chain.cancelSubscriptionOnChain({ subscriptionId: input.subscriptionId });
    } catch (error) {
      if (permanentFailureType(error) === undefined) throw error;
    }
  };

  const finishCancelled = async (request: CancelRequest): Promise<WorkflowSubscriptionStatus> => {
    // Record first (a no-op when the api already did), then the on-chain cancel, retried until it lands.
    await db.markSubscriptionCancelled({ subscriptionId: input.subscriptionId, reason: request.reason ?? null, by: request.by });
    state.status = 'cancelled';
    state.nextChargeAt = null;
    publish();
    await cancelOnChain();
    await closeFinalUsage();
    return 'cancelled';
  };

  /**
   * A metered subscription's last usage (its last charged period, up to the cancel if one came first), which no
   * charge will close: after the plan's grace for late events, priced and invoiced once (issue 41). Runs that ended
   * before the patch replay without it.
   */
  const closeFinalUsage = async (): Promise<void> => {
    if (!patched(FINAL_USAGE)) return;
    const { closeAtMs } = await localDb.finalUsageCloseAt({ subscriptionId: input.subscriptionId });
    if (closeAtMs === null) return;
    if (closeAtMs > clock.now()) await clock.sleep(closeAtMs - clock.now());
    await db.closeFinalUsage({ subscriptionId: input.subscriptionId });
  };

  const finishCompleted = async (): Promise<WorkflowSubscriptionStatus> => {
    await db.markSubscriptionCompleted({ subscriptionId: input.subscriptionId });
    state.status = 'completed';
    state.nextChargeAt = null;
    publish();
    // The last period is still running: its usage closes at its end (plus the grace).
    await closeFinalUsage();
    return 'completed';
  };

  const finishLapsed = async (): Promise<WorkflowSubscriptionStatus> => {
    await db.markSubscriptionLapsed({ subscriptionId: input.subscriptionId });
    state.status = 'lapsed';
    state.nextChargeAt = null;
    publish();
    // Nothing may charge a lapsed subscription: void the authorisation on-chain too.
    await cancelOnChain();
    return 'lapsed';
  };

  /**
   * The agent's recovery of an at_risk period as a child workflow; a top-up seen meanwhile is
   * forwarded to it, a cancel cancels it (a retry in flight finishes first) and answers 'cancel'.
   */
  const runAgentRecovery = async (
    recovery: Parameters<typeof subscriptionRecoveryWorkflow>[0],
  ): Promise<SubscriptionRecoveryResult | 'cancel'> => {
    state.status = 'at_risk';
    state.graceDeadline = new Date(recovery.graceStartedAtMs + recovery.gracePeriodHours * HOUR_MS).toISOString();
    publish();
    const scope = new CancellationScope();
    let child: ChildWorkflowHandle<typeof subscriptionRecoveryWorkflow> | undefined;
    let settled: { result: SubscriptionRecoveryResult } | { error: unknown } | undefined;
    void scope
      .run(async () => {
        child = await startChild(subscriptionRecoveryWorkflow, {
          workflowId: subscriptionRecoveryWorkflowId(recovery.subscriptionId, recovery.periodIndex),
          args: [recovery],
        });
        return child.result();
      })
      .then(
        (result) => void (settled = { result }),
        (error: unknown) => void (settled = { error }),
      );
    for (;;) {
      await clock.waitFor(() => settled !== undefined || cancelRequest !== null || (walletFunded && child !== undefined));
      if (cancelRequest) {
        scope.cancel();
        await condition(() => settled !== undefined);
        return 'cancel';
      }
      if (settled) break;
      walletFunded = false;
      await child!.signal(recoveryWalletFundedSignal);
    }
    if ('error' in settled) throw settled.error;
    return settled.result;
  };

  /** Charges one period, retrying inside the grace window. Returns 'charged', 'skipped' (paused) or a terminal outcome. */
  const chargePeriod = async (index: number, start: Date): Promise<'charged' | 'skipped' | WorkflowSubscriptionStatus> => {
    state.attempt = 0;
    let graceDeadline: number | null = null;
    for (;;) {
      state.attempt += 1;
      walletFunded = false;
      // The attempt row, the on-chain charge, its outcome and the allowance note run as ONE local
      // activity (activities/subscription-charge.ts; docs/decisions.md, "One workflow task per
      // charge" and "Renewal day at the floor"): one workflow task and one activity per charge.
      const next = input.periods !== 0 && index + 1 >= input.periods ? null : periodStart(schedule, index + 1).toISOString();
      const result = await localChain.chargePeriodAttempt({
        subscriptionId: input.subscriptionId,
        livemode: input.livemode,
        periodIndex: index,
        periodStart: start.toISOString(),
        attempt: state.attempt,
        nextChargeAt: next,
        nowMs: clock.now(),
      });
      if (result.kind === 'paused') {
        state.status = 'paused';
        return 'skipped';
      }
      if (result.kind === 'closed') {
        // The read model is already terminal (e.g. cancelled through the api while no signal arrived).
        if (result.status === 'cancelled')
          return finishCancelled({ by: result.cancelledBy ?? 'merchant', reason: result.cancelReason ?? undefined });
        state.status = result.status;
        return result.status;
      }
      if (result.kind === 'charged') {
        state.status = 'active';
        state.graceDeadline = null;
        state.lastFailure = null;
        return 'charged';
      }
      state.lastFailure = result.failure;
      if (result.kind === 'not_due') {
        if (result.failure === 'cancelled_on_chain') {
          cancelRequest ??= { by: 'subscriber', reason: 'Cancelled on-chain.' };
          return finishCancelled(cancelRequest);
        }
        if (result.failure === 'period_beyond_term') return finishCompleted();
        // period_not_started: the chain's clock is behind the calendar, or (v2) the contract's start is
        // later than the calendar's: wait until it (retryAt), without counting it as a failure.
        const untilStart = result.retryAt ? Date.parse(result.retryAt) - clock.now() : 0;
        if (await clock.waitFor(() => cancelRequest !== null, Math.max(CHAIN_CLOCK_WAIT_MS, untilStart)))
          return finishCancelled(cancelRequest!);
        continue;
      }
      const failed = result;
      if (BLACKLISTED.has(result.failure)) return finishLapsed();
      // At a period's first refused charge, when the merchant enabled the agent's `recovery` capability,
      // a child workflow (workflows/subscription-recovery.ts) runs the grace window instead of the fixed retry interval.
      if (graceDeadline === null) {
        const recovery = result.recovery;
        if (recovery) {
          const next = input.periods !== 0 && index + 1 >= input.periods ? null : periodStart(schedule, index + 1).toISOString();
          const outcome = await runAgentRecovery({
            subscriptionId: input.subscriptionId,
            livemode: input.livemode,
            periodIndex: index,
            periodStart: start.toISOString(),
            nextChargeAt: next,
            attempts: state.attempt,
            graceStartedAtMs: clock.now(),
            ...(clock.testClockId() ? { testClockId: clock.testClockId() } : {}),
            // Clamped, as the merchant's grace is, to the period's v2 charge window (older results lack windowLeftHours).
            gracePeriodHours:
              failed.windowLeftHours == null ? recovery.gracePeriodHours : Math.min(recovery.gracePeriodHours, failed.windowLeftHours),
            strategy: recovery.strategy,
          });
          if (outcome === 'cancel') return finishCancelled(cancelRequest!);
          state.attempt = outcome.attempts;
          switch (outcome.outcome) {
            case 'recovered':
              state.status = 'active';
              state.graceDeadline = null;
              state.lastFailure = null;
              await localDb.noteAllowanceAfterCharge({ subscriptionId: input.subscriptionId, periodIndex: index });
              return 'charged';
            case 'lapsed':
              return finishLapsed();
            case 'paused':
              state.status = 'paused';
              return 'skipped';
            case 'closed':
              if (outcome.status === 'cancelled')
                return finishCancelled({ by: outcome.cancelledBy ?? 'merchant', reason: outcome.cancelReason ?? undefined });
              state.status = outcome.status;
              return outcome.status;
            case 'cancelled_on_chain':
              cancelRequest ??= { by: 'subscriber', reason: 'Cancelled on-chain.' };
              return finishCancelled(cancelRequest);
            case 'period_beyond_term':
              return finishCompleted();
          }
        }
      }
      graceDeadline ??= clock.now() + failed.gracePeriodHours * HOUR_MS;
      state.status = 'at_risk';
      state.graceDeadline = new Date(graceDeadline).toISOString();
      publish();
      const remaining = graceDeadline - clock.now();
      if (remaining <= 0) return finishLapsed();
      await clock.waitFor(() => cancelRequest !== null || walletFunded, Math.min(retryIntervalMs, remaining));
      if (cancelRequest) return finishCancelled(cancelRequest);
      // Retry: on a top-up, at the retry interval, or one last time at the grace deadline.
    }
  };

  /** The periods, one after the other, until a terminal outcome or the next run. */
  const chargePeriods = async (): Promise<WorkflowSubscriptionStatus> => {
    let chargedThisRun = 0;
    for (;;) {
      const index = state.nextPeriodIndex;
      if (input.periods !== 0 && index >= input.periods) return finishCompleted();
      const start = periodStart(schedule, index);
      state.nextChargeAt = start.toISOString();
      publish();
      // Runs started before the patch replay without the notice (their trials get none).
      if (index === 0 && input.status === 'trialing' && start.getTime() > clock.now() && patched(TRIAL_WILL_END)) {
        const untilNotice = start.getTime() - TRIAL_NOTICE_MS - clock.now();
        if (untilNotice > 0) await clock.waitFor(() => cancelRequest !== null, untilNotice);
        if (cancelRequest) return finishCancelled(cancelRequest);
        await db.noteTrialWillEnd({ subscriptionId: input.subscriptionId });
      }
      const wait = start.getTime() - clock.now();
      if (wait > 0) await clock.waitFor(() => cancelRequest !== null, wait);
      if (cancelRequest) return finishCancelled(cancelRequest);
      // A plan change scheduled for this period (a downgrade, issue 40) takes effect before it is charged.
      // Patched: runs started before plan changes existed replay without this step (docs/decisions.md).
      if (patched('plan-changes')) {
        const due = await localDb.applyDuePlanChange({ subscriptionId: input.subscriptionId, periodIndex: index, nowMs: clock.now() });
        // A metered plan's period closes the usage of the period before, after a grace for late events (issue 41).
        // Fixed plans answer 0 (and older results nothing): no new command for them, no patch marker.
        const graceMs = (due.usageGraceSeconds ?? 0) * 1000;
        if (graceMs > 0 && patched(METERED_USAGE)) {
          const untilClose = start.getTime() + graceMs - clock.now();
          if (untilClose > 0) await clock.waitFor(() => cancelRequest !== null, untilClose);
          if (cancelRequest) return finishCancelled(cancelRequest);
        }
      }

      const outcome = await chargePeriod(index, start);
      if (outcome !== 'charged' && outcome !== 'skipped') return outcome;
      state.nextPeriodIndex = index + 1;
      chargedThisRun += 1;

      const more = input.periods === 0 || state.nextPeriodIndex < input.periods;
      if (more && chargedThisRun >= periodsPerRun) {
        await condition(allHandlersFinished);
        if (cancelRequest) return finishCancelled(cancelRequest);
        return continueAsNew<typeof subscriptionWorkflow>({
          ...input,
          status: 'active',
          nextPeriodIndex: state.nextPeriodIndex,
          ...(clock.testClockId() ? { testClockId: clock.testClockId() } : {}),
        });
      }
    }
  };

  const outcome = await chargePeriods();
  // A finished run leaves its clock (continue-as-new throws past this: the next run stays on it).
  await clock.detach();
  return outcome;
}
