// SQL for subscriptions (the read model the workflow keeps up to date).
import type { Db } from '../db/client.js';
import { createdRangeSql, lowerPrefixPattern, type CreatedRange } from '../http/list-filters.js';
import type { MerchantScope } from '../http/principal.js';
import { metadataSql } from '../http/metadata.js';
import type { PlanRow } from '../subscription-plans/repo.js';

export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'at_risk', 'paused', 'cancelled', 'lapsed', 'completed'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** Statuses in which the subscription's workflow has ended: nothing is charged any more. */
export const TERMINAL_STATUSES: readonly SubscriptionStatus[] = ['cancelled', 'lapsed', 'completed'];
/** The spec's terminal statuses: nothing moves a subscription out of them, not even a cancel. */
export const FINAL_STATUSES: readonly SubscriptionStatus[] = ['cancelled', 'lapsed'];
export type CancelledBy = 'merchant' | 'subscriber' | 'operator' | 'system';
/** Who may ask for a cancel (now or at the period end): the merchant, or the customer (portal). */
export type CancellationRequester = 'merchant' | 'subscriber';
export const CANCELLATION_FEEDBACK = [
  'customer_service',
  'low_quality',
  'missing_features',
  'other',
  'switched_service',
  'too_complex',
  'too_expensive',
  'unused',
] as const;
export type CancellationFeedback = (typeof CANCELLATION_FEEDBACK)[number];

export type SubscriptionRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  planId: string;
  customerId: string;
  customerWalletAddress: string;
  customerEmail: string | null;
  status: SubscriptionStatus;
  chainId: string;
  contractAddress: string;
  onChainId: string;
  /** The period index of the current enrolment's period 0 (a replacement enrolment's start; 0 otherwise): migration 00047. */
  onChainPeriodOffset: number;
  /** The current enrolment's own period 0 start; null: firstPeriodStart (never replaced). */
  onChainFirstPeriodStart: Date | null;
  subscriberAddress: string;
  tokenAddress: string;
  amount: string;
  periodSeconds: string;
  periods: number;
  firstPeriodStart: Date;
  trialEnd: Date | null;
  currentPeriodIndex: number | null;
  nextChargeAt: Date | null;
  atRiskSince: Date | null;
  cancelReason: string | null;
  cancelledBy: CancelledBy | null;
  cancelledAt: Date | null;
  onChainCancelledAt: Date | null;
  lapsedAt: Date | null;
  completedAt: Date | null;
  /** A cancel scheduled for the next period's start (cancelAt); the charge then cancels instead. */
  cancelAtPeriodEnd: boolean;
  cancelAt: Date | null;
  cancellationRequestedBy: CancellationRequester | null;
  cancellationReason: string | null;
  cancellationFeedback: CancellationFeedback | null;
  createdTxHash: string | null;
  metadata: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
  /** The open discount (src/discounts), with its coupon's terms and the plan's schedule; null: none. */
  discount: OpenDiscount | null;
  /** What a period charges before a discount (src/subscription-plan-changes); null: `amount`. */
  priceAmount: string | null;
  /** Its plan has metered prices: each period start closes the usage of the period before (src/billing-meters/period-close.ts). */
  metered?: boolean;
  /** The cut of a threshold bill: usage before it is billed, every later usage window starts there (period-close.ts). */
  usageBilledUntil?: Date | null;
  /** The plan change waiting on the subscription (json: dates are ISO strings); null: none. */
  pendingPlanChange: PendingPlanChange | null;
};

/** A waiting plan change as the row carries it (src/subscription-plan-changes). */
export type PendingPlanChange = {
  id: string;
  fromPlanId: string;
  toPlanId: string;
  fromAmount: string;
  toAmount: string;
  status: 'scheduled' | 'requires_customer_action';
  prorationBehavior: 'create_prorations' | 'none';
  prorationAmount: string;
  effectiveAt: string | null;
  createdAt: string;
  /** The hosted approval page of a change that requires_customer_action (migration 00047); null otherwise. */
  hostedUrl: string | null;
};

/** The open discount of a subscription as the row carries it (json: dates are ISO strings). */
export type OpenDiscount = {
  id: string;
  couponId: string;
  promotionCodeId: string | null;
  startedAt: string;
  periodsApplied: number;
  name: string | null;
  percentOffBp: number | null;
  amountOff: string | null;
  duration: 'once' | 'repeating' | 'forever';
  durationInPeriods: number | null;
  /** The coupon's plan restriction; null: every plan. */
  appliesToPlanIds: string[] | null;
  interval: PlanRow['interval'];
  intervalCount: number;
};

const columns = (db: Db) =>
  db`s.id, s.merchant_id as "merchantId", s.livemode, s.plan_id as "planId", s.customer_id as "customerId",
     c.wallet_address as "customerWalletAddress", c.email as "customerEmail", s.status,
     s.chain_id::text as "chainId", s.contract_address as "contractAddress", s.on_chain_id::text as "onChainId",
     s.on_chain_period_offset as "onChainPeriodOffset", s.on_chain_first_period_start as "onChainFirstPeriodStart",
     s.subscriber_address as "subscriberAddress", s.token_address as "tokenAddress", s.amount::text as amount,
     s.period_seconds::text as "periodSeconds", s.periods, s.first_period_start as "firstPeriodStart", s.trial_end as "trialEnd",
     s.current_period_index as "currentPeriodIndex", s.next_charge_at as "nextChargeAt", s.at_risk_since as "atRiskSince",
     s.cancel_reason as "cancelReason", s.cancelled_by as "cancelledBy", s.cancelled_at as "cancelledAt",
     s.on_chain_cancelled_at as "onChainCancelledAt", s.lapsed_at as "lapsedAt", s.completed_at as "completedAt",
     s.cancel_at_period_end as "cancelAtPeriodEnd", s.cancel_at as "cancelAt",
     s.cancellation_requested_by as "cancellationRequestedBy", s.cancellation_reason as "cancellationReason",
     s.cancellation_feedback as "cancellationFeedback",
     s.created_tx_hash as "createdTxHash", s.metadata, s.created_at as "createdAt", s.updated_at as "updatedAt",
     (select json_build_object('id', d.id, 'couponId', k.id, 'promotionCodeId', d.promotion_code_id, 'startedAt', d.started_at,
        'periodsApplied', d.periods_applied, 'name', k.name, 'percentOffBp', k.percent_off_bp, 'amountOff', k.amount_off::text,
        'duration', k.duration, 'durationInPeriods', k.duration_in_periods, 'appliesToPlanIds', k.applies_to_plan_ids, 'interval', p.interval, 'intervalCount', p.interval_count)
      from subscription_discounts d join coupons k on k.id = d.coupon_id join subscription_plans p on p.id = s.plan_id
      where d.subscription_id = s.id and d.ended_at is null) as discount,
     s.price_amount::text as "priceAmount",
     (select p.metered_prices is not null from subscription_plans p where p.id = s.plan_id) as metered,
     s.usage_billed_until as "usageBilledUntil",
     (select json_build_object('id', pc.id, 'fromPlanId', pc.from_plan_id, 'toPlanId', pc.to_plan_id,
        'fromAmount', pc.from_amount::text, 'toAmount', pc.to_amount::text, 'status', pc.status,
        'prorationBehavior', pc.proration_behavior, 'prorationAmount', pc.proration_amount::text,
        'effectiveAt', pc.effective_at, 'createdAt', pc.created_at,
        'hostedUrl', (select r.hosted_url from subscription_reauthorisations r where r.plan_change_id = pc.id and r.status = 'pending'))
      from subscription_plan_changes pc
      where pc.subscription_id = s.id and pc.status in ('scheduled', 'requires_customer_action')) as "pendingPlanChange"`;

export type NewSubscription = Pick<
  SubscriptionRow,
  | 'id'
  | 'merchantId'
  | 'livemode'
  | 'planId'
  | 'customerId'
  | 'status'
  | 'chainId'
  | 'contractAddress'
  | 'onChainId'
  | 'subscriberAddress'
  | 'tokenAddress'
  | 'amount'
  | 'periodSeconds'
  | 'periods'
  | 'firstPeriodStart'
  | 'trialEnd'
  | 'createdTxHash'
> & { nextChargeAt: Date; /** A metered plan's fixed amount (amount is then the cap authorised); absent: amount. */ priceAmount?: string };

/** Inserts unless the on-chain subscription is already projected; returns the row and whether it was new. */
export async function insertSubscriptionIfAbsent(db: Db, s: NewSubscription): Promise<{ id: string; created: boolean }> {
  const inserted = await db<{ id: string }[]>`
    insert into subscriptions (id, merchant_id, livemode, plan_id, customer_id, status, chain_id, contract_address, on_chain_id,
      subscriber_address, token_address, amount, period_seconds, periods, first_period_start, trial_end, next_charge_at, created_tx_hash,
      price_amount)
    values (${s.id}, ${s.merchantId}, ${s.livemode}, ${s.planId}, ${s.customerId}, ${s.status}, ${s.chainId},
      ${s.contractAddress.toLowerCase()}, ${s.onChainId}, ${s.subscriberAddress.toLowerCase()}, ${s.tokenAddress.toLowerCase()},
      ${s.amount}, ${s.periodSeconds}, ${s.periods}, ${s.firstPeriodStart}, ${s.trialEnd}, ${s.nextChargeAt}, ${s.createdTxHash},
      ${s.priceAmount ?? null})
    on conflict (livemode, chain_id, contract_address, on_chain_id) do nothing
    returning id`;
  if (inserted[0]) return { id: inserted[0].id, created: true };
  const [existing] = await db<{ id: string }[]>`
    select id from subscriptions
    where livemode = ${s.livemode} and chain_id = ${s.chainId} and contract_address = ${s.contractAddress.toLowerCase()}
      and on_chain_id = ${s.onChainId}`;
  return { id: existing!.id, created: false };
}

export async function findSubscriptionByOnChainId(
  db: Db,
  key: { livemode: boolean; chainId: string; contractAddress: string; onChainId: string },
): Promise<SubscriptionRow | undefined> {
  const [row] = await db<SubscriptionRow[]>`
    select ${columns(db)} from subscriptions s join customers c on c.id = s.customer_id
    where s.livemode = ${key.livemode} and s.chain_id = ${key.chainId} and s.contract_address = ${key.contractAddress.toLowerCase()}
      and s.on_chain_id = ${key.onChainId}`;
  return row;
}

/** Active-ish subscriptions paid by a wallet in a mode (top-up routing). */
/** `chainId`: only the subscriptions on that chain (funds on one chain pay nothing on another); absent: every chain. */
export async function findOpenSubscriptionIdsBySubscriber(
  db: Db,
  livemode: boolean,
  subscriber: string,
  chainId?: number,
): Promise<string[]> {
  const rows = await db<{ id: string }[]>`
    select id from subscriptions
    where livemode = ${livemode} and subscriber_address = ${subscriber.toLowerCase()} and status = 'at_risk'
      ${chainId === undefined ? db`` : db`and chain_id = ${chainId}`}
    order by id`;
  return rows.map((r) => r.id);
}

export async function findSubscription(
  db: Db,
  scope: MerchantScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<SubscriptionRow | undefined> {
  const [row] = await db<SubscriptionRow[]>`
    select ${columns(db)} from subscriptions s join customers c on c.id = s.customer_id
    where s.id = ${id} and s.merchant_id = ${scope.merchantId} and s.livemode = ${scope.livemode}
    ${options.forUpdate ? db`for update of s` : db``}`;
  return row;
}

/** By id alone (the worker's activities, which act for the workflow of that id). */
export async function findSubscriptionById(
  db: Db,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<SubscriptionRow | undefined> {
  const [row] = await db<SubscriptionRow[]>`
    select ${columns(db)} from subscriptions s join customers c on c.id = s.customer_id
    where s.id = ${id}
    ${options.forUpdate ? db`for update of s` : db``}`;
  return row;
}

export async function listSubscriptions(
  db: Db,
  scope: MerchantScope,
  filter: CreatedRange & {
    status?: SubscriptionStatus;
    planId?: string;
    chainId?: number;
    q?: string;
    metadata?: Record<string, string>;
    before?: string;
    limit: number;
  },
): Promise<SubscriptionRow[]> {
  return db<SubscriptionRow[]>`
    select ${columns(db)} from subscriptions s join customers c on c.id = s.customer_id
    where s.merchant_id = ${scope.merchantId} and s.livemode = ${scope.livemode}
      ${filter.status ? db`and s.status = ${filter.status}` : db``}
      ${filter.planId ? db`and s.plan_id = ${filter.planId}` : db``}
      ${filter.chainId === undefined ? db`` : db`and s.chain_id = ${filter.chainId}`}
      ${metadataSql(db, 's.metadata', filter.metadata)}
      ${createdRangeSql(db, 's.created_at', filter)}
      ${
        filter.q
          ? db`and (s.id = ${filter.q} or lower(s.subscriber_address) = ${filter.q.toLowerCase()}
        or s.created_tx_hash = ${filter.q} or lower(c.email) like ${lowerPrefixPattern(filter.q)})`
          : db``
      }
      ${filter.before ? db`and s.id < ${filter.before}` : db``}
    order by s.id desc limit ${filter.limit + 1}`;
}

/** The merchant's metadata, in any status (Stripe keeps it editable on ended subscriptions too). */
export async function setSubscriptionMetadata(db: Db, id: string, metadata: Record<string, string>): Promise<void> {
  await db`update subscriptions set metadata = ${db.json(metadata)}, updated_at = now() where id = ${id}`;
}

export type SubscriptionUpdate = Partial<{
  status: SubscriptionStatus;
  currentPeriodIndex: number | null;
  nextChargeAt: Date | null;
  atRiskSince: Date | null;
  cancelReason: string | null;
  cancelledBy: CancelledBy | null;
  cancelledAt: Date | null;
  onChainCancelledAt: Date | null;
  lapsedAt: Date | null;
  completedAt: Date | null;
  cancelAtPeriodEnd: boolean;
  cancelAt: Date | null;
  cancellationRequestedBy: CancellationRequester | null;
  cancellationReason: string | null;
  cancellationFeedback: CancellationFeedback | null;
}>;

const UPDATE_COLUMNS: Record<keyof SubscriptionUpdate, string> = {
  status: 'status',
  currentPeriodIndex: 'current_period_index',
  nextChargeAt: 'next_charge_at',
  atRiskSince: 'at_risk_since',
  cancelReason: 'cancel_reason',
  cancelledBy: 'cancelled_by',
  cancelledAt: 'cancelled_at',
  onChainCancelledAt: 'on_chain_cancelled_at',
  lapsedAt: 'lapsed_at',
  completedAt: 'completed_at',
  cancelAtPeriodEnd: 'cancel_at_period_end',
  cancelAt: 'cancel_at',
  cancellationRequestedBy: 'cancellation_requested_by',
  cancellationReason: 'cancellation_reason',
  cancellationFeedback: 'cancellation_feedback',
};

/**
 * Applies `update` unless the subscription is in a terminal status (or, with
 * `onlyFrom`, not in one of those statuses). Returns whether a row changed.
 */
export async function updateSubscription(
  db: Db,
  id: string,
  update: SubscriptionUpdate,
  guard: { notIn?: readonly SubscriptionStatus[] } = { notIn: TERMINAL_STATUSES },
): Promise<boolean> {
  const values: Record<string, unknown> = { updated_at: new Date() };
  for (const [key, column] of Object.entries(UPDATE_COLUMNS) as [keyof SubscriptionUpdate, string][]) {
    if (key in update) values[column] = update[key] ?? null;
  }
  const notIn = guard.notIn ?? [];
  const rows = await db`
    update subscriptions set ${db(values as Record<string, never>)}
    where id = ${id} ${notIn.length > 0 ? db`and status not in ${db(notIn as string[])}` : db``}
    returning id`;
  return rows.length > 0;
}

/**
 * Period `periodIndex` was charged: active again (a pause that arrived meanwhile stays), the period
 * recorded, the next charge at the later of `calendarNext` and the contract's start of the next
 * period (chargeDueAt in periods.ts, here in SQL so one statement does it), no longer at risk.
 * Returns the row, or undefined when it is missing or already terminal (then nothing changed).
 */
export async function markPeriodCharged(
  db: Db,
  id: string,
  input: { periodIndex: number; calendarNext: Date | null },
): Promise<SubscriptionRow | undefined> {
  const next = input.calendarNext;
  const [row] = await db<SubscriptionRow[]>`
    with updated as (
      update subscriptions
      set status = case when status = 'paused' then 'paused' else 'active' end,
          current_period_index = ${input.periodIndex},
          next_charge_at = ${
            next === null
              ? null
              : // The contract's start of the next period: of the current enrolment (a replacement starts at its offset).
                db`greatest(${next}::timestamptz, coalesce(on_chain_first_period_start, first_period_start)
                  + (((${input.periodIndex + 1}::bigint - on_chain_period_offset) * period_seconds)::float8 * interval '1 second'))`
          },
          at_risk_since = null, updated_at = now()
      where id = ${id} and status not in ${db(TERMINAL_STATUSES as readonly string[] as string[])}
      returning *)
    select ${columns(db)} from updated s join customers c on c.id = s.customer_id`;
  return row;
}

/** Notes that subscription.trial_will_end was recorded; false when it already was or the trial is over. */
export async function markTrialWillEndNoticed(db: Db, id: string): Promise<boolean> {
  const rows = await db`
    update subscriptions set trial_will_end_noticed_at = now(), updated_at = now()
    where id = ${id} and status = 'trialing' and trial_will_end_noticed_at is null
    returning id`;
  return rows.length > 0;
}

/** Plans of a merchant in a mode whose terms an enrolment could match (oldest first). */
export async function findPlansForTerms(
  db: Db,
  input: { merchantId: string; livemode: boolean; amount: string; chainId: number | undefined },
): Promise<PlanRow[]> {
  // A plan offered on some chains only matches an enrolment on one of them (null: every chain of the mode);
  // no chain id: the plans of every chain (the relay asks where a plan with these terms is offered).
  return db<PlanRow[]>`
    select id, merchant_id as "merchantId", livemode, name, amount::text as amount, currency, interval,
      interval_count as "intervalCount", trial_period_days as "trialPeriodDays", chain_ids::int[] as "chainIds", created_at as "createdAt",
      usage_cap::text as "usageCap"
    from subscription_plans
    -- A metered plan's enrolment authorises its usage cap (docs/metered-billing.md), a fixed plan's its amount.
    where merchant_id = ${input.merchantId} and livemode = ${input.livemode} and coalesce(usage_cap, amount) = ${input.amount}
      ${input.chainId === undefined ? db`` : db`and (chain_ids is null or ${input.chainId}::bigint = any(chain_ids))`}
    order by id`;
}
