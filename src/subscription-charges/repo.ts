// SQL for subscription charges: one row per (subscription, period), keyed by
// that pair, updated on every attempt.
import type { Db } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';

export type ChargeStatus = 'pending' | 'succeeded' | 'failed';

export type ChargeRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  subscriptionId: string;
  /** The chain the charge goes to: its subscription's. */
  chainId: number;
  periodIndex: number;
  periodStart: Date;
  amount: string;
  status: ChargeStatus;
  attempts: number;
  txHash: string | null;
  blockNumber: string | null;
  failureCode: string | null;
  failureReason: string | null;
  attemptedAt: Date | null;
  settledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** The plan's name at read time: the receipt's first line. */
  planName: string;
  /**
   * The discount line: the discount the period was charged under and what it took off; null: full amount.
   * `percentOffBp` / `couponAmountOff`: the coupon's terms, for the line's label.
   */
  discount: {
    id: string;
    couponId: string;
    promotionCodeId: string | null;
    name: string | null;
    amountOff: string;
    percentOffBp: number | null;
    couponAmountOff: string | null;
  } | null;
};

const columns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, subscription_id as "subscriptionId",
     coalesce(chain_id, (select s.chain_id from subscriptions s where s.id = subscription_id))::int as "chainId",
     period_index as "periodIndex",
     period_start as "periodStart", amount::text as amount, status, attempts, tx_hash as "txHash",
     block_number::text as "blockNumber", failure_code as "failureCode", failure_reason as "failureReason",
     attempted_at as "attemptedAt", settled_at as "settledAt", created_at as "createdAt", updated_at as "updatedAt",
     (select p.name from subscriptions s join subscription_plans p on p.id = s.plan_id
      where s.id = subscription_charges.subscription_id) as "planName",
     (select json_build_object('id', d.id, 'couponId', d.coupon_id, 'promotionCodeId', d.promotion_code_id, 'name', k.name,
        'amountOff', subscription_charges.discount_amount::text, 'percentOffBp', k.percent_off_bp,
        'couponAmountOff', k.amount_off::text)
      from subscription_discounts d join coupons k on k.id = d.coupon_id where d.id = subscription_charges.discount_id) as discount`;

/**
 * The charge of a period, created on the first attempt. Attempt `attempt` is
 * recorded once: a retried activity with the same attempt number changes nothing.
 */
export async function upsertChargeAttempt(
  db: Db,
  input: {
    id: string;
    merchantId: string;
    livemode: boolean;
    subscriptionId: string;
    periodIndex: number;
    periodStart: Date;
    amount: string;
    attempt: number;
    /** The discount line of the period, fixed by its first attempt (a retry keeps the amount it started with). */
    discount?: { id: string; amountOff: string } | null;
  },
): Promise<ChargeRow> {
  await db`
    insert into subscription_charges (id, merchant_id, livemode, subscription_id, chain_id, period_index, period_start, amount, status, attempts,
      attempted_at, discount_id, discount_amount)
    values (${input.id}, ${input.merchantId}, ${input.livemode}, ${input.subscriptionId},
            (select chain_id from subscriptions where id = ${input.subscriptionId}), ${input.periodIndex}, ${input.periodStart},
            ${input.amount}, 'pending', ${input.attempt}, now(), ${input.discount?.id ?? null}, ${input.discount?.amountOff ?? null})
    on conflict (subscription_id, period_index) do update
      set attempts = excluded.attempts, attempted_at = now(), updated_at = now(),
          status = case when subscription_charges.status = 'succeeded' then 'succeeded' else 'pending' end
      where subscription_charges.attempts < excluded.attempts and subscription_charges.status <> 'succeeded'`;
  const [row] = await db<ChargeRow[]>`
    select ${columns(db)} from subscription_charges where subscription_id = ${input.subscriptionId} and period_index = ${input.periodIndex}`;
  return row!;
}

/** Marks a charge succeeded; returns false when it already was (so its event is not recorded twice). */
/** Marks the charge succeeded and returns it; undefined when it already was (nothing changed). */
export async function markChargeSucceeded(
  db: Db,
  id: string,
  input: { txHash: string; blockNumber: string },
): Promise<ChargeRow | undefined> {
  const [row] = await db<ChargeRow[]>`
    update subscription_charges
    set status = 'succeeded', tx_hash = ${input.txHash}, block_number = ${input.blockNumber}, settled_at = now(), updated_at = now(),
        failure_code = null, failure_reason = null
    where id = ${id} and status <> 'succeeded'
    returning ${columns(db)}`;
  return row;
}

/** Marks attempt `attempt` failed; returns false when that attempt's failure was already recorded. */
export async function markChargeFailed(
  db: Db,
  id: string,
  input: { attempt: number; failureCode: string; failureReason: string },
): Promise<boolean> {
  const rows = await db`
    update subscription_charges
    set status = 'failed', failure_code = ${input.failureCode}, failure_reason = ${input.failureReason}, updated_at = now()
    where id = ${id} and status = 'pending' and attempts = ${input.attempt}
    returning id`;
  return rows.length > 0;
}

export async function findChargeById(db: Db, id: string): Promise<ChargeRow | undefined> {
  const [row] = await db<ChargeRow[]>`select ${columns(db)} from subscription_charges where id = ${id}`;
  return row;
}

export async function findCharge(db: Db, scope: MerchantScope, id: string): Promise<ChargeRow | undefined> {
  const [row] = await db<ChargeRow[]>`
    select ${columns(db)} from subscription_charges
    where id = ${id} and merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}`;
  return row;
}

export async function listCharges(
  db: Db,
  scope: MerchantScope,
  filter: { subscriptionId?: string; chainId?: number; before?: string; limit: number },
): Promise<ChargeRow[]> {
  return db<ChargeRow[]>`
    select ${columns(db)} from subscription_charges
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}
      ${filter.subscriptionId ? db`and subscription_id = ${filter.subscriptionId}` : db``}
      ${
        // A row written before charges carried their chain (fixtures) is on its subscription's, as the columns read it.
        filter.chainId === undefined
          ? db``
          : db`and coalesce(chain_id, (select s.chain_id from subscriptions s where s.id = subscription_id)) = ${filter.chainId}`
      }
      ${filter.before ? db`and id < ${filter.before}` : db``}
    order by id desc limit ${filter.limit + 1}`;
}
