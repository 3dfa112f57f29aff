// Request and response shapes of agents (spec: Agent configuration, Agent job,
// Agent activity record). Defaults and every enum value are documented here and
// in docs/agents.md; they appear in /openapi.json.
import { getAddress, isAddress } from 'viem';
import { z } from 'zod';
import { listOf, listQueryOf } from '../http/pagination.js';
import { amountString, chainIdField, idParam, pathId, timestamp } from '../http/schemas.js';
import { REFUSAL_CODES } from '../chain/refusals.js';

export const CAPABILITIES = ['recovery', 'cashflow', 'pricing_intelligence'] as const;
export const RECOVERY_STRATEGIES = ['once', 'twice', 'daily'] as const;
export const ANOMALY_SENSITIVITIES = ['low', 'medium', 'high'] as const;

/** A wallet address: 0x + 40 hex; mixed case must carry a valid EIP-55 checksum. Answered checksummed. */
export const walletAddress = z
  .string()
  .refine(
    (value) => isAddress(value, { strict: true }),
    'must be a 0x-prefixed 20-byte address (mixed case must be a valid EIP-55 checksum)',
  )
  .transform((value) => getAddress(value))
  .describe(
    'Wallet address (0x + 40 hex digits). All-lowercase is accepted; mixed case must be a valid EIP-55 checksum. Returned checksummed.',
  );

const cents = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** The documented defaults (docs/agents.md, Defaults). */
export const AGENT_CONFIG_DEFAULTS = {
  enabledCapabilities: [] as string[],
  recovery: {
    gracePeriodHours: 72,
    strategy: 'twice',
    notificationTemplate: 'Your payment to {merchantName} failed. Please top up your wallet to keep your subscription active.',
  },
  cashflow: { digestEnabled: false, anomalySensitivity: 'medium', autoConvertToYield: false, minimumLiquidReserveCents: 0 },
  commerce: { requireHumanApprovalAboveUsdCents: 10_000, approvedVendors: [] as string[], monthlySpendCapUsdCents: 100_000 },
} as const;

const recoveryFields = {
  gracePeriodHours: z
    .number()
    .int()
    .min(0)
    .max(8760)
    .describe(
      `Hours a failed charge may be recovered before the subscription lapses (0 to 8760, default ${AGENT_CONFIG_DEFAULTS.recovery.gracePeriodHours}).`,
    ),
  strategy: z
    .enum(RECOVERY_STRATEGIES)
    .describe(
      'When recovery retries a failed charge, in hours after the first refusal (grace window G): `once` (at G), `twice` (at G/2 and G, the default), `daily` (every 24 h below G, and at G). A top-up seen on-chain retries at once besides.',
    ),
  notificationTemplate: z
    .string()
    .max(2000)
    .describe(
      'Text of the customer notice (up to 2000 characters). Placeholders: `{merchantName}`, `{planName}`, `{amount}`, `{currency}`, `{subscriptionId}`, `{customerEmail}`, `{status}`, `{graceDeadline}`, `{topUpUrl}`; the top-up link is appended when `{topUpUrl}` is absent.',
    ),
};
const cashflowFields = {
  digestEnabled: z.boolean().describe('Whether the cashflow digest runs (default false).'),
  anomalySensitivity: z
    .enum(ANOMALY_SENSITIVITIES)
    .describe('`low`, `medium` (default) or `high`: how small a deviation counts as an anomaly.'),
  autoConvertToYield: z.boolean().describe('Whether idle balance above the reserve moves to the yield vault (default false).'),
  minimumLiquidReserveCents: cents.describe('USD cents always kept liquid (non-negative integer, default 0).'),
};
const commerceFields = {
  requireHumanApprovalAboveUsdCents: cents.describe(
    'A job whose amount, in USD cents, is at or above this needs human approval (default 10000 = $100). USDC: 1 cent = 10,000 base units.',
  ),
  approvedVendors: z
    .array(walletAddress)
    .max(500)
    .describe('Vendors a job may be auto-approved for (default empty: every job needs approval).'),
  monthlySpendCapUsdCents: cents.describe(
    'Auto-approval never takes the calendar month (UTC) of approved jobs above this many USD cents (default 100000 = $1,000); a job past it is proposed for a human.',
  ),
};

export const agentConfig = z
  .object({
    object: z.literal('agent_config'),
    enabledCapabilities: z.array(z.enum(CAPABILITIES)),
    recovery: z.object(recoveryFields),
    cashflow: z.object(cashflowFields),
    commerce: z.object(commerceFields),
    agentWallet: z
      .object({
        address: z
          .string()
          .nullable()
          .describe(
            'Address of the agent wallet that funds escrow jobs (created with the configuration). Fund it with USDC and native gas.',
          ),
      })
      .describe('The wallet the service holds for this merchant and mode (docs/agents.md, Custody).'),
    livemode: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'AgentConfig' });

export const updateAgentConfigBody = z
  .object({
    enabledCapabilities: z
      .array(z.enum(CAPABILITIES))
      .max(CAPABILITIES.length)
      .refine((list) => new Set(list).size === list.length, 'must not repeat a capability')
      .optional()
      .describe('Capabilities the agent may act with (default none).'),
    recovery: z.object(recoveryFields).partial().strict().optional(),
    cashflow: z.object(cashflowFields).partial().strict().optional(),
    commerce: z.object(commerceFields).partial().strict().optional(),
  })
  .strict()
  .describe('Only the keys sent are applied; nested objects are merged key by key.');

/** The stored configuration (the API's object without the rendering fields). */
export type StoredAgentConfig = {
  enabledCapabilities: string[];
  recovery: { gracePeriodHours: number; strategy: string; notificationTemplate: string };
  cashflow: { digestEnabled: boolean; anomalySensitivity: string; autoConvertToYield: boolean; minimumLiquidReserveCents: number };
  commerce: { requireHumanApprovalAboveUsdCents: number; approvedVendors: string[]; monthlySpendCapUsdCents: number };
};

export const JOB_STATUSES = [
  'proposed',
  'approved',
  'funded',
  'submitted',
  'completed',
  'rejected',
  'disputed',
  'expired',
  'failed',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const APPROVAL_REASONS = ['amount_at_or_above_threshold', 'vendor_not_approved', 'monthly_spend_cap'] as const;

/** Default and bounds of a job's escrow lifetime (seconds after approval). */
export const JOB_EXPIRY = { defaultSeconds: 7 * 24 * 3600, minSeconds: 10, maxSeconds: 365 * 24 * 3600 } as const;
/** A proposed job nobody approves expires after this long. */
export const PROPOSAL_TTL_SECONDS = 72 * 3600;

export const createJobBody = z
  .object({
    vendorAddress: walletAddress.describe('The provider (ERC-8183) who does the work and is paid on completion.'),
    description: z.string().trim().min(1).max(1000),
    amount: amountString.describe('Budget in the token base units (USDC: 6 decimals, so 1 cent = 10,000 units).'),
    currency: z.enum(['USDC']).describe("`USDC`, the escrow contract's payment token."),
    evaluatorAddress: walletAddress
      .optional()
      .describe('Who accepts or rejects the submitted work on-chain (ERC-8183 evaluator). Default: the agent wallet itself.'),
    expiresInSeconds: z
      .number()
      .int()
      .min(JOB_EXPIRY.minSeconds)
      .max(JOB_EXPIRY.maxSeconds)
      .default(JOB_EXPIRY.defaultSeconds)
      .describe('Escrow lifetime counted from approval (default 604800 = 7 days); after it the escrow is refunded to the agent wallet.'),
    chainId: chainIdField
      .optional()
      .describe(
        "The chain (EIP-155 id) the escrow runs on: one of the mode's configured chains, where the agent wallet must hold the USDC (and gas). Default: the mode's first chain.",
      ),
  })
  .strict();

export const agentJob = z
  .object({
    id: z.string(),
    object: z.literal('agent_job'),
    vendorAddress: z.string(),
    evaluatorAddress: z.string(),
    description: z.string(),
    amount: z.string(),
    currency: z.string(),
    amountUsdCents: z
      .string()
      .describe('amount converted to USD cents (USDC: amount / 10,000, rounded up), as compared with the thresholds.'),
    status: z
      .enum(JOB_STATUSES)
      .describe(
        'proposed -> approved -> funded -> submitted -> completed | disputed; funded -> rejected; funded | submitted -> expired (refunded); proposed -> expired (nobody approved); approved -> failed. docs/agents.md has the table.',
      ),
    approvalReasons: z.array(z.enum(APPROVAL_REASONS)).describe('Why the job needs human approval (empty when auto-approved).'),
    approvalDeadline: timestamp.describe('A proposed job not approved by then expires.'),
    chainId: z
      .number()
      .int()
      .nullable()
      .describe('The chain the escrow runs on, chosen at creation (null only for a mode with no chain configured).'),
    escrowAddress: z.string().nullable(),
    onchainJobId: z.string().nullable().describe('The job id on the escrow contract.'),
    expiresAt: timestamp.nullable().describe('The on-chain deadline (expiredAt) of the escrow.'),
    transactions: z.object({
      create: z.string().nullable(),
      fund: z.string().nullable(),
      submit: z.string().nullable(),
      settle: z.string().nullable().describe('complete (released to the vendor) or reject.'),
      refund: z.string().nullable().describe('claimRefund after expiry.'),
    }),
    deliverable: z.string().nullable(),
    failureReason: z.string().nullable(),
    failureCode: z
      .enum(REFUSAL_CODES)
      .nullable()
      .describe(
        'A `failed` job whose escrow call the token refused: the named refusal (`token_paused`, `payer_blacklisted` for the agent wallet, `insufficient_funds`, ...); null for other failures.',
      ),
    approvedAt: timestamp.nullable(),
    fundedAt: timestamp.nullable(),
    submittedAt: timestamp.nullable(),
    finishedAt: timestamp.nullable(),
    livemode: z.boolean(),
    createdAt: timestamp,
  })
  .meta({ id: 'AgentJob' });

export const jobParams = z.object({ id: pathId('agentJob') });
export const JOB_DECISIONS = ['complete', 'reject'] as const;
export type JobDecision = (typeof JOB_DECISIONS)[number];
export const settleJobBody = z
  .object({
    reason: z
      .string()
      .max(200)
      .optional()
      .describe(
        'Why (optional, up to 200 characters). On-chain the escrow records its keccak256 as the bytes32 `reason`; zero without one.',
      ),
  })
  .strict();
export type SettleJobBody = z.infer<typeof settleJobBody>;
/** What the evaluator API asks the job's workflow to send from the agent wallet. */
export type SettleRequest = { decision: JobDecision; reason: string | null };
export const jobList = listOf(agentJob);
export const jobListQuery = listQueryOf('agentJob').extend({
  status: z.enum(JOB_STATUSES).optional().describe('Only jobs in this status.'),
});

export const ACTIVITY_CAPABILITIES = ['recovery', 'cashflow', 'pricing_intelligence', 'commerce', 'configuration'] as const;
export const ACTIVITY_ACTION_TYPES = [
  'config_updated',
  'job_created',
  'job_proposed',
  'job_approved',
  'job_funded',
  'job_submitted',
  'job_completed',
  'job_rejected',
  'job_disputed',
  'job_expired',
  'job_refunded',
  'job_failed',
  // recovery (docs/agents.md, Recovery)
  'recovery_started',
  'customer_notified',
  'charge_retried',
  'subscription_recovered',
  'subscription_lapsed',
  // cashflow
  'digest_sent',
  'revenue_anomaly',
  'yield_deposited',
  'yield_withdrawn',
  // pricing_intelligence
  'price_suggestion',
] as const;
export const ACTIVITY_OUTCOMES = ['succeeded', 'failed', 'pending_approval', 'suggested'] as const;
export type ActivityCapability = (typeof ACTIVITY_CAPABILITIES)[number];
export type ActivityActionType = (typeof ACTIVITY_ACTION_TYPES)[number];
export type ActivityOutcome = (typeof ACTIVITY_OUTCOMES)[number];

export const agentActivity = z
  .object({
    id: z.string(),
    object: z.literal('agent_activity'),
    capability: z
      .enum(ACTIVITY_CAPABILITIES)
      .describe('`commerce` for escrow jobs, `configuration` for config changes; the three capabilities for their actions.'),
    actionType: z.string().describe(`One of ${ACTIVITY_ACTION_TYPES.map((a) => `\`${a}\``).join(', ')} (capabilities add theirs).`),
    outcome: z.enum(ACTIVITY_OUTCOMES),
    subscriptionId: z.string().nullable(),
    transactionId: z.string().nullable().describe('The on-chain transaction hash of the action, when it sent one.'),
    jobId: z.string().nullable(),
    summary: z.string().describe('Human-readable one-line summary.'),
    details: z.record(z.string(), z.unknown()),
    livemode: z.boolean(),
    createdAt: timestamp,
  })
  .meta({ id: 'AgentActivity' });

export const activityList = listOf(agentActivity);
export const activityListQuery = listQueryOf('agentActivity').extend({
  capability: z.enum(ACTIVITY_CAPABILITIES).optional(),
  actionType: z.enum(ACTIVITY_ACTION_TYPES).optional(),
  outcome: z.enum(ACTIVITY_OUTCOMES).optional(),
  subscriptionId: idParam('subscription').optional(),
  transactionId: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte transaction hash')
    .optional(),
  jobId: idParam('agentJob').optional(),
});

export type AgentConfig = z.infer<typeof agentConfig>;
export type UpdateAgentConfigBody = z.infer<typeof updateAgentConfigBody>;
export type CreateJobBody = z.infer<typeof createJobBody>;
export type AgentJob = z.infer<typeof agentJob>;
export type JobListQuery = z.infer<typeof jobListQuery>;
export type AgentActivity = z.infer<typeof agentActivity>;
export type ActivityListQuery = z.infer<typeof activityListQuery>;
