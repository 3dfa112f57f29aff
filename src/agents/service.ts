// Agents: the configuration (created lazily with documented defaults), escrow
// jobs (ERC-8183) and the activity feed. One agentJob workflow per job
// (workflow id = job id) drives the escrow on-chain; the api only creates,
// approves and reads. Every action is an activity record and an
// `agent.action_executed` event, written in the transaction of the change.
import type { Client } from '@temporalio/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Db, Sql } from '../db/client.js';
import { chainsOf, type ChainConfig } from '../chain/config.js';
import { InvalidRequestError, InvalidStateError, NotFoundError } from '../errors.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { recordEvent } from '../events/outbox.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import { newId } from '../ids.js';
import type { SecretBox } from '../security/encryption.js';
import {
  createWorkflowStarter,
  queueWorkflowStart,
  withSignal,
  workflowStart,
  type QueuedWorkflowStart,
  type WorkflowStart,
} from '../temporal/start-outbox.js';
import { agentJobWorkflow, agentJobWorkflowId, approveAgentJobSignal, settleAgentJobSignal } from '../../workflows/agent-job.js';
import * as repo from './repo.js';
import {
  AGENT_CONFIG_DEFAULTS,
  PROPOSAL_TTL_SECONDS,
  type ActivityActionType,
  type ActivityCapability,
  type ActivityListQuery,
  type ActivityOutcome,
  type AgentActivity,
  type AgentConfig,
  type AgentJob,
  type CreateJobBody,
  type JobDecision,
  type JobListQuery,
  type SettleJobBody,
  type SettleRequest,
  type StoredAgentConfig,
  type UpdateAgentConfigBody,
} from './schemas.js';

/** USDC base units per USD cent (6 decimals). */
export const UNITS_PER_CENT = 10_000n;

/** The amount in USD cents, rounded up (so a job never slips under a threshold by a fraction of a cent). */
export function amountInCents(amount: bigint): bigint {
  return (amount + UNITS_PER_CENT - 1n) / UNITS_PER_CENT;
}

export function defaultAgentConfig(): StoredAgentConfig {
  return structuredClone({
    enabledCapabilities: [...AGENT_CONFIG_DEFAULTS.enabledCapabilities],
    recovery: { ...AGENT_CONFIG_DEFAULTS.recovery },
    cashflow: { ...AGENT_CONFIG_DEFAULTS.cashflow },
    commerce: { ...AGENT_CONFIG_DEFAULTS.commerce, approvedVendors: [] },
  });
}

/** Only the keys sent; nested objects merged key by key. */
export function mergeAgentConfig(current: StoredAgentConfig, patch: UpdateAgentConfigBody): StoredAgentConfig {
  return {
    enabledCapabilities: patch.enabledCapabilities ?? current.enabledCapabilities,
    recovery: { ...current.recovery, ...patch.recovery },
    cashflow: { ...current.cashflow, ...patch.cashflow },
    commerce: { ...current.commerce, ...patch.commerce },
  };
}

/** Paths (`commerce.approvedVendors`) whose value the patch changed. */
function changedPaths(before: StoredAgentConfig, after: StoredAgentConfig): string[] {
  const out: string[] = [];
  if (JSON.stringify(before.enabledCapabilities) !== JSON.stringify(after.enabledCapabilities)) out.push('enabledCapabilities');
  for (const group of ['recovery', 'cashflow', 'commerce'] as const) {
    const a = before[group] as Record<string, unknown>;
    const b = after[group] as Record<string, unknown>;
    for (const key of Object.keys(b)) if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) out.push(`${group}.${key}`);
  }
  return out;
}

export function renderAgentConfig(row: repo.ConfigRow, walletAddress: string | null): AgentConfig {
  const c = row.config;
  return {
    object: 'agent_config',
    enabledCapabilities: c.enabledCapabilities as AgentConfig['enabledCapabilities'],
    recovery: c.recovery as AgentConfig['recovery'],
    cashflow: c.cashflow as AgentConfig['cashflow'],
    commerce: c.commerce as AgentConfig['commerce'],
    agentWallet: { address: walletAddress },
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function renderJob(row: repo.JobRow): AgentJob {
  return {
    id: row.id,
    object: 'agent_job',
    vendorAddress: row.vendorAddress,
    evaluatorAddress: row.evaluatorAddress,
    description: row.description,
    amount: row.amount,
    currency: row.currency,
    amountUsdCents: row.amountUsdCents,
    status: row.status,
    approvalReasons: row.approvalReasons as AgentJob['approvalReasons'],
    approvalDeadline: row.approvalDeadline.toISOString(),
    chainId: row.chainId,
    escrowAddress: row.escrowAddress,
    onchainJobId: row.onchainJobId,
    expiresAt: row.expiredAt?.toISOString() ?? null,
    transactions: {
      create: row.createTransactionHash,
      fund: row.fundTransactionHash,
      submit: row.submitTransactionHash,
      settle: row.settleTransactionHash,
      refund: row.refundTransactionHash,
    },
    deliverable: row.deliverable,
    failureReason: row.failureReason,
    failureCode: (row.failureCode as AgentJob['failureCode']) ?? null,
    approvedAt: row.approvedAt?.toISOString() ?? null,
    fundedAt: row.fundedAt?.toISOString() ?? null,
    submittedAt: row.submittedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
  };
}

export function renderActivity(row: repo.ActivityRow): AgentActivity {
  return {
    id: row.id,
    object: 'agent_activity',
    capability: row.capability,
    actionType: row.actionType,
    outcome: row.outcome,
    subscriptionId: row.subscriptionId,
    transactionId: row.transactionId,
    jobId: row.jobId,
    summary: row.summary,
    details: row.details,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
  };
}

export type AgentAction = {
  merchantId: string;
  livemode: boolean;
  capability: ActivityCapability;
  actionType: ActivityActionType;
  outcome: ActivityOutcome;
  summary: string;
  /** Names the action for ever: recording it twice records it once. */
  actionKey: string;
  subscriptionId?: string | null;
  transactionId?: string | null;
  jobId?: string | null;
  details?: Record<string, unknown>;
};

/**
 * One activity record and its `agent.action_executed` event, in the caller's transaction. Returns the
 * event id when this call recorded the action (undefined when its key was recorded already).
 */
export async function recordAgentAction(tx: Db, action: AgentAction): Promise<string | undefined> {
  const row = await repo.insertActivity(tx, {
    id: newId('agentActivity'),
    merchantId: action.merchantId,
    livemode: action.livemode,
    capability: action.capability,
    actionType: action.actionType,
    outcome: action.outcome,
    subscriptionId: action.subscriptionId ?? null,
    transactionId: action.transactionId ?? null,
    jobId: action.jobId ?? null,
    summary: action.summary,
    details: action.details ?? {},
    actionKey: action.actionKey,
  });
  if (!row) return undefined;
  const event = await recordEvent(tx, {
    merchantId: action.merchantId,
    livemode: action.livemode,
    type: 'agent.action_executed',
    data: { object: renderActivity(row) },
  });
  return event.id;
}

/** Formats base units of a 6-decimal token (`1234500` -> `1.2345`). */
export function formatUnits6(amount: string): string {
  const units = BigInt(amount);
  const fraction = (units % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${units / 1_000_000n}${fraction ? `.${fraction}` : ''}`;
}

/** The agent wallet of the scope, generated and sealed on first use (the key never leaves this module in clear). */
export async function ensureAgentWallet(db: Db, secretBox: SecretBox, scope: MerchantScope): Promise<repo.WalletRow> {
  const existing = await repo.findWallet(db, scope);
  if (existing) return existing;
  const key = generatePrivateKey();
  const address = privateKeyToAccount(key).address;
  return repo.insertWallet(db, { ...scope, address, sealedKey: secretBox.seal(key, agentWalletContext(scope)) });
}

/** The associated data binding a sealed agent key to its merchant and mode. */
export function agentWalletContext(scope: MerchantScope): string {
  return `agent_wallet:${scope.merchantId}:${scope.livemode ? 'live' : 'test'}`;
}

export function agentJobWorkflowStart(
  taskQueue: string,
  row: Pick<repo.JobRow, 'id' | 'merchantId' | 'livemode' | 'status' | 'chainId'>,
): WorkflowStart {
  return workflowStart(agentJobWorkflow, {
    workflowId: agentJobWorkflowId(row.id),
    taskQueue,
    args: [{ jobId: row.id }],
    tags: {
      merchantId: row.merchantId,
      livemode: row.livemode,
      object: 'agent_job',
      objectId: row.id,
      businessStatus: row.status,
      // Search attribute ChainId (issue 39, item 5): where its escrow runs.
      ...(row.chainId === null ? {} : { chainId: row.chainId }),
    },
  });
}

export type AgentServiceDeps = {
  sql: Sql;
  secretBox: SecretBox;
  events: EventDispatcher;
  temporal?: Client;
  taskQueue: string;
  onStartError?: (error: unknown, start: QueuedWorkflowStart) => void;
  /** The chains of each mode: a job's escrow runs on one of them. */
  chain?: ChainConfig;
};

/**
 * The chain a new job's escrow runs on: the one asked for when the mode has it (else `invalid_request` naming
 * `chainId`), by default the mode's first; null only where the mode has no chain at all (the job fails when funded).
 */
function jobChainId(config: ChainConfig, livemode: boolean, asked: number | undefined): number | null {
  const chains = chainsOf(config, livemode);
  if (asked === undefined) return chains[0]?.chainId ?? null;
  if (!chains.some((settings) => settings.chainId === asked)) {
    const configured = chains.length > 0 ? chains.map((settings) => settings.chainId).join(', ') : 'none';
    throw new InvalidRequestError(`Chain ${asked} is not one of this mode's chains (${configured}).`, { param: 'chainId' });
  }
  return asked;
}

export function createAgentService({ sql, secretBox, events, temporal, taskQueue, onStartError, chain }: AgentServiceDeps) {
  const starter = createWorkflowStarter(temporal, sql, onStartError ?? (() => {}));

  async function loadJob(scope: MerchantScope, id: string, tx: Db = sql) {
    const row = await repo.findJob(tx, scope, id);
    if (!row) throw new NotFoundError(`No such agent job: ${id}.`, { param: 'id' });
    return row;
  }

  return {
    async getConfig(scope: MerchantScope): Promise<AgentConfig> {
      const row = await repo.ensureConfig(sql, scope, defaultAgentConfig());
      // The wallet is created with the configuration, so the merchant can fund it before the first job.
      const wallet = await ensureAgentWallet(sql, secretBox, scope);
      return renderAgentConfig(row, wallet.address);
    },

    async updateConfig(scope: MerchantScope, patch: UpdateAgentConfigBody): Promise<AgentConfig> {
      const { row, eventId } = await sql.begin(async (tx) => {
        await repo.ensureConfig(tx, scope, defaultAgentConfig());
        const current = await repo.lockConfig(tx, scope);
        const next = mergeAgentConfig(current.config, patch);
        const changed = changedPaths(current.config, next);
        if (changed.length === 0) return { row: current, eventId: undefined };
        const row = await repo.updateConfig(tx, scope, next);
        const eventId = await recordAgentAction(tx, {
          ...scope,
          capability: 'configuration',
          actionType: 'config_updated',
          outcome: 'succeeded',
          summary: `Agent configuration updated: ${changed.join(', ')}.`,
          actionKey: `config:${newId('agentActivity')}`,
          details: { changed },
        });
        return { row, eventId };
      });
      if (eventId) await events.dispatch(sql, [eventId]);
      const wallet = await repo.findWallet(sql, scope);
      return renderAgentConfig(row, wallet?.address ?? null);
    },

    /**
     * Creates the job: auto-approved when every rule holds (amount below the approval threshold, vendor
     * in approvedVendors, the month's approved jobs plus this one within the cap), else `proposed`
     * with the reasons and `agent.job_proposed`. The config row is locked, so concurrent creates
     * see each other's approvals when they check the cap.
     */
    async createJob(scope: MerchantScope, input: CreateJobBody): Promise<AgentJob> {
      const chainId = jobChainId(chain ?? {}, scope.livemode, input.chainId);
      const { row, starts, eventIds } = await sql.begin(async (tx) => {
        await repo.ensureConfig(tx, scope, defaultAgentConfig());
        const config = (await repo.lockConfig(tx, scope)).config;
        const wallet = await ensureAgentWallet(tx, secretBox, scope);
        const amount = BigInt(input.amount);
        const cents = amountInCents(amount);
        const reasons: string[] = [];
        if (amount >= BigInt(config.commerce.requireHumanApprovalAboveUsdCents) * UNITS_PER_CENT)
          reasons.push('amount_at_or_above_threshold');
        if (!config.commerce.approvedVendors.some((v) => v.toLowerCase() === input.vendorAddress.toLowerCase()))
          reasons.push('vendor_not_approved');
        if ((await repo.approvedCentsInMonth(tx, scope, new Date())) + cents > BigInt(config.commerce.monthlySpendCapUsdCents))
          reasons.push('monthly_spend_cap');
        const status = reasons.length === 0 ? 'approved' : 'proposed';
        const row = await repo.insertJob(tx, {
          id: newId('agentJob'),
          ...scope,
          vendorAddress: input.vendorAddress,
          evaluatorAddress: input.evaluatorAddress ?? wallet.address,
          description: input.description,
          amount: amount.toString(),
          currency: input.currency,
          amountUsdCents: cents.toString(),
          status,
          approvalReasons: reasons,
          expiresInSeconds: input.expiresInSeconds,
          approvalDeadline: new Date(Date.now() + PROPOSAL_TTL_SECONDS * 1000),
          chainId,
        });
        const eventIds: string[] = [];
        const created = await recordAgentAction(tx, {
          ...scope,
          capability: 'commerce',
          actionType: status === 'approved' ? 'job_approved' : 'job_proposed',
          outcome: status === 'approved' ? 'succeeded' : 'pending_approval',
          summary:
            status === 'approved'
              ? `Job ${row.id} for ${formatUnits6(row.amount)} ${row.currency} to ${row.vendorAddress} auto-approved.`
              : `Job ${row.id} for ${formatUnits6(row.amount)} ${row.currency} to ${row.vendorAddress} proposed for human approval (${reasons.join(', ')}).`,
          actionKey: `job:${row.id}:created`,
          jobId: row.id,
          details: { approvalReasons: reasons },
        });
        if (created) eventIds.push(created);
        if (status === 'proposed') {
          eventIds.push((await recordEvent(tx, { ...scope, type: 'agent.job_proposed', data: { object: renderJob(row) } })).id);
        }
        return { row, starts: [await queueWorkflowStart(tx, agentJobWorkflowStart(taskQueue, row))], eventIds };
      });
      await starter.startAfterCommit(starts);
      await events.dispatch(sql, eventIds);
      return renderJob(row);
    },

    /** proposed -> approved, then tells the job's workflow (signal-with-start through the outbox of starts). */
    async approveJob(scope: MerchantScope, id: string): Promise<AgentJob> {
      const { row, start, eventId } = await sql.begin(async (tx) => {
        const job = await loadJob(scope, id, tx);
        const row =
          job.status === 'proposed' ? await repo.transitionJob(tx, id, ['proposed'], 'approved', { approvedAt: true }) : undefined;
        if (!row) throw new InvalidStateError(`Only a proposed job can be approved; this one is ${job.status}.`, { param: 'id' });
        const eventId = await recordAgentAction(tx, {
          ...scope,
          capability: 'commerce',
          actionType: 'job_approved',
          outcome: 'succeeded',
          summary: `Job ${row.id} for ${formatUnits6(row.amount)} ${row.currency} approved by a human.`,
          actionKey: `job:${row.id}:approved`,
          jobId: row.id,
        });
        return {
          row,
          start: await queueWorkflowStart(tx, withSignal(agentJobWorkflowStart(taskQueue, row), approveAgentJobSignal)),
          eventId,
        };
      });
      await starter.startAfterCommit([start]);
      if (eventId) await events.dispatch(sql, [eventId]);
      return renderJob(row);
    },

    /**
     * The evaluator's decision, when the evaluator is the agent wallet (the default): `complete`
     * (submitted -> released to the vendor) or `reject` (funded or submitted -> refunded). The job's
     * workflow sends it from the agent wallet (signal-with-start through the outbox of starts); the
     * job's status moves when the transaction is mined. Answers the job as it is now.
     */
    async settleJob(scope: MerchantScope, id: string, decision: JobDecision, body: SettleJobBody): Promise<AgentJob> {
      const { row, start } = await sql.begin(async (tx) => {
        const job = await loadJob(scope, id, tx);
        const wallet = await repo.findWallet(tx, scope);
        if (!wallet || wallet.address.toLowerCase() !== job.evaluatorAddress.toLowerCase()) {
          throw new InvalidStateError(
            `The evaluator of this job is ${job.evaluatorAddress}, not the agent wallet: it decides on-chain itself.`,
            { param: 'id' },
          );
        }
        const allowed = decision === 'complete' ? ['submitted'] : ['funded', 'submitted'];
        if (!allowed.includes(job.status)) {
          throw new InvalidStateError(
            `Only a ${allowed.join(' or ')} job can be ${decision === 'complete' ? 'completed' : 'rejected'}; this one is ${job.status}.`,
            { param: 'id' },
          );
        }
        const request: SettleRequest = { decision, reason: body.reason ?? null };
        const start = await queueWorkflowStart(tx, withSignal(agentJobWorkflowStart(taskQueue, job), settleAgentJobSignal, request));
        return { row: job, start };
      });
      await starter.startAfterCommit([start]);
      return renderJob(row);
    },

    async getJob(scope: MerchantScope, id: string): Promise<AgentJob> {
      return renderJob(await loadJob(scope, id));
    },

    async listJobs(scope: MerchantScope, query: JobListQuery): Promise<Page<AgentJob>> {
      const rows = await repo.listJobs(sql, scope, { before: decodeCursor(query.cursor), limit: query.limit, status: query.status });
      return toPage(rows, query.limit, renderJob);
    },

    async listActivity(scope: MerchantScope, query: ActivityListQuery): Promise<Page<AgentActivity>> {
      const rows = await repo.listActivity(sql, scope, {
        before: decodeCursor(query.cursor),
        limit: query.limit,
        capability: query.capability,
        actionType: query.actionType,
        outcome: query.outcome,
        subscriptionId: query.subscriptionId,
        transactionId: query.transactionId,
        jobId: query.jobId,
      });
      return toPage(rows, query.limit, renderActivity);
    },
  };
}

export type AgentService = ReturnType<typeof createAgentService>;
