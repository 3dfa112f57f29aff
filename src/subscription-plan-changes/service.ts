// Plan changes of a subscription (issue 40, item 1): the merchant moves a subscription to another plan
// of the same merchant, mode and interval. An upgrade within the amount the customer authorised on chain
// applies at once (its proration is collected with the next period's charge); a downgrade waits for the
// period's end (the workflow applies it before that period's charge, activities/subscription-plan-changes.ts);
// an upgrade above the authorised amount waits for the customer. The charge reads the price at charge time,
// so none of this needs a message to the workflow.
import { randomBytes } from 'node:crypto';
import type { Sql, Db } from '../db/client.js';
import { InvalidRequestError, InvalidStateError, NotFoundError } from '../errors.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { commitWithEvents, type RecordEvent } from '../events/commit.js';
import type { MerchantScope } from '../http/principal.js';
import { discountOnPlan } from '../coupons/discount-amount.js';
import { newId } from '../ids.js';
import { findPlan, findPlanById, type PlanRow } from '../subscription-plans/repo.js';
import { renderSubscription } from '../subscriptions/api-shape.js';
import * as subscriptionRepo from '../subscriptions/repo.js';
import type { Subscription } from '../subscriptions/schemas.js';
import { businessNow } from '../test-clocks/business-time.js';
import { renderPendingPlanChange, renderPlanChange } from './api-shape.js';
import { decidePlanChange } from './decide.js';
import * as repo from './repo.js';
import { cancelPendingReauthorisations, insertReauthorisation } from './reauthorisation-repo.js';
import { reauthorisationPagePath } from './reauthorisation-terms.js';
import type { ChangePlanBody } from './schemas.js';

/** Statuses a plan can be changed in: a paused or at_risk period's charge is unsettled, a terminal one has none. */
const CHANGEABLE: readonly subscriptionRepo.SubscriptionStatus[] = ['trialing', 'active'];

/** The subscription.updated event of a change, with what it changed (Stripe's previous_attributes). */
export async function recordPlanChangeEvent(
  tx: Db,
  record: RecordEvent,
  subscriptionId: string,
  change: repo.PlanChangeRow,
  previousAttributes: Record<string, unknown>,
): Promise<Subscription> {
  const updated = renderSubscription((await subscriptionRepo.findSubscriptionById(tx, subscriptionId))!);
  // A change waiting for the customer carries its approval link, as the subscription's pendingPlanChange does.
  const hostedUrl = updated.pendingPlanChange?.id === change.id ? updated.pendingPlanChange.hostedUrl : null;
  await record({
    merchantId: change.merchantId,
    livemode: change.livemode,
    type: 'subscription.updated',
    data: { object: updated, planChange: renderPlanChange(change, hostedUrl), previousAttributes },
  });
  return updated;
}

/**
 * The plan and price a change sets, with the open discount (if any) taken off the new price; none when
 * the discount's coupon is restricted to other plans (MRR then counts the full price).
 */
export function planSetting(sub: subscriptionRepo.SubscriptionRow, planId: string, priceAmount: string) {
  const discounted = sub.discount ? (discountOnPlan(planId, BigInt(priceAmount), sub.discount)?.charged.toString() ?? null) : null;
  return { planId, priceAmount, discountedAmount: discounted };
}

export type PlanChangeServiceDeps = {
  sql: Sql;
  events: EventDispatcher;
  /** The time off a test clock (default the wall clock; workflow tests pass the time-skipping server's). */
  now?: () => Date;
  /** Where the hosted approval page of an upgrade above the cap is served (absent: a path on this host). */
  publicBaseUrl?: string;
};

/**
 * Cancels the change waiting on a subscription, and with it the approval link of one that waited for the
 * customer (an enrolment signed through it afterwards binds to nothing: reauthorisation.ts).
 */
async function cancelOpenPlanChange(tx: Db, subscriptionId: string, at: Date) {
  await cancelPendingReauthorisations(tx, subscriptionId);
  return repo.cancelOpenPlanChange(tx, subscriptionId, at);
}

export function createPlanChangeService({ sql, events, now: wallNow, publicBaseUrl = '' }: PlanChangeServiceDeps) {
  const planNotUsable = (message: string) => new InvalidRequestError(message, { param: 'planId' });

  const checkTarget = (sub: subscriptionRepo.SubscriptionRow, current: PlanRow, target: PlanRow | undefined): PlanRow => {
    // Another merchant's or mode's plan is as unknown as a plan that does not exist.
    if (!target) throw planNotUsable('No such plan for this merchant and mode.');
    if (target.archivedAt) throw planNotUsable('The plan is archived: no subscription can move to it.');
    if (target.interval !== current.interval || target.intervalCount !== current.intervalCount) {
      throw planNotUsable(
        `The plan bills every ${target.intervalCount} ${target.interval} period(s); this subscription every ${current.intervalCount} ${current.interval}: only plans with the same interval are supported (the customer authorised the period on chain).`,
      );
    }
    if (target.currency !== current.currency) throw planNotUsable('The plan is in another currency.');
    // A metered plan bills the period before at each period start (src/billing-meters/period-close.ts): a change
    // between fixed and metered, or between metered plans, would bill usage under the wrong prices (issue 41).
    if (target.meteredPrices !== null || current.meteredPrices !== null)
      throw planNotUsable('Plan changes to or from a metered plan are not supported yet: subscribe the customer to the new plan instead.');
    if (target.chainIds !== null && !target.chainIds.includes(Number(sub.chainId))) {
      throw planNotUsable(`The plan is not offered on chain ${sub.chainId}, where this subscription is charged.`);
    }
    return target;
  };

  return {
    async change(scope: MerchantScope, subscriptionId: string, input: ChangePlanBody): Promise<Subscription> {
      if (input.prorationBehavior === 'always_invoice') {
        throw new InvalidRequestError(
          'always_invoice is not supported: the contract pulls at most once per period, so a proration is collected with the next period’s charge (create_prorations) or not at all (none).',
          { param: 'prorationBehavior' },
        );
      }
      const prorationBehavior = input.prorationBehavior;
      return commitWithEvents(sql, events, async (tx, record) => {
        const sub = await subscriptionRepo.findSubscription(tx, scope, subscriptionId, { forUpdate: true });
        if (!sub) throw new NotFoundError(`No such subscription: ${subscriptionId}.`, { param: 'id' });
        if (!CHANGEABLE.includes(sub.status)) {
          throw new InvalidStateError(`The plan of a ${sub.status} subscription cannot be changed; only trialing or active ones.`);
        }
        const now = await businessNow(tx, sub, wallNow);
        const currentAmount = sub.priceAmount ?? sub.amount;
        const waiting = sub.pendingPlanChange ? renderPendingPlanChange(sub.pendingPlanChange) : null;
        if (input.planId === sub.planId) {
          // The current plan back: cancels the change waiting, if there is one.
          const cancelled = await cancelOpenPlanChange(tx, sub.id, now);
          if (!cancelled) throw planNotUsable('The subscription is already on this plan and no plan change is waiting.');
          return recordPlanChangeEvent(tx, record, sub.id, cancelled, { pendingPlanChange: waiting });
        }
        const current = (await findPlanById(tx, sub.planId))!;
        const target = checkTarget(sub, current, await findPlan(tx, scope, input.planId));
        const decision = decidePlanChange({
          schedule: { anchor: sub.firstPeriodStart, interval: current.interval, intervalCount: current.intervalCount },
          periods: sub.periods,
          cap: BigInt(sub.amount),
          currentAmount: BigInt(currentAmount),
          newAmount: BigInt(target.amount),
          prorate: prorationBehavior === 'create_prorations',
          currentPeriodIndex: sub.currentPeriodIndex,
          now,
        });
        if (decision.kind === 'no_next_period') {
          throw new InvalidStateError(
            'The subscription is in its last authorised period: there is no next period for a downgrade to apply to.',
          );
        }
        // A new change replaces the one waiting (at most one waits).
        await cancelOpenPlanChange(tx, sub.id, now);
        const base = {
          id: newId('planChange'),
          merchantId: sub.merchantId,
          livemode: sub.livemode,
          subscriptionId: sub.id,
          fromPlanId: sub.planId,
          toPlanId: target.id,
          fromAmount: currentAmount,
          toAmount: target.amount,
          prorationBehavior,
          periodIndex: decision.periodIndex,
        } as const;
        const previous = { pendingPlanChange: waiting };
        if (decision.kind === 'applied') {
          const change = await repo.insertPlanChange(tx, {
            ...base,
            status: 'applied',
            effectivePeriodIndex: decision.periodIndex,
            effectiveAt: decision.effectiveAt,
            prorationAmount: decision.prorationAmount.toString(),
            appliedAt: now,
          });
          await repo.setSubscriptionPlan(tx, sub.id, planSetting(sub, target.id, target.amount));
          return recordPlanChangeEvent(tx, record, sub.id, change, { ...previous, planId: sub.planId, planAmount: currentAmount });
        }
        const change = await repo.insertPlanChange(tx, {
          ...base,
          status: decision.kind,
          effectivePeriodIndex: decision.kind === 'scheduled' ? decision.effectivePeriodIndex : null,
          effectiveAt: decision.kind === 'scheduled' ? decision.effectiveAt : null,
          prorationAmount: '0',
          appliedAt: null,
        });
        if (decision.kind === 'requires_customer_action') {
          // The customer's approval: a hosted page whose unguessable token is good for this change only.
          const token = randomBytes(32).toString('hex');
          await insertReauthorisation(tx, {
            planChangeId: change.id,
            merchantId: sub.merchantId,
            livemode: sub.livemode,
            subscriptionId: sub.id,
            token,
            hostedUrl: `${publicBaseUrl}${reauthorisationPagePath(change.id, token)}`,
            amount: target.amount,
          });
        }
        return recordPlanChangeEvent(tx, record, sub.id, change, previous);
      });
    },
  };
}

export type PlanChangeService = ReturnType<typeof createPlanChangeService>;
