// The `webhooks` section of the OpenAPI document (3.1): the body a webhook endpoint receives for
// the failure events of token refusals, `payment.failed`, `refund.failed`, `agent.job_failed`,
// `subscription.charge_failed` and `payment.deposit_sweep_blocked`. Every body is the envelope of src/webhooks/payload.ts; `data.object`
// references the resource's own component schema, so the payload and the API object cannot drift.
// docs/events.md has the same in prose.
import { REFUSAL_CODES } from '../chain/refusals.js';
import type { EventType } from './types.js';

type JsonSchema = Record<string, unknown>;

const ref = (component: string): JsonSchema => ({ $ref: `#/components/schemas/${component}` });

const retry: JsonSchema = {
  type: 'string',
  enum: ['never', 'later', 'dunning'],
  description:
    '`never`: the cause does not go away by waiting (a blacklisted address, a bad or used signature); `later`: the token is paused (or the authorization is not valid yet), the same call can succeed once it resumes; `dunning`: low balance or allowance, retried on the dunning schedule.',
};

function envelope(type: EventType, data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['id', 'object', 'type', 'created', 'livemode', 'data'],
    properties: {
      id: { type: 'string', description: 'The event id (`evt_...`); the same for every delivery attempt.' },
      object: { const: 'event' },
      type: { const: type },
      created: { type: 'string', format: 'date-time' },
      livemode: { type: 'boolean' },
      data,
    },
  };
}

function webhook(type: EventType, summary: string, description: string, data: JsonSchema): JsonSchema {
  return {
    post: {
      summary,
      description: `${description}\n\nRefusal codes (\`failureCode\`): ${REFUSAL_CODES.map((code) => `\`${code}\``).join(', ')}. Signed as every webhook (Standard Webhooks headers).`,
      tags: ['Events'],
      requestBody: { required: true, content: { 'application/json': { schema: envelope(type, data) } } },
      responses: { '2XX': { description: 'Received; any other status (or a timeout) is retried.' } },
    },
  };
}

/** The transfer a deposit event carries beside its session (renderDepositRecord in src/payment-sessions/deposit-accounting.ts). */
const depositRecord: JsonSchema = {
  type: 'object',
  required: ['id', 'object', 'paymentSessionId', 'address', 'from', 'amount', 'status', 'transactionHash', 'livemode', 'createdAt'],
  properties: {
    id: { type: 'string', description: 'The deposit id.' },
    object: { const: 'deposit' },
    paymentSessionId: { type: 'string' },
    address: { type: 'string', description: "The session's deposit address the transfer went to." },
    from: { type: 'string', description: 'Who sent the transfer.' },
    amount: { type: 'string', description: 'Token base units (USDC: 6 decimals), as an integer string.' },
    status: { type: 'string', enum: ['pending', 'credited', 'late', 'removed'], description: "The deposit's accounting status." },
    transactionHash: { type: 'string' },
    logIndex: { type: 'integer' },
    blockNumber: { type: 'string' },
    sweepTransactionHash: { type: ['string', 'null'], description: 'The sweep transaction the token refused, when one was sent.' },
    livemode: { type: 'boolean' },
    createdAt: { type: 'string', format: 'date-time' },
  },
};

export function eventWebhooks(): Record<string, JsonSchema> {
  return {
    'payment.failed': webhook(
      'payment.failed',
      'A relayed payment failed',
      'The token refused the payment (or its transaction reverted): the relay submission is `failed` with `failureCode` (a refusal code, else the contract error name, `Reverted` or `NonceConsumed`) and `failureReason`. The payment session is open again (or expired), so the customer can pay anew when `retry` allows it.',
      {
        type: 'object',
        required: ['object', 'paymentSessionId', 'retry'],
        properties: { object: ref('RelaySubmission'), paymentSessionId: { type: ['string', 'null'] }, retry },
      },
    ),
    'refund.failed': webhook(
      'refund.failed',
      "The token refused a refund's transfer",
      "The refund's recorded transfer reverted because USDC refused it: the refund is `failed` with `failureCode` and `failureReason`, and no longer reserves its amount. Create a new refund once the cause is gone (`retry`).",
      { type: 'object', required: ['object', 'retry'], properties: { object: ref('Refund'), retry } },
    ),
    'agent.job_failed': webhook(
      'agent.job_failed',
      'An approved agent job could not be funded',
      'An escrow call of the job reverted: `failureReason` says which, and `failureCode` names the token refusal when USDC refused it (a blacklisted agent wallet, too low a balance). Nothing is escrowed. A paused token does not fail a job: its funding waits until USDC resumes.',
      { type: 'object', required: ['object'], properties: { object: ref('AgentJob') } },
    ),
    'subscription.charge_failed': webhook(
      'subscription.charge_failed',
      'A subscription charge failed',
      "The charge is `failed` with `failureCode`: `insufficient_funds`/`insufficient_allowance` follow the dunning schedule (`at_risk`, retried until the merchant's grace window ends); `token_paused` is retried the same way and succeeds once USDC resumes; `payer_blacklisted`/`merchant_blacklisted` lapse the subscription at once (`subscription.lapsed` follows).",
      {
        type: 'object',
        required: ['object', 'subscription'],
        properties: { object: ref('SubscriptionCharge'), subscription: ref('Subscription') },
      },
    ),
    'payment.deposit_sweep_blocked': webhook(
      'payment.deposit_sweep_blocked',
      "The token refused to move a deposit to the merchant's payout address",
      "A version 2 deposit address received the transfer but USDC refused to move it to the payout address (the payout is blacklisted, or the token is paused): the deposit stays at its address, marked blocked, and the payment session's accounting is unchanged. One event per deposit, sent to its own merchant only. The sweep is tried again by itself once the cause is gone (`retry: later`): unblacklist or change nothing, it needs no call. `failureCode` is a refusal code, or `sweep_failed` when the token named nothing known.",
      {
        type: 'object',
        required: ['object', 'deposit', 'payoutAddress', 'failureCode', 'failureReason', 'retry'],
        properties: {
          object: ref('PaymentSession'),
          deposit: depositRecord,
          payoutAddress: { type: 'string', description: 'The payout address the token refused to pay.' },
          failureCode: { type: 'string', description: 'A refusal code (`merchant_blacklisted`, `token_paused`, ...) or `sweep_failed`.' },
          failureReason: { type: 'string' },
          retry: { ...retry, const: 'later' },
        },
      },
    ),
  };
}
