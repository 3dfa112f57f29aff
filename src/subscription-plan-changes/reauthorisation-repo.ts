// SQL of the customer's replacement enrolments (migrations 00047 and 00051): an upgrade above the on-chain cap, signed
// by the subscribing wallet, or a move to another wallet, signed by the wallet the customer named. A row's `id` is its
// plan change's for an upgrade (`spc_...`), its own for a wallet change (`swc_...`).
import type { Db } from '../db/client.js';

export type ReauthorisationKind = 'plan_change' | 'wallet_change';

export type ReauthorisationRow = {
  id: string;
  kind: ReauthorisationKind;
  /** The upgrade's plan change; null for a wallet change. */
  planChangeId: string | null;
  /** The wallet a wallet change moves to (lower case); null for an upgrade, which the subscriber signs. */
  newSubscriberAddress: string | null;
  previousSubscriberAddress: string | null;
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
  appliedAt: Date | null;
  createdAt: Date;
};

const columns = (db: Db) =>
  db`id, kind, plan_change_id as "planChangeId", new_subscriber_address as "newSubscriberAddress",
     previous_subscriber_address as "previousSubscriberAddress", merchant_id as "merchantId", livemode, subscription_id as "subscriptionId", token,
     hosted_url as "hostedUrl", status, amount::text as amount, period_index as "periodIndex",
     first_period_start as "firstPeriodStart", enrolment_nonce as "enrolmentNonce", new_on_chain_id::text as "newOnChainId",
     replaced_on_chain_id::text as "replacedOnChainId", replaced_contract_address as "replacedContractAddress",
     replaced_cancelled_at as "replacedCancelledAt", applied_at as "appliedAt", created_at as "createdAt"`;

export async function insertReauthorisation(
  db: Db,
  r: { planChangeId: string } & Pick<ReauthorisationRow, 'merchantId' | 'livemode' | 'subscriptionId' | 'token' | 'hostedUrl' | 'amount'>,
): Promise<void> {
  await db`
    insert into subscription_reauthorisations (id, kind, plan_change_id, merchant_id, livemode, subscription_id, token, hosted_url, status, amount)
    values (${r.planChangeId}, 'plan_change', ${r.planChangeId}, ${r.merchantId}, ${r.livemode}, ${r.subscriptionId}, ${r.token},
      ${r.hostedUrl}, 'pending', ${r.amount})`;
}

/** A wallet change the customer started: the earlier one waiting on the subscription, if any, is cancelled first. */
export async function insertWalletChange(
  db: Db,
  r: { id: string; newSubscriberAddress: string } & Pick<
    ReauthorisationRow,
    'merchantId' | 'livemode' | 'subscriptionId' | 'token' | 'hostedUrl' | 'amount'
  >,
): Promise<ReauthorisationRow> {
  await db`
    update subscription_reauthorisations set status = 'cancelled'
    where subscription_id = ${r.subscriptionId} and kind = 'wallet_change' and status = 'pending'`;
  await db`
    insert into subscription_reauthorisations (id, kind, new_subscriber_address, merchant_id, livemode, subscription_id, token, hosted_url,
      status, amount)
    values (${r.id}, 'wallet_change', ${r.newSubscriberAddress.toLowerCase()}, ${r.merchantId}, ${r.livemode}, ${r.subscriptionId},
      ${r.token}, ${r.hostedUrl}, 'pending', ${r.amount})`;
  return (await findReauthorisation(db, r.id))!;
}

/** The reauthorisation behind a hosted link: its id and token must both match (else undefined). */
export async function findReauthorisationByToken(db: Db, id: string, token: string): Promise<ReauthorisationRow | undefined> {
  const [row] = await db<ReauthorisationRow[]>`
    select ${columns(db)} from subscription_reauthorisations where id = ${id} and token = ${token}`;
  return row;
}

export async function findReauthorisation(db: Db, id: string, opts: { forUpdate?: boolean } = {}) {
  const [row] = await db<ReauthorisationRow[]>`
    select ${columns(db)} from subscription_reauthorisations where id = ${id}
    ${opts.forUpdate ? db`for update` : db``}`;
  return row;
}

/** The newest wallet change of a subscription (any status), shown to the customer in the portal. */
export async function findLatestWalletChange(db: Db, subscriptionId: string): Promise<ReauthorisationRow | undefined> {
  const [row] = await db<ReauthorisationRow[]>`
    select ${columns(db)} from subscription_reauthorisations where subscription_id = ${subscriptionId} and kind = 'wallet_change'
    order by created_at desc, id desc limit 1`;
  return row;
}

/** A waiting wallet change the customer withdrew; the row as it was, for the caller to cancel a signed enrolment. */
export async function cancelWalletChange(db: Db, id: string): Promise<ReauthorisationRow | undefined> {
  const before = await findReauthorisation(db, id, { forUpdate: true });
  if (!before || before.kind !== 'wallet_change' || before.status !== 'pending') return undefined;
  await db`update subscription_reauthorisations set status = 'cancelled' where id = ${id}`;
  return before;
}

/** Records what the customer's relayed enrolment binds: the period it starts at and that period's start. */
export async function bindReauthorisation(
  db: Db,
  id: string,
  bound: { periodIndex: number; firstPeriodStart: Date; enrolmentNonce: string },
): Promise<void> {
  await db`
    update subscription_reauthorisations set period_index = ${bound.periodIndex}, first_period_start = ${bound.firstPeriodStart},
      enrolment_nonce = ${bound.enrolmentNonce.toLowerCase()}
    where id = ${id} and status = 'pending'`;
}

type BoundEnrolment = { livemode: boolean; chainId: string; subscriber: string; amount: string; firstPeriodStart: Date };

/**
 * The reauthorisation in `status` an enrolment was bound to: its signer (the subscription's subscriber for an upgrade,
 * the wallet the customer named for a wallet change) on the subscription's chain, the amount asked for, and the
 * firstPeriodStart the server bound when relaying it. A stranger's enrolment names another subscriber (the contract
 * checked its signature), so it never matches.
 */
async function findBoundReauthorisation(
  db: Db,
  status: 'pending' | 'cancelled',
  e: BoundEnrolment,
): Promise<ReauthorisationRow | undefined> {
  const [row] = await db<{ id: string }[]>`
    select r.id
    from subscription_reauthorisations r join subscriptions s on s.id = r.subscription_id
    where r.status = ${status} and r.livemode = ${e.livemode} and s.chain_id = ${e.chainId}
      and lower(coalesce(r.new_subscriber_address, s.subscriber_address)) = lower(${e.subscriber}) and r.amount = ${e.amount}
      and r.first_period_start = ${e.firstPeriodStart}
      ${status === 'cancelled' ? db`and r.enrolment_nonce is not null` : db``}
    order by r.created_at desc limit 1`;
  return row ? findReauthorisation(db, row.id) : undefined;
}

/** The pending reauthorisation an enrolment fulfils (findBoundReauthorisation). */
export const findPendingReauthorisationFor = (db: Db, e: BoundEnrolment) => findBoundReauthorisation(db, 'pending', e);

/**
 * A change withdrawn after its enrolment was signed and relayed (cancelled while still bound: the refused path
 * unbinds, so it never matches here) that this enrolment is.
 */
export const findWithdrawnReauthorisationFor = (db: Db, e: BoundEnrolment) => findBoundReauthorisation(db, 'cancelled', e);

export async function markReauthorisationApplied(
  db: Db,
  id: string,
  applied: {
    newOnChainId: string;
    replacedOnChainId: string;
    replacedContractAddress: string;
    previousSubscriberAddress?: string;
    at: Date;
  },
): Promise<void> {
  await db`
    update subscription_reauthorisations set status = 'applied', new_on_chain_id = ${applied.newOnChainId},
      replaced_on_chain_id = ${applied.replacedOnChainId}, replaced_contract_address = ${applied.replacedContractAddress},
      previous_subscriber_address = ${applied.previousSubscriberAddress?.toLowerCase() ?? null}, applied_at = ${applied.at}
    where id = ${id}`;
}

/**
 * A plan change that stops waiting (cancelled or replaced) takes its link with it; the rows as they were, so a
 * signature already relayed (`enrolmentNonce`) can be cancelled on chain. A wallet change is the customer's own
 * and is not touched by the merchant's plan changes.
 */
export async function cancelPendingReauthorisations(db: Db, subscriptionId: string): Promise<ReauthorisationRow[]> {
  const rows = await db<ReauthorisationRow[]>`
    select ${columns(db)} from subscription_reauthorisations
    where subscription_id = ${subscriptionId} and kind = 'plan_change' and status = 'pending' for update`;
  await db`
    update subscription_reauthorisations set status = 'cancelled'
    where subscription_id = ${subscriptionId} and kind = 'plan_change' and status = 'pending'`;
  return rows;
}

/** Whether an upgrade of the subscription waits with a signature relayed (bound), not yet indexed. */
export async function hasBoundPlanChange(db: Db, subscriptionId: string): Promise<boolean> {
  const rows = await db`
    select 1 from subscription_reauthorisations
    where subscription_id = ${subscriptionId} and kind = 'plan_change' and status = 'pending' and period_index is not null`;
  return rows.length > 0;
}

export async function markReplacedCancelled(db: Db, id: string): Promise<void> {
  await db`
    update subscription_reauthorisations set replaced_cancelled_at = coalesce(replaced_cancelled_at, now())
    where id = ${id}`;
}

/** A bound enrolment that could not be applied: the link may be signed again (for a later period). */
export async function unbindReauthorisation(db: Db, id: string): Promise<void> {
  await db`
    update subscription_reauthorisations set period_index = null, first_period_start = null, enrolment_nonce = null
    where id = ${id} and status = 'pending'`;
}

/** The reauthorisation whose enrolment is this on-chain id (already applied): a log seen twice. */
export async function findAppliedReauthorisationByNewOnChainId(
  db: Db,
  e: { livemode: boolean; chainId: string; onChainId: string },
): Promise<ReauthorisationRow | undefined> {
  const [row] = await db<{ id: string }[]>`
    select r.id
    from subscription_reauthorisations r join subscriptions s on s.id = r.subscription_id
    where r.status = 'applied' and r.livemode = ${e.livemode} and s.chain_id = ${e.chainId} and r.new_on_chain_id = ${e.onChainId}`;
  return row ? findReauthorisation(db, row.id) : undefined;
}

/**
 * Moves a subscription's charging to a replacement enrolment: its on-chain id, manager, cap and period, and where its
 * period 0 falls in the subscription's calendar (the calendar anchor, first_period_start, stays).
 */
export async function replaceEnrolment(
  db: Db,
  subscriptionId: string,
  e: {
    onChainId: string;
    contractAddress: string;
    amount: string;
    periodSeconds: string;
    periodOffset: number;
    firstPeriodStart: Date;
    /** A wallet change's new subscriber (absent: the subscriber stays). */
    subscriberAddress?: string;
  },
): Promise<void> {
  await db`
    update subscriptions set on_chain_id = ${e.onChainId}, contract_address = ${e.contractAddress.toLowerCase()}, amount = ${e.amount},
      period_seconds = ${e.periodSeconds}, on_chain_period_offset = ${e.periodOffset}, on_chain_first_period_start = ${e.firstPeriodStart},
      subscriber_address = ${e.subscriberAddress?.toLowerCase() ?? db`subscriber_address`},
      on_chain_cancelled_at = null, updated_at = now()
    where id = ${subscriptionId}`;
}
