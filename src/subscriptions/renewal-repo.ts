// SQL for allowance renewals: the notice of each renewal window
// (subscription_renewal_notices) and the email the hosted enrolment collected.
import type { Db } from '../db/client.js';
import { hashRenewalToken } from './renewals.js';

export type RenewalNoticeRow = {
  subscriptionId: string;
  runOutPeriodIndex: number;
  allowance: string;
  tokenHash: string;
  emailId: string | null;
  createdAt: Date;
};

const columns = (db: Db) =>
  db`subscription_id as "subscriptionId", run_out_period_index as "runOutPeriodIndex", allowance::text as allowance,
     token_hash as "tokenHash", email_id as "emailId", created_at as "createdAt"`;

/** Inserts the window's notice unless it exists; true when this call wrote it. */
export async function insertNoticeIfAbsent(
  db: Db,
  notice: { subscriptionId: string; runOutPeriodIndex: number; allowance: bigint; tokenHash: string },
): Promise<boolean> {
  const rows = await db`
    insert into subscription_renewal_notices (subscription_id, run_out_period_index, allowance, token_hash)
    values (${notice.subscriptionId}, ${notice.runOutPeriodIndex}, ${notice.allowance.toString()}, ${notice.tokenHash})
    on conflict (subscription_id, run_out_period_index) do nothing
    returning 1`;
  return rows.length === 1;
}

export async function setNoticeEmail(db: Db, subscriptionId: string, runOutPeriodIndex: number, emailId: string): Promise<void> {
  await db`update subscription_renewal_notices set email_id = ${emailId}
           where subscription_id = ${subscriptionId} and run_out_period_index = ${runOutPeriodIndex}`;
}

export async function findNotices(db: Db, subscriptionId: string): Promise<RenewalNoticeRow[]> {
  return db<RenewalNoticeRow[]>`select ${columns(db)} from subscription_renewal_notices
    where subscription_id = ${subscriptionId} order by run_out_period_index`;
}

/**
 * Whether `token` is the capability of one of the subscription's notices: a renewal notice, or the
 * top-up link of the agent's recovery notice (agent_recovery_notices, docs/agents.md).
 */
export async function isRenewalToken(db: Db, subscriptionId: string, token: string): Promise<boolean> {
  const hash = hashRenewalToken(token);
  const [row] = await db`select 1 from subscription_renewal_notices where subscription_id = ${subscriptionId} and token_hash = ${hash}
    union all select 1 from agent_recovery_notices where subscription_id = ${subscriptionId} and token_hash = ${hash}`;
  return row !== undefined;
}

/**
 * The email the hosted enrolment collected, kept on the wallet's customer. The first email
 * wins: a later post of the same (public, on-chain) signed enrolment cannot redirect the
 * renewal emails to another address.
 */
export async function recordEnrolmentEmail(
  db: Db,
  input: { id: string; merchantId: string; livemode: boolean; walletAddress: string; email: string },
): Promise<void> {
  await db`
    insert into customers (id, merchant_id, livemode, wallet_address, email)
    values (${input.id}, ${input.merchantId}, ${input.livemode}, ${input.walletAddress.toLowerCase()}, ${input.email})
    on conflict (merchant_id, livemode, wallet_address) do update set email = coalesce(customers.email, excluded.email)`;
}
