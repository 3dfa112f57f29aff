// SQL of the customer's authorisations of upgrades above the on-chain cap (migration 00047).
import type { Db } from '../db/client.js';

export type ReauthorisationRow = {
  planChangeId: string;
  merchantId: string;
  livemode: boolean;
  subscriptionId: string;
  token: string;
  hostedUrl: string;
  status: 'pending' | 'applied' | 'cancelled';
  amount: string;
  periodIndex: number | null;
  firstPeriodStart: Date | null;
  enrolmentNonce: string | null;
  newOnChainId: string | null;
  replacedOnChainId: string | null;
  replacedContractAddress: string | null;
  replacedCancelledAt: Date | null;
};

const columns = (db: Db) =>
  db`plan_change_id as "planChangeId", merchant_id as "merchantId", livemode, subscription_id as "subscriptionId", token,
     hosted_url as "hostedUrl", status, amount::text as amount, period_index as "periodIndex",
     first_period_start as "firstPeriodStart", enrolment_nonce as "enrolmentNonce", new_on_chain_id::text as "newOnChainId",
     replaced_on_chain_id::text as "replacedOnChainId", replaced_contract_address as "replacedContractAddress",
     replaced_cancelled_at as "replacedCancelledAt"`;

export async function insertReauthorisation(
  db: Db,
  r: Pick<ReauthorisationRow, 'planChangeId' | 'merchantId' | 'livemode' | 'subscriptionId' | 'token' | 'hostedUrl' | 'amount'>,
): Promise<void> {
  await db`
    insert into subscription_reauthorisations (plan_change_id, merchant_id, livemode, subscription_id, token, hosted_url, status, amount)
    values (${r.planChangeId}, ${r.merchantId}, ${r.livemode}, ${r.subscriptionId}, ${r.token}, ${r.hostedUrl}, 'pending', ${r.amount})`;
}

/** The reauthorisation behind a hosted link: the change and its token must both match (else undefined). */
export async function findReauthorisationByToken(db: Db, planChangeId: string, token: string): Promise<ReauthorisationRow | undefined> {
  const [row] = await db<ReauthorisationRow[]>`
    select ${columns(db)} from subscription_reauthorisations where plan_change_id = ${planChangeId} and token = ${token}`;
  return row;
}

export async function findReauthorisation(db: Db, planChangeId: string, opts: { forUpdate?: boolean } = {}) {
  const [row] = await db<ReauthorisationRow[]>`
    select ${columns(db)} from subscription_reauthorisations where plan_change_id = ${planChangeId}
    ${opts.forUpdate ? db`for update` : db``}`;
  return row;
}

/** Records what the customer's relayed enrolment binds: the period it starts at and that period's start. */
export async function bindReauthorisation(
  db: Db,
  planChangeId: string,
  bound: { periodIndex: number; firstPeriodStart: Date; enrolmentNonce: string },
): Promise<void> {
  await db`
    update subscription_reauthorisations set period_index = ${bound.periodIndex}, first_period_start = ${bound.firstPeriodStart},
      enrolment_nonce = ${bound.enrolmentNonce.toLowerCase()}
    where plan_change_id = ${planChangeId} and status = 'pending'`;
}

/**
 * The pending reauthorisation an enrolment fulfils: the subscriber of a live subscription on the same chain, the
 * amount asked for, and the firstPeriodStart the server bound when relaying it. A stranger's enrolment names another
 * subscriber (the contract checked its signature), so it never matches.
 */
export async function findPendingReauthorisationFor(
  db: Db,
  e: { livemode: boolean; chainId: string; subscriber: string; amount: string; firstPeriodStart: Date },
): Promise<ReauthorisationRow | undefined> {
  const [row] = await db<{ planChangeId: string }[]>`
    select r.plan_change_id as "planChangeId"
    from subscription_reauthorisations r join subscriptions s on s.id = r.subscription_id
    where r.status = 'pending' and r.livemode = ${e.livemode} and s.chain_id = ${e.chainId}
      and lower(s.subscriber_address) = lower(${e.subscriber}) and r.amount = ${e.amount}
      and r.first_period_start = ${e.firstPeriodStart}
    order by r.created_at desc limit 1`;
  return row ? findReauthorisation(db, row.planChangeId) : undefined;
}

export async function markReauthorisationApplied(
  db: Db,
  planChangeId: string,
  applied: { newOnChainId: string; replacedOnChainId: string; replacedContractAddress: string; at: Date },
): Promise<void> {
  await db`
    update subscription_reauthorisations set status = 'applied', new_on_chain_id = ${applied.newOnChainId},
      replaced_on_chain_id = ${applied.replacedOnChainId}, replaced_contract_address = ${applied.replacedContractAddress},
      applied_at = ${applied.at}
    where plan_change_id = ${planChangeId}`;
}

/** A change that stops waiting (cancelled or replaced) takes its link with it. */
export async function cancelPendingReauthorisations(db: Db, subscriptionId: string): Promise<void> {
  await db`update subscription_reauthorisations set status = 'cancelled' where subscription_id = ${subscriptionId} and status = 'pending'`;
}

export async function markReplacedCancelled(db: Db, planChangeId: string): Promise<void> {
  await db`
    update subscription_reauthorisations set replaced_cancelled_at = coalesce(replaced_cancelled_at, now())
    where plan_change_id = ${planChangeId}`;
}

/** A bound enrolment that could not be applied: the link may be signed again (for a later period). */
export async function unbindReauthorisation(db: Db, planChangeId: string): Promise<void> {
  await db`
    update subscription_reauthorisations set period_index = null, first_period_start = null, enrolment_nonce = null
    where plan_change_id = ${planChangeId} and status = 'pending'`;
}

/** The reauthorisation whose enrolment is this on-chain id (already applied): a log seen twice. */
export async function findAppliedReauthorisationByNewOnChainId(
  db: Db,
  e: { livemode: boolean; chainId: string; onChainId: string },
): Promise<ReauthorisationRow | undefined> {
  const [row] = await db<{ planChangeId: string }[]>`
    select r.plan_change_id as "planChangeId"
    from subscription_reauthorisations r join subscriptions s on s.id = r.subscription_id
    where r.status = 'applied' and r.livemode = ${e.livemode} and s.chain_id = ${e.chainId} and r.new_on_chain_id = ${e.onChainId}`;
  return row ? findReauthorisation(db, row.planChangeId) : undefined;
}

/**
 * Moves a subscription's charging to a replacement enrolment: its on-chain id, manager, cap and period, and where its
 * period 0 falls in the subscription's calendar (the calendar anchor, first_period_start, stays).
 */
export async function replaceEnrolment(
  db: Db,
  subscriptionId: string,
  e: { onChainId: string; contractAddress: string; amount: string; periodSeconds: string; periodOffset: number; firstPeriodStart: Date },
): Promise<void> {
  await db`
    update subscriptions set on_chain_id = ${e.onChainId}, contract_address = ${e.contractAddress.toLowerCase()}, amount = ${e.amount},
      period_seconds = ${e.periodSeconds}, on_chain_period_offset = ${e.periodOffset}, on_chain_first_period_start = ${e.firstPeriodStart},
      on_chain_cancelled_at = null, updated_at = now()
    where id = ${subscriptionId}`;
}
