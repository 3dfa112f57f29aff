// Activities of the subscription workflow. Each is idempotent with a business
// key: the charge row is unique per subscriptionId:periodIndex, an attempt is
// recorded once per attempt number, state changes are guarded by the current
// status, and each writes its event in the same transaction (outbox), then
// starts its dispatch.
import { Context } from '@temporalio/activity';
import type { Db, Sql } from '../src/db/client.js';
import type { EventDispatcher } from '../src/events/dispatch.js';
import { commitWithEvents } from '../src/events/commit.js';
import { newId } from '../src/ids.js';
import { findSubscriptionGracePeriodHours } from '../src/merchants/repo.js';
import * as chargeRepo from '../src/subscription-charges/repo.js';
import { renderCharge } from '../src/subscription-charges/api-shape.js';
import { decodeContractRevert, type ChargeInput, type ChargeResult, type SubscriptionChain } from '../src/subscriptions/chain.js';
import { permanentFailure, PERMANENT_FAILURES } from '../src/temporal/failures.js';
import * as repo from '../src/subscriptions/repo.js';
import { renderSubscription } from '../src/subscriptions/api-shape.js';
import { businessNow } from '../src/test-clocks/business-time.js';
import { clampGraceToWindow, windowLeftHours } from '../src/subscriptions/grace-clamp.js';
import { discountOnPlan } from '../src/coupons/discount-amount.js';
import { chargedWithProrations } from '../src/subscription-plan-changes/proration.js';
import { claimProrations } from '../src/subscription-plan-changes/repo.js';
import { countDiscountedPeriod } from '../src/discounts/charged-period.js';
import { trialEndUpdate } from '../src/subscriptions/trial-end.js';
import { finalUsageWindow, type UsageCloser } from '../src/billing-meters/period-close.js';
import type { ThresholdBiller } from '../src/billing-meters/usage-threshold.js';

export type SubscriptionActivityDeps = {
  sql: Sql;
  subscriptionChain: SubscriptionChain;
  events: EventDispatcher;
  /** Closes a metered subscription's period (src/billing-meters/period-close.ts); absent: metered charges fail and retry. */
  usageCloser?: UsageCloser;
  /** Bills usage that reached a plan's threshold (src/billing-meters/usage-threshold.ts); absent: the sweep fails and retries. */
  thresholdBiller?: ThresholdBiller;
};

export type ChargeAttempt =
  /**
   * `contractAddress`: the subscription's own manager (v1 or v2), where its charge goes; `subscriberAddress`
   * and `tokenAddress`: whose allowance its batch reads back (absent in runs recorded before they were returned).
   */
  | {
      kind: 'charge';
      chargeId: string;
      alreadySucceeded: boolean;
      amount: string;
      onChainId: string;
      /** The period as the enrolment counts it (absent in runs recorded before replacements: the period index). */
      onChainPeriodIndex?: number;
      contractAddress: string;
      /** The subscription's chain, where its charge goes (absent in runs recorded before it was returned: the mode's first chain). */
      chainId?: string;
      subscriberAddress?: string;
      tokenAddress?: string;
    }
  | { kind: 'closed'; status: 'cancelled' | 'lapsed' | 'completed'; cancelledBy: repo.CancelledBy | null; cancelReason: string | null }
  /** The merchant paused the subscription: this period is skipped, never charged. */
  | { kind: 'paused' };

/**
 * A contract revert that reached the activity is final: the charge and cancel paths turn every
 * revert a retry could change (balance, allowance, period not started, already cancelled) into a
 * result first. Transport errors (no revert data) stay retryable.
 */
function finalRevert(error: unknown): never {
  const revert = decodeContractRevert(error);
  if (revert)
    throw permanentFailure(
      PERMANENT_FAILURES.contractRevertedFinal,
      `the contract refused the call: ${revert.errorName}`,
      revert.errorName,
    );
  throw error;
}

/** An on-chain subscription id is a decimal uint256; anything else can never be charged or cancelled. */
const isOnChainId = (onChainId: string): boolean => /^\d{1,78}$/.test(onChainId);

function checkOnChainId(onChainId: string): void {
  if (!isOnChainId(onChainId)) throw permanentFailure(PERMANENT_FAILURES.invalidAddress, `not an on-chain subscription id: ${onChainId}`);
}

/**
 * Heartbeats while `work` runs, so a worker that dies mid-call is noticed within the heartbeat timeout.
 * A local activity has no heartbeat: its workflow task's timeout notices a dead worker instead.
 */
export async function heartbeating<T>(work: () => Promise<T>): Promise<T> {
  const context = Context.current();
  if (context.info.isLocal) return work();
  context.heartbeat();
  const timer = setInterval(() => context.heartbeat(), 2_000);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

export function createSubscriptionActivities({ sql, subscriptionChain, events, usageCloser, thresholdBiller }: SubscriptionActivityDeps) {
  const load = async (db: Db, id: string, forUpdate = false) => {
    const row = await repo.findSubscriptionById(db, id, { forUpdate });
    if (!row) throw permanentFailure(PERMANENT_FAILURES.subscriptionNotFound, `subscription ${id} does not exist`);
    return row;
  };

  /** Moves a subscription to a terminal status with its event, in one transaction; a no-op (no second event) when already terminal. */
  const endSubscription = async (
    subscriptionId: string,
    update: Parameters<typeof repo.updateSubscription>[2],
    type: 'subscription.cancelled' | 'subscription.lapsed',
  ): Promise<{ changed: boolean }> => {
    const changed = await commitWithEvents(sql, events, async (tx, record) => {
      const sub = await load(tx, subscriptionId, true);
      if (!(await repo.updateSubscription(tx, sub.id, update))) return false;
      await record({
        merchantId: sub.merchantId,
        livemode: sub.livemode,
        type,
        data: { object: renderSubscription(await load(tx, sub.id)) },
      });
      return true;
    });
    return { changed };
  };

  /**
   * The scheduled cancel of a subscription set to cancel at the period end, with its event; null when it
   * was undone (or the subscription ended) meanwhile: the row is locked and the flag read again.
   */
  const cancelAtPeriodEnd = async (
    subscriptionId: string,
  ): Promise<{ cancelledBy: repo.CancelledBy; cancelReason: string | null } | null> =>
    commitWithEvents(sql, events, async (tx, record) => {
      const sub = await load(tx, subscriptionId, true);
      if (!sub.cancelAtPeriodEnd || repo.TERMINAL_STATUSES.includes(sub.status)) return null;
      const cancelledBy = sub.cancellationRequestedBy ?? 'merchant';
      const update = {
        status: 'cancelled' as const,
        cancelReason: sub.cancellationReason,
        cancelledBy,
        cancelledAt: await businessNow(tx, sub),
        nextChargeAt: null,
        atRiskSince: null,
      };
      await repo.updateSubscription(tx, sub.id, update);
      await record({
        merchantId: sub.merchantId,
        livemode: sub.livemode,
        type: 'subscription.cancelled',
        data: { object: renderSubscription(await load(tx, sub.id)) },
      });
      return { cancelledBy, cancelReason: sub.cancellationReason };
    });

  type AttemptInput = { periodIndex: number; periodStart: string; attempt: number };

  /** The charge row of this attempt at `amount` (the first attempt's amount and discount stay: upsertChargeAttempt). */
  const attemptRow = (
    sub: repo.SubscriptionRow,
    input: AttemptInput,
    amount: string,
    discount: { id: string; amountOff: string } | null,
  ) => ({
    id: newId('subscriptionCharge'),
    merchantId: sub.merchantId,
    livemode: sub.livemode,
    subscriptionId: sub.id,
    periodIndex: input.periodIndex,
    periodStart: new Date(input.periodStart),
    amount,
    attempt: input.attempt,
    discount,
  });

  /** A fixed plan's attempt: the plan's price (discounted, with prorations) up to the cap. */
  const recordFixedAttempt = async (sub: repo.SubscriptionRow, input: AttemptInput) => {
    // The discount is read here, at charge time, from the subscription's open discount: the workflow's
    // commands do not change. The first attempt fixes the period's amount; a retry keeps it.
    // The price is the current plan's (a plan change may have lowered it, or raised it within the cap).
    const price = sub.priceAmount ?? sub.amount;
    // A coupon restricted to other plans (the subscription changed plan) takes nothing off.
    const discounted = sub.discount ? discountOnPlan(sub.planId, BigInt(price), sub.discount) : null;
    // An upgrade's proration rides on the next period's pull, never past the cap (src/subscription-plan-changes).
    const amount = chargedWithProrations(
      discounted ? discounted.charged : BigInt(price),
      await claimProrations(sql, sub.id, input.periodIndex),
      BigInt(sub.amount),
    );
    const discount = sub.discount && discounted ? { id: sub.discount.id, amountOff: discounted.discount.toString() } : null;
    return chargeRepo.upsertChargeAttempt(sql, attemptRow(sub, input, amount.toString(), discount));
  };

  /**
   * A metered plan's attempt: the first closes the period (its fixed price, the usage of the period before, up to
   * the cap; src/billing-meters/period-close.ts) with the charge row in one transaction; a retry reads the frozen close.
   */
  const recordMeteredAttempt = async (sub: repo.SubscriptionRow, input: AttemptInput) => {
    if (!usageCloser) throw new Error('metered subscriptions need the usage closer (activities/index.ts)');
    return usageCloser.closeWithCharge(sub.id, input.periodIndex, (tx, close, discount) =>
      chargeRepo.upsertChargeAttempt(tx, attemptRow(sub, input, close.charged, discount)),
    );
  };

  return {
    /** Creates (or re-reads) the charge row of a period and counts this attempt. */
    async recordChargeAttempt(input: {
      subscriptionId: string;
      periodIndex: number;
      periodStart: string;
      attempt: number;
    }): Promise<ChargeAttempt> {
      const sub = await load(sql, input.subscriptionId);
      if (sub.status === 'cancelled' || sub.status === 'lapsed' || sub.status === 'completed') {
        return { kind: 'closed', status: sub.status, cancelledBy: sub.cancelledBy, cancelReason: sub.cancelReason };
      }
      // A cancel set for the period end happens as the next period comes due, paused or not.
      if (sub.cancelAtPeriodEnd) {
        const cancelled = await cancelAtPeriodEnd(sub.id);
        if (cancelled)
          return { kind: 'closed', status: 'cancelled', cancelledBy: cancelled.cancelledBy, cancelReason: cancelled.cancelReason };
      }
      if (sub.status === 'paused') return { kind: 'paused' };
      const charge = sub.metered ? await recordMeteredAttempt(sub, input) : await recordFixedAttempt(sub, input);
      // A replacement enrolment (an upgrade the customer authorised) counts its periods from its own start.
      const onChainPeriodIndex = input.periodIndex - sub.onChainPeriodOffset;
      // Not reached: a replacement applies only once every period before its start is settled (reauthorisation.ts).
      if (onChainPeriodIndex < 0 && charge.status !== 'succeeded') {
        throw permanentFailure(
          PERMANENT_FAILURES.invalidAddress,
          `period ${input.periodIndex} precedes the enrolment that replaced this subscription's (from period ${sub.onChainPeriodOffset})`,
        );
      }
      return {
        kind: 'charge',
        chargeId: charge.id,
        alreadySucceeded: charge.status === 'succeeded',
        amount: charge.amount,
        onChainId: sub.onChainId,
        onChainPeriodIndex,
        contractAddress: sub.contractAddress,
        chainId: sub.chainId,
        subscriberAddress: sub.subscriberAddress,
        tokenAddress: sub.tokenAddress,
      };
    },

    /** The on-chain charge: idempotent per (id, period) through the contract's guard. */
    async chargeOnChain(input: ChargeInput): Promise<ChargeResult> {
      checkOnChainId(input.onChainId);
      return heartbeating(() => subscriptionChain.charge(input)).catch(finalRevert);
    },

    async recordChargeSucceeded(input: {
      subscriptionId: string;
      chargeId: string;
      periodIndex: number;
      txHash: string | null;
      blockNumber: string | null;
      nextChargeAt: string | null;
    }): Promise<void> {
      // Two updates and, the first time, the event: issue 42 ("the success recorded in one or two statements").
      await commitWithEvents(sql, events, async (tx, record) => {
        // The subscription row first, as every other writer locks it before its charges.
        // The workflow sends the calendar start; the charge waits for the contract's when later (v2).
        const updated =
          (await repo.markPeriodCharged(tx, input.subscriptionId, {
            periodIndex: input.periodIndex,
            calendarNext: input.nextChargeAt ? new Date(input.nextChargeAt) : null,
          })) ?? (await load(tx, input.subscriptionId)); // already terminal: unchanged, still named in the event
        const charge =
          input.txHash !== null && input.blockNumber !== null
            ? await chargeRepo.markChargeSucceeded(tx, input.chargeId, { txHash: input.txHash, blockNumber: input.blockNumber })
            : undefined;
        if (!charge) return;
        // A period charged under a discount counts toward its duration, once (the charge turned succeeded just now).
        const afterDiscount = charge.discount ? await countDiscountedPeriod(tx, record, updated, charge.discount.id) : updated;
        await record({
          merchantId: updated.merchantId,
          livemode: updated.livemode,
          type: 'subscription.charged',
          data: { object: renderCharge(charge), subscription: renderSubscription(afterDiscount) },
        });
      });
    },

    /**
     * Records a refused attempt and moves the subscription to at_risk; returns the merchant's grace
     * window, on v2 clamped to what is left of the period's charge window (grace-clamp.ts).
     */
    async recordChargeFailed(input: {
      subscriptionId: string;
      chargeId: string;
      attempt: number;
      failureCode: string;
      failureReason: string;
      /** The workflow's time (its test clock's on a clock): the window is measured from it. Absent in older runs. */
      nowMs?: number;
    }): Promise<{
      gracePeriodHours: number;
      windowLeftHours: number | null;
      /** The plan's trialEndBehavior ended the trial's refused first charge this way (absent: dunning, as before). */
      trialEnd?: { status: 'cancelled' | 'paused'; cancelReason: string | null };
    }> {
      // The window is read before the transaction (no chain call inside one); it never changes.
      // A malformed id (a corrupt row, refused by the charge for good) has no window to read.
      const before = await load(sql, input.subscriptionId);
      const window =
        subscriptionChain.chargeWindow && isOnChainId(before.onChainId)
          ? await subscriptionChain.chargeWindow({
              livemode: before.livemode,
              chainId: before.chainId,
              onChainId: before.onChainId,
              contractAddress: before.contractAddress,
            })
          : null;
      return commitWithEvents(sql, events, async (tx, record) => {
        const sub = await load(tx, input.subscriptionId, true);
        const charge = await chargeRepo.findChargeById(tx, input.chargeId);
        // The current enrolment's own calendar: a replacement's period 0 is the subscription's period at its offset.
        const periodWindow = {
          firstPeriodStart: sub.onChainFirstPeriodStart ?? sub.firstPeriodStart,
          periodSeconds: Number(sub.periodSeconds),
          chargeWindowSeconds: window === null ? null : Number(window),
          periodIndex: charge!.periodIndex - sub.onChainPeriodOffset,
          now: input.nowMs === undefined ? await businessNow(tx, sub) : new Date(input.nowMs),
        };
        const gracePeriodHours = clampGraceToWindow({
          ...periodWindow,
          gracePeriodHours: await findSubscriptionGracePeriodHours(tx, sub.merchantId),
        });
        // The recovery agent's own grace (workflows/subscription.ts) is clamped to the same window.
        const windowLeft = windowLeftHours(periodWindow);
        const changed = await chargeRepo.markChargeFailed(tx, input.chargeId, {
          attempt: input.attempt,
          failureCode: input.failureCode,
          failureReason: input.failureReason,
        });
        if (!changed) return { gracePeriodHours, windowLeftHours: windowLeft };
        // A trial's refused first charge follows the plan's trialEndBehavior (src/subscriptions/trial-end.ts).
        const trialEnd = await trialEndUpdate(tx, sub, { periodIndex: charge!.periodIndex, failureCode: input.failureCode });
        await repo.updateSubscription(
          tx,
          sub.id,
          trialEnd
            ? { ...trialEnd.update, ...(trialEnd.status === 'cancelled' ? { cancelledAt: await businessNow(tx, sub) } : {}) }
            : { status: 'at_risk', atRiskSince: sub.atRiskSince ?? (await businessNow(tx, sub)) },
        );
        const failedCharge = await chargeRepo.findChargeById(tx, input.chargeId);
        const updated = await load(tx, sub.id);
        await record({
          merchantId: sub.merchantId,
          livemode: sub.livemode,
          type: 'subscription.charge_failed',
          data: { object: renderCharge(failedCharge!), subscription: renderSubscription(updated) },
        });
        if (trialEnd?.status === 'cancelled')
          await record({
            merchantId: sub.merchantId,
            livemode: sub.livemode,
            type: 'subscription.cancelled',
            data: { object: renderSubscription(updated) },
          });
        return {
          gracePeriodHours,
          windowLeftHours: windowLeft,
          ...(trialEnd ? { trialEnd: { status: trialEnd.status, cancelReason: trialEnd.update.cancelReason ?? null } } : {}),
        };
      });
    },

    /** subscription.trial_will_end of a subscription still trialing, once (the notice's timestamp guards it). */
    async noteTrialWillEnd(input: { subscriptionId: string }): Promise<{ recorded: boolean }> {
      const recorded = await commitWithEvents(sql, events, async (tx, record) => {
        const sub = await load(tx, input.subscriptionId, true);
        if (!(await repo.markTrialWillEndNoticed(tx, sub.id))) return false;
        await record({
          merchantId: sub.merchantId,
          livemode: sub.livemode,
          type: 'subscription.trial_will_end',
          data: { object: renderSubscription(sub) },
        });
        return true;
      });
      return { recorded };
    },

    /** Terminal cancel in the read model; a no-op (and no second event) when already terminal. */
    async markSubscriptionCancelled(input: {
      subscriptionId: string;
      reason: string | null;
      by: repo.CancelledBy;
    }): Promise<{ changed: boolean }> {
      const cancelledAt = await businessNow(sql, await load(sql, input.subscriptionId));
      return endSubscription(
        input.subscriptionId,
        { status: 'cancelled', cancelReason: input.reason, cancelledBy: input.by, cancelledAt, nextChargeAt: null, atRiskSince: null },
        'subscription.cancelled',
      );
    },

    /**
     * When a cancelled metered subscription's last usage is to be closed (its window's end plus the plan's usage
     * grace, epoch ms); null when there is nothing to close (a fixed plan, never charged, or already closed).
     */
    async finalUsageCloseAt(input: { subscriptionId: string }): Promise<{ closeAtMs: number | null }> {
      const final = await finalUsageWindow(sql, input.subscriptionId);
      return { closeAtMs: final ? final.closeAt.getTime() : null };
    },

    /** Closes and invoices a cancelled metered subscription's last usage, once (src/billing-meters/period-close.ts). */
    async closeFinalUsage(input: { subscriptionId: string }): Promise<{ closeId: string | null }> {
      if (!usageCloser) throw new Error('metered subscriptions need the usage closer (activities/index.ts)');
      return { closeId: (await usageCloser.closeFinalUsage(input.subscriptionId))?.id ?? null };
    },

    /**
     * One page of the usage threshold sweep (workflows/usage-threshold-sweep.ts): bills each subscription whose
     * unbilled usage up to `nowMs` (the sweep's time) reached its plan's threshold. Idempotent: again at the same time
     * it bills nothing more.
     */
    async billUsageThresholds(input: {
      nowMs: number;
      afterId: string | null;
      limit: number;
    }): Promise<{ billed: number; nextAfterId: string | null }> {
      if (!thresholdBiller) throw new Error('the usage threshold sweep needs the threshold biller (activities/index.ts)');
      const ids = await thresholdBiller.candidates(input);
      let billed = 0;
      for (const id of ids) if (await thresholdBiller.billUsageThreshold(id, input.nowMs)) billed++;
      return { billed, nextAfterId: ids.length < input.limit ? null : ids.at(-1)! };
    },

    async markSubscriptionLapsed(input: { subscriptionId: string }): Promise<{ changed: boolean }> {
      const lapsedAt = await businessNow(sql, await load(sql, input.subscriptionId));
      return endSubscription(input.subscriptionId, { status: 'lapsed', lapsedAt, nextChargeAt: null }, 'subscription.lapsed');
    },

    /** All authorised periods charged. The spec names no event for it. */
    async markSubscriptionCompleted(input: { subscriptionId: string }): Promise<void> {
      const completedAt = await businessNow(sql, await load(sql, input.subscriptionId));
      await repo.updateSubscription(sql, input.subscriptionId, { status: 'completed', completedAt, nextChargeAt: null, atRiskSince: null });
    },

    /** The read model's status (the on-chain cancel of a completed subscription waits for the api's record). */
    async readSubscriptionStatus(input: { subscriptionId: string }): Promise<repo.SubscriptionStatus> {
      return (await load(sql, input.subscriptionId)).status;
    },

    /** The operator's on-chain cancel; idempotent (a cancelled subscription is left as it is). */
    async cancelSubscriptionOnChain(input: { subscriptionId: string }): Promise<{ txHash: string | null }> {
      const sub = await load(sql, input.subscriptionId);
      if (sub.onChainCancelledAt) return { txHash: null };
      checkOnChainId(sub.onChainId);
      const result = await heartbeating(() =>
        subscriptionChain.cancel({
          livemode: sub.livemode,
          chainId: sub.chainId,
          onChainId: sub.onChainId,
          contractAddress: sub.contractAddress,
        }),
      ).catch(finalRevert);
      await repo.updateSubscription(sql, sub.id, { onChainCancelledAt: new Date() }, { notIn: [] });
      return { txHash: result.txHash };
    },
  };
}

export type SubscriptionActivities = ReturnType<typeof createSubscriptionActivities>;
