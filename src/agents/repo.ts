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
  const [row] = await db<ConfigRow[]>`select ${configColumns(db)} from agent_configs where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}`;
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
     approved_at as "approvedAt", funded_at as "fundedAt", submitted_at as "submittedAt", finished_at as "finishedAt", created_at as "createdAt"`;

export async function insertJob(
  db: Db,
  job: Pick<JobRow, 'id' | 'merchantId' | 'livemode' | 'vendorAddress' | 'evaluatorAddress' | 'description' | 'amount' | 'currency' | 'amountUsdCents' | 'status' | 'approvalReasons' | 'expiresInSeconds' | 'approvalDeadline'>,
): Promise<JobRow> {
  const [row] = await db<JobRow[]>`
    insert into agent_jobs (id, merchant_id, livemode, vendor_address, evaluator_address, description, amount, currency, amount_usd_cents,
                            status, approval_reasons, expires_in_seconds, approval_deadline, approved_at)
    values (${job.id}, ${job.merchantId}, ${job.livemode}, ${job.vendorAddress}, ${job.evaluatorAddress}, ${job.description}, ${job.amount},
            ${job.currency}, ${job.amountUsdCents}, ${job.status}, ${db.array(job.approvalReasons)}, ${job.expiresInSeconds}, ${job.approvalDeadline},
            ${job.status === 'approved' ? db`now()` : null})
    returning ${jobColumns(db)}`;
  return row!;
}

export async function findJob(db: Db, scope: MerchantScope, id: string): Promise<JobRow | undefined> {
  const [row] = await db<JobRow[]>`select ${jobColumns(db)} from agent_jobs where id = ${id} and merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}`;
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

export async function listJobs(db: Db, scope: MerchantScope, page: { before?: string; limit: number; status?: JobStatus }): Promise<JobRow[]> {
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
      failure_reason = coalesce(${set.failureReason ?? null}, failure_reason)
    where id = ${id} and status in ${db(from as JobStatus[])}
    returning ${jobColumns(db)}`;
  return row;
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
export async function insertActivity(db: Db, row: Omit<ActivityRow, 'createdAt'> & { actionKey: string }): Promise<ActivityRow | undefined> {
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
