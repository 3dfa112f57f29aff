// SQL of agents: configuration, agent wallets, escrow jobs and the activity feed.
import type { Db } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';
import type { ActivityActionType, ActivityCapability, ActivityOutcome, JobStatus, StoredAgentConfig } from './schemas.js';

export type ConfigRow = { merchantId: string; livemode: boolean; config: StoredAgentConfig; createdAt: Date; updatedAt: Date };

const configColumns = (db: Db) => db`merchant_id as "merchantId", livemode, config, created_at as "createdAt", updated_at as "updatedAt"`;

/** The configuration, created with `defaults` if absent (two concurrent first reads create one row). */
export async function ensureConfig(db: Db, scope: MerchantScope, defaults: StoredAgentConfig): Promise<ConfigRow> {
  await db`
    insert into agent_configs (merchant_id, livemode, config) values (${scope.merchantId}, ${scope.livemode}, ${db.json(defaults as never)})
    on conflict (merchant_id, livemode) do nothing`;
  const [row] = await db<
    ConfigRow[]
  >`select ${configColumns(db)} from agent_configs where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}`;
  return row!;
}

export async function lockConfig(db: Db, scope: MerchantScope): Promise<ConfigRow> {
  const [row] = await db<ConfigRow[]>`
    select ${configColumns(db)} from agent_configs where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} for update`;
  return row!;
}

export async function updateConfig(db: Db, scope: MerchantScope, config: StoredAgentConfig): Promise<ConfigRow> {
  const [row] = await db<ConfigRow[]>`
    update agent_configs set config = ${db.json(config as never)}, updated_at = now()
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} returning ${configColumns(db)}`;
  return row!;
}

// ------------------------------------------------------------------ wallets

export type WalletRow = { merchantId: string; livemode: boolean; address: string; sealedKey: Buffer };

export async function findWallet(db: Db, scope: MerchantScope): Promise<WalletRow | undefined> {
  const [row] = await db<WalletRow[]>`
    select merchant_id as "merchantId", livemode, address, sealed_key as "sealedKey"
    from agent_wallets where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}`;
  return row;
}

/** Inserts the wallet unless one exists; returns the one that won. */
export async function insertWallet(db: Db, wallet: WalletRow): Promise<WalletRow> {
  await db`
    insert into agent_wallets (merchant_id, livemode, address, sealed_key)
    values (${wallet.merchantId}, ${wallet.livemode}, ${wallet.address}, ${wallet.sealedKey})
    on conflict (merchant_id, livemode) do nothing`;
  return (await findWallet(db, wallet))!;
}

// ------------------------------------------------------------------ jobs

export type JobRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  vendorAddress: string;
  evaluatorAddress: string;
  description: string;
  amount: string;
  currency: string;
  amountUsdCents: string;
  status: JobStatus;
  approvalReasons: string[];
  expiresInSeconds: number;
  approvalDeadline: Date;
  chainId: number | null;
  escrowAddress: string | null;
  onchainJobId: string | null;
  expiredAt: Date | null;
  createTransactionHash: string | null;
  fundTransactionHash: string | null;
  submitTransactionHash: string | null;
  deliverable: string | null;
  settleTransactionHash: string | null;
  refundTransactionHash: string | null;
  failureReason: string | null;
  failureCode: string | null;
  approvedAt: Date | null;
  fundedAt: Date | null;
  submittedAt: Date | null;
  finishedAt: Date | null;
  createdAt: Date;
};

const jobColumns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, vendor_address as "vendorAddress", evaluator_address as "evaluatorAddress", description,
     amount::text as amount, currency, amount_usd_cents::text as "amountUsdCents", status, approval_reasons as "approvalReasons",
     expires_in_seconds as "expiresInSeconds", approval_deadline as "approvalDeadline", chain_id as "chainId", escrow_address as "escrowAddress",
     onchain_job_id::text as "onchainJobId", expired_at as "expiredAt", create_transaction_hash as "createTransactionHash",
     fund_transaction_hash as "fundTransactionHash", submit_transaction_hash as "submitTransactionHash", deliverable,
     settle_transaction_hash as "settleTransactionHash", refund_transaction_hash as "refundTransactionHash", failure_reason as "failureReason",
     failure_code as "failureCode", approved_at as "approvedAt", funded_at as "fundedAt", submitted_at as "submittedAt", finished_at as "finishedAt", created_at as "createdAt"`;

export async function insertJob(
  db: Db,
  job: Pick<
    JobRow,
    | 'id'
    | 'merchantId'
    | 'livemode'
    | 'vendorAddress'
    | 'evaluatorAddress'
    | 'description'
    | 'amount'
    | 'currency'
    | 'amountUsdCents'
    | 'status'
    | 'approvalReasons'
    | 'expiresInSeconds'
    | 'approvalDeadline'
    | 'chainId'
  >,
): Promise<JobRow> {
  const [row] = await db<JobRow[]>`
    insert into agent_jobs (id, merchant_id, livemode, vendor_address, evaluator_address, description, amount, currency, amount_usd_cents,
                            status, approval_reasons, expires_in_seconds, approval_deadline, approved_at, chain_id)
    values (${job.id}, ${job.merchantId}, ${job.livemode}, ${job.vendorAddress}, ${job.evaluatorAddress}, ${job.description}, ${job.amount},
            ${job.currency}, ${job.amountUsdCents}, ${job.status}, ${db.array(job.approvalReasons)}, ${job.expiresInSeconds}, ${job.approvalDeadline},
            ${job.status === 'approved' ? db`now()` : null}, ${job.chainId})
    returning ${jobColumns(db)}`;
  return row!;
}

export async function findJob(db: Db, scope: MerchantScope, id: string): Promise<JobRow | undefined> {
  const [row] = await db<
    JobRow[]
  >`select ${jobColumns(db)} from agent_jobs where id = ${id} and merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}`;
  return row;
}

export async function findJobById(db: Db, id: string): Promise<JobRow | undefined> {
  const [row] = await db<JobRow[]>`select ${jobColumns(db)} from agent_jobs where id = ${id}`;
  return row;
}

export async function findJobByOnchainId(db: Db, chainId: number, escrow: string, onchainJobId: string): Promise<JobRow | undefined> {
  const [row] = await db<JobRow[]>`
    select ${jobColumns(db)} from agent_jobs
    where chain_id = ${chainId} and lower(escrow_address) = ${escrow.toLowerCase()} and onchain_job_id = ${onchainJobId}`;
  return row;
}

export async function listJobs(
  db: Db,
  scope: MerchantScope,
  page: { before?: string; limit: number; status?: JobStatus },
): Promise<JobRow[]> {
  return db<JobRow[]>`
    select ${jobColumns(db)} from agent_jobs
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}
      ${page.status ? db`and status = ${page.status}` : db``}
      ${page.before ? db`and id < ${page.before}` : db``}
    order by id desc limit ${page.limit + 1}`;
}

/** USD cents of the jobs approved in the calendar month (UTC) holding `at`. */
export async function approvedCentsInMonth(db: Db, scope: MerchantScope, at: Date): Promise<bigint> {
  const [row] = await db<{ total: string }[]>`
    select coalesce(sum(amount_usd_cents), 0)::text as total from agent_jobs
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and approved_at is not null
      and approved_at >= date_trunc('month', ${at}::timestamptz at time zone 'UTC') at time zone 'UTC'
      and approved_at < (date_trunc('month', ${at}::timestamptz at time zone 'UTC') + interval '1 month') at time zone 'UTC'`;
  return BigInt(row!.total);
}

/** A status change from one of `from` (conditional: a retried activity changes nothing twice); undefined when the job was elsewhere. */
export async function transitionJob(
  db: Db,
  id: string,
  from: readonly JobStatus[],
  to: JobStatus,
  set: Partial<Record<'approvedAt' | 'fundedAt' | 'submittedAt' | 'finishedAt', true>> & {
    fundTransactionHash?: string;
    submitTransactionHash?: string;
    deliverable?: string;
    settleTransactionHash?: string;
    refundTransactionHash?: string;
    failureReason?: string;
    failureCode?: string;
  } = {},
): Promise<JobRow | undefined> {
  const [row] = await db<JobRow[]>`
    update agent_jobs set status = ${to}, updated_at = now(),
      approved_at = ${set.approvedAt ? db`coalesce(approved_at, now())` : db`approved_at`},
      funded_at = ${set.fundedAt ? db`now()` : db`funded_at`},
      submitted_at = ${set.submittedAt ? db`now()` : db`submitted_at`},
      finished_at = ${set.finishedAt ? db`now()` : db`finished_at`},
      fund_transaction_hash = coalesce(${set.fundTransactionHash ?? null}, fund_transaction_hash),
      submit_transaction_hash = coalesce(${set.submitTransactionHash ?? null}, submit_transaction_hash),
      deliverable = coalesce(${set.deliverable ?? null}, deliverable),
      settle_transaction_hash = coalesce(${set.settleTransactionHash ?? null}, settle_transaction_hash),
      refund_transaction_hash = coalesce(${set.refundTransactionHash ?? null}, refund_transaction_hash),
      failure_reason = coalesce(${set.failureReason ?? null}, failure_reason),
      failure_code = coalesce(${set.failureCode ?? null}, failure_code)
    where id = ${id} and status in ${db(from as JobStatus[])}
    returning ${jobColumns(db)}`;
  return row;
}

/**
 * The token's named refusal of an escrow call of an approved job, kept until the job is failed (the
 * workflow fails it with the activity's message; the code rides on the row, so the workflow's shape
 * is unchanged).
 */
export async function recordJobRefusal(db: Db, id: string, code: string): Promise<void> {
  await db`update agent_jobs set failure_code = ${code}, updated_at = now() where id = ${id} and status = 'approved'`;
}

/** Records the on-chain job (once): its id, escrow, deadline and creating transaction. */
export async function recordOnchainJob(
  db: Db,
  id: string,
  onchain: { chainId: number; escrowAddress: string; onchainJobId: string; expiredAt: Date; createTransactionHash: string },
): Promise<JobRow> {
  const [row] = await db<JobRow[]>`
    update agent_jobs set chain_id = ${onchain.chainId}, escrow_address = ${onchain.escrowAddress}, onchain_job_id = ${onchain.onchainJobId},
      expired_at = ${onchain.expiredAt}, create_transaction_hash = ${onchain.createTransactionHash}, updated_at = now()
    where id = ${id} and onchain_job_id is null
    returning ${jobColumns(db)}`;
  return row ?? (await findJobById(db, id))!;
}

// ------------------------------------------------------------------ activity

export type ActivityRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  capability: ActivityCapability;
  actionType: ActivityActionType;
  outcome: ActivityOutcome;
  subscriptionId: string | null;
  transactionId: string | null;
  jobId: string | null;
  summary: string;
  details: Record<string, unknown>;
  createdAt: Date;
};

const activityColumns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, capability, action_type as "actionType", outcome, subscription_id as "subscriptionId",
     transaction_id as "transactionId", job_id as "jobId", summary, details, created_at as "createdAt"`;

/** Inserts the record unless its action key is recorded already; undefined then. */
export async function insertActivity(
  db: Db,
  row: Omit<ActivityRow, 'createdAt'> & { actionKey: string },
): Promise<ActivityRow | undefined> {
  const [inserted] = await db<ActivityRow[]>`
    insert into agent_activity (id, merchant_id, livemode, capability, action_type, outcome, subscription_id, transaction_id, job_id, summary, details, action_key)
    values (${row.id}, ${row.merchantId}, ${row.livemode}, ${row.capability}, ${row.actionType}, ${row.outcome}, ${row.subscriptionId},
            ${row.transactionId}, ${row.jobId}, ${row.summary}, ${db.json(row.details as never)}, ${row.actionKey})
    on conflict (merchant_id, livemode, action_key) do nothing
    returning ${activityColumns(db)}`;
  return inserted;
}

export async function listActivity(
  db: Db,
  scope: MerchantScope,
  page: {
    before?: string;
    limit: number;
    capability?: string;
    actionType?: string;
    outcome?: string;
    subscriptionId?: string;
    transactionId?: string;
    jobId?: string;
  },
): Promise<ActivityRow[]> {
  return db<ActivityRow[]>`
    select ${activityColumns(db)} from agent_activity
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}
      ${page.capability ? db`and capability = ${page.capability}` : db``}
      ${page.actionType ? db`and action_type = ${page.actionType}` : db``}
      ${page.outcome ? db`and outcome = ${page.outcome}` : db``}
      ${page.subscriptionId ? db`and subscription_id = ${page.subscriptionId}` : db``}
      ${page.transactionId ? db`and lower(transaction_id) = ${page.transactionId.toLowerCase()}` : db``}
      ${page.jobId ? db`and job_id = ${page.jobId}` : db``}
      ${page.before ? db`and id < ${page.before}` : db``}
    order by id desc limit ${page.limit + 1}`;
}

// ------------------------------------------------------------------ capabilities

/** The stored configuration, without creating one (a merchant who never configured agents has none enabled). */
export async function findConfig(db: Db, scope: MerchantScope): Promise<ConfigRow | undefined> {
  const [row] = await db<
    ConfigRow[]
  >`select ${configColumns(db)} from agent_configs where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}`;
  return row;
}

/** Inserts the recovery notice of an at_risk period unless it exists; true when this call wrote it. */
export async function insertRecoveryNotice(
  db: Db,
  notice: { subscriptionId: string; periodIndex: number; tokenHash: string; graceDeadline: Date },
): Promise<boolean> {
  const rows = await db`
    insert into agent_recovery_notices (subscription_id, period_index, token_hash, grace_deadline)
    values (${notice.subscriptionId}, ${notice.periodIndex}, ${notice.tokenHash}, ${notice.graceDeadline})
    on conflict (subscription_id, period_index) do nothing
    returning 1`;
  return rows.length === 1;
}

export async function setRecoveryNoticeEmail(db: Db, subscriptionId: string, periodIndex: number, emailId: string): Promise<void> {
  await db`update agent_recovery_notices set email_id = ${emailId} where subscription_id = ${subscriptionId} and period_index = ${periodIndex}`;
}

/** Merchants and modes whose configuration enables `capability`. */
export async function listScopesWithCapability(db: Db, capability: string): Promise<MerchantScope[]> {
  return db<MerchantScope[]>`
    select merchant_id as "merchantId", livemode from agent_configs
    where config->'enabledCapabilities' ? ${capability} order by merchant_id, livemode`;
}

/**
 * Settled revenue per UTC day from `from` to `to` (dates, both included; days without revenue are 0):
 * succeeded subscription charges (the analytics daily rollup) plus completed payment sessions, USDC
 * base units.
 */
export async function dailySettledRevenue(
  db: Db,
  scope: MerchantScope,
  from: string,
  to: string,
): Promise<{ day: string; amount: bigint; payments: number }[]> {
  const rows = await db<{ day: string; amount: string; payments: number }[]>`
    with days as (select d::date as day from generate_series(${from}::date, ${to}::date, interval '1 day') d),
    charges as (
      select day, sum(amount) as amount, sum(charges)::int as n from analytics_charge_revenue_daily
      where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and currency = 'USDC' and day between ${from}::date and ${to}::date
      group by day),
    sessions as (
      select (completed_at at time zone 'UTC')::date as day, sum(amount) as amount, count(*)::int as n from payment_sessions
      where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and status = 'completed'
        and completed_at >= ${from}::date at time zone 'UTC' and completed_at < (${to}::date + 1) at time zone 'UTC'
      group by 1)
    select to_char(days.day, 'YYYY-MM-DD') as day, (coalesce(c.amount, 0) + coalesce(s.amount, 0))::text as amount,
           coalesce(c.n, 0) + coalesce(s.n, 0) as payments
    from days left join charges c on c.day = days.day left join sessions s on s.day = days.day
    order by days.day`;
  return rows.map((r) => ({ day: r.day, amount: BigInt(r.amount), payments: r.payments }));
}

/** Subscriptions of the scope currently at_risk. */
export async function countAtRiskSubscriptions(db: Db, scope: MerchantScope): Promise<number> {
  const [row] = await db<{ n: number }[]>`
    select count(*)::int as n from subscriptions where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and status = 'at_risk'`;
  return row!.n;
}

/** Where the merchant's own emails go (the account's email). */
export async function findMerchantEmail(db: Db, merchantId: string): Promise<{ name: string; email: string | null } | undefined> {
  const [row] = await db<
    { name: string; email: string | null }[]
  >`select coalesce(business_name, name) as name, email from merchants where id = ${merchantId}`;
  return row;
}

/**
 * Per plan of the scope, over the `days` days up to `until`: subscriptions exposed (live at the
 * window start, or created in it) and, of those, cancelled or lapsed in the window.
 */
export async function planChurnInWindow(
  db: Db,
  scope: MerchantScope,
  until: Date,
  days: number,
): Promise<{ planId: string; planName: string; amount: bigint; exposed: number; churned: number }[]> {
  const rows = await db<{ planId: string; planName: string; amount: string; exposed: number; churned: number }[]>`
    with w as (select ${until}::timestamptz - make_interval(days => ${days}) as start, ${until}::timestamptz as stop),
    subs as (
      select s.plan_id, coalesce(s.cancelled_at, s.lapsed_at) as ended_at from subscriptions s, w
      where s.merchant_id = ${scope.merchantId} and s.livemode = ${scope.livemode} and s.created_at < w.stop
        and (coalesce(s.cancelled_at, s.lapsed_at) is null or coalesce(s.cancelled_at, s.lapsed_at) >= w.start))
    select p.id as "planId", p.name as "planName", p.amount::text as amount, count(*)::int as exposed,
           count(*) filter (where subs.ended_at is not null and subs.ended_at < (select stop from w))::int as churned
    from subs join subscription_plans p on p.id = subs.plan_id
    group by p.id, p.name, p.amount order by p.id`;
  return rows.map((r) => ({ ...r, amount: BigInt(r.amount) }));
}
