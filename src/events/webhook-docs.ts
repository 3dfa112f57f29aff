// The `webhooks` section of the OpenAPI document (3.1): the body a webhook endpoint receives for
// the failure events of token refusals, `payment.failed`, `refund.failed`, `agent.job_failed`,
// `subscription.charge_failed` and `payment.deposit_sweep_blocked`, and of the coupon, promotion code
// and discount events, of cancel at period end and the trial notice, and of the customer portal (issue 40;
// an example body each, coupon-event-examples.ts, subscription-event-examples.ts, billing-portal-event-examples.ts). Every body is the
// envelope of src/webhooks/payload.ts; `data.object` references the resource's own component schema,
// so the payload and the API object cannot drift. docs/events.md has the same in prose.
import { REFUSAL_CODES } from '../chain/refusals.js';
import { billingPortalEventExamples } from './billing-portal-event-examples.js';
import { couponEventExamples } from './coupon-event-examples.js';
import { planChangeEventExamples } from './plan-change-event-examples.js';
import { subscriptionEventExamples } from './subscription-event-examples.js';
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

/** A state-change event (no refusal codes), with its example body. */
function changeWebhook(type: EventType, summary: string, description: string, data: JsonSchema): JsonSchema {
  const example =
    couponEventExamples[type] ?? planChangeEventExamples[type] ?? subscriptionEventExamples[type] ?? billingPortalEventExamples[type];
  return {
    post: {
      summary,
      description: `${description}\n\nSigned as every webhook (Standard Webhooks headers).`,
      tags: ['Events'],
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: envelope(type, data), ...(example ? { examples: { [type]: { value: example } } } : {}) },
        },
      },
      responses: { '2XX': { description: 'Received; any other status (or a timeout) is retried.' } },
    },
  };
}

const withObject = (component: string): JsonSchema => ({ type: 'object', required: ['object'], properties: { object: ref(component) } });

/** The object after a change and the fields it replaced, with their values then. */
const metadataChange = (component: string): JsonSchema => ({
  type: 'object',
  required: ['object', 'previousAttributes'],
  properties: {
    object: ref(component),
    previousAttributes: { type: 'object', description: 'The fields of `object` before this change, with their values then.' },
  },
});

/** `data` of a discount event: the discount and the subscription it is on. */
const discountData = (objectDescription: string): JsonSchema => ({
  type: 'object',
  required: ['object', 'subscription'],
  properties: {
    object: { anyOf: [ref('Discount'), { type: 'null' }], description: objectDescription },
    subscription: ref('Subscription'),
  },
});

/** Issue 40: coupons, promotion codes and a subscription's discount. */
function couponWebhooks(): Record<string, JsonSchema> {
  return {
    'coupon.created': changeWebhook('coupon.created', 'A coupon was created', 'The coupon as created.', withObject('Coupon')),
    'coupon.updated': changeWebhook(
      'coupon.updated',
      "A coupon's name or metadata changed",
      'Only the name and metadata of a coupon change: its terms are what discounts already applied were given.',
      withObject('Coupon'),
    ),
    'coupon.deleted': changeWebhook(
      'coupon.deleted',
      'A coupon was deleted',
      'The coupon as it was when deleted (`valid: false` from then on). Deletion is soft: it is `not_found` to the API and redeemed no more, and the discounts already applied run to their end.',
      withObject('Coupon'),
    ),
    'promotion_code.created': changeWebhook(
      'promotion_code.created',
      'A promotion code was created',
      'The customer-facing code on a coupon, as created.',
      withObject('PromotionCode'),
    ),
    'promotion_code.updated': changeWebhook(
      'promotion_code.updated',
      "A promotion code's active flag or metadata changed",
      'An inactive code is refused at redemption; discounts already applied through it run on.',
      withObject('PromotionCode'),
    ),
    'customer.discount.created': changeWebhook(
      'customer.discount.created',
      'A coupon was applied to a subscription',
      "By the merchant (`POST /v1/subscriptions/{id}/discount`), or from a promotion code the customer gave on the hosted enrolment page, redeemed when the subscription is recorded. From the next charge on, each charge pulls the discounted amount until the coupon's duration is used up.",
      discountData('The discount as applied.'),
    ),
    'customer.discount.deleted': changeWebhook(
      'customer.discount.deleted',
      "A subscription's discount ended",
      'Removed by the merchant, replaced by another coupon, or used up after its last covered charge (`periodsRemaining: 0`; the `subscription.charged` of that period comes after it). The next charge pulls the full amount. `subscription`: the subscription without the discount; for a replaced one, the subscription just before the replacement (the `customer.discount.created` that follows carries the new discount).',
      discountData('The discount as it ended (null only if none could be rendered).'),
    ),
  };
}

/** Issue 40, item 3: cancel at period end and the trial's notice. */
function subscriptionChangeWebhooks(): Record<string, JsonSchema> {
  return {
    'subscription.updated': changeWebhook(
      'subscription.updated',
      'A subscription changed: its plan, or its cancel at period end',
      'Two kinds of change send it. **A plan change** (`POST /v1/subscriptions/{id}/change-plan`) carries `planChange`, whose `status` says which: `applied` (an upgrade within the authorised amount or any change in a trial, at once; a scheduled downgrade at the start of its period, sent by the workflow before that period is charged), `scheduled` (a downgrade for the end of the period), `requires_customer_action` (above the authorised amount: nothing changes or is charged), `cancelled` (the current plan asked for again, or replaced by a new change). **A cancel at period end**: `POST /v1/subscriptions/{id}/cancel` with `atPeriodEnd: true` sets `cancelAtPeriodEnd`, `cancelAt` and `cancellationDetails`, `POST /v1/subscriptions/{id}/uncancel` clears them (no `planChange`); when `cancelAt` comes, `subscription.cancelled` follows and nothing is charged. **A metadata change**: `POST /v1/subscriptions/{id}` with `metadata` (no `planChange`; nothing sent when nothing changed). **A move to another wallet** the customer started in the portal, once the new wallet’s enrolment is indexed: `walletChange` (`id`, `status` `applied`, `periodIndex`, `effectiveAt`: from when the new wallet is charged), `customer.walletAddress` the new wallet. In each, `previousAttributes` holds the fields of `object` the change replaced, with their values then.',
      {
        type: 'object',
        required: ['object', 'previousAttributes'],
        properties: {
          object: ref('Subscription'),
          planChange: { ...ref('SubscriptionPlanChange'), description: 'Present when the change is a plan change.' },
          walletChange: {
            type: 'object',
            description: 'Present when the change is a move to another wallet.',
            required: ['id', 'status', 'periodIndex', 'effectiveAt'],
            properties: {
              id: { type: 'string', description: 'The wallet change (`swc_...`).' },
              status: { const: 'applied' },
              periodIndex: { type: 'integer', description: 'The first period charged to the new wallet.' },
              effectiveAt: { type: 'string', format: 'date-time', description: 'That period’s start.' },
            },
          },
          previousAttributes: { type: 'object', description: 'The fields of `object` before this change, with their values then.' },
        },
      },
    ),
    'subscription.trial_will_end': changeWebhook(
      'subscription.trial_will_end',
      'A trial ends in three days',
      "Sent once per subscription, three days before `trialEnd` (at once when the trial is shorter), while it is still `trialing`: time to remind the customer to fund the wallet. What a refused first charge then does is the plan's `trialEndBehavior`.",
      withObject('Subscription'),
    ),
    'subscription.usage_over_cap': changeWebhook(
      'subscription.usage_over_cap',
      "A metered period's total was above the authorised cap",
      "A metered subscription's period close (docs/metered-billing.md) came to more than the cap the subscriber authorised per period on chain: the cap is pulled with the period's charge, and the rest (`object.remainder`) is the open invoice `invoice`, whose hosted page and payment session the customer pays it through; it is sent at once (`sent`, emailed when the customer has an email; `invoice.created` is sent for it too). Once per subscription and period.",
      {
        type: 'object',
        required: ['object', 'invoice', 'subscription'],
        properties: { object: ref('SubscriptionPeriodClose'), invoice: ref('Invoice'), subscription: ref('Subscription') },
      },
    ),
    'subscription.final_usage_invoiced': changeWebhook(
      'subscription.final_usage_invoiced',
      "A cancelled metered subscription's last usage was invoiced",
      "A metered subscription was cancelled after its last charge: the usage of that last period up to the cancel (after the plan's usage grace) was priced and frozen as a final close (`object.final`), and, since no pull collects it (the enrolment is cancelled on chain), its whole total is the open invoice `invoice`, sent at once like every usage invoice. Once per subscription, only when the total is above 0.",
      {
        type: 'object',
        required: ['object', 'invoice', 'subscription'],
        properties: { object: ref('SubscriptionPeriodClose'), invoice: ref('Invoice'), subscription: ref('Subscription') },
      },
    ),
    'subscription.usage_threshold_reached': changeWebhook(
      'subscription.usage_threshold_reached',
      "A metered subscription's usage reached its plan's threshold",
      'The usage of a metered subscription not yet billed reached its plan\'s `usageThreshold` before the period ended (docs/metered-billing.md, "Usage threshold"): the usage from `object.usageStart` to `object.usageEnd` was priced and is the open invoice `invoice`, sent at once like every usage invoice; nothing is pulled on chain, and the period close bills only the usage after `object.usageEnd`. Once per bill (a subscription may reach its threshold more than once a period).',
      {
        type: 'object',
        required: ['object', 'invoice', 'subscription'],
        properties: {
          object: {
            type: 'object',
            required: ['id', 'object', 'subscriptionId', 'usageStart', 'usageEnd', 'lines', 'total', 'invoiceId', 'livemode', 'createdAt'],
            properties: {
              id: { type: 'string' },
              object: { type: 'string', enum: ['subscription_usage_threshold_bill'] },
              subscriptionId: { type: 'string' },
              usageStart: { type: 'string', format: 'date-time', description: 'Start of the usage billed.' },
              usageEnd: {
                type: 'string',
                format: 'date-time',
                description: 'End (exclusive) of the usage billed: the cut later windows start at.',
              },
              lines: { type: 'array', items: ref('SubscriptionPeriodCloseLine'), description: 'One usage line per metered price.' },
              total: { type: 'string', description: "Base units: the invoice's amount, at least the threshold." },
              invoiceId: { type: 'string' },
              livemode: { type: 'boolean' },
              createdAt: { type: 'string', format: 'date-time' },
            },
          },
          invoice: ref('Invoice'),
          subscription: ref('Subscription'),
        },
      },
    ),
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
    ...couponWebhooks(),
    ...subscriptionChangeWebhooks(),
    'billing_portal.session.created': changeWebhook(
      'billing_portal.session.created',
      'A customer portal session was created',
      'By `POST /v1/billing-portal/sessions` (the merchant’s link), or when a customer signed in with their wallet on the merchant’s public portal page (`returnUrl` null). `url` is always null here: the session’s token is kept only as a hash and returned only once, to whoever created it.',
      withObject('BillingPortalSession'),
    ),
    'invoice.updated': changeWebhook(
      'invoice.updated',
      "An invoice's metadata changed",
      'By `POST /v1/invoices/{id}` when the pairs changed (nothing is sent when they did not). `previousAttributes.metadata` is the metadata before.',
      metadataChange('Invoice'),
    ),
    'refund.updated': changeWebhook(
      'refund.updated',
      "A refund's metadata changed",
      'By `POST /v1/refunds/{id}` when the pairs changed (nothing is sent when they did not). `previousAttributes.metadata` is the metadata before.',
      metadataChange('Refund'),
    ),
    'customer.updated': changeWebhook(
      'customer.updated',
      'A customer changed',
      "The merchant changed the customer's metadata (`POST /v1/customers/{id}`; a call that changes nothing sends nothing), or the customer moved their subscription to another wallet in the portal and the customer's wallet moved with it (sent after that subscription's `subscription.updated`). `previousAttributes` holds the fields of `object` the change replaced (`metadata` or `walletAddress`), with their values then.",
      metadataChange('Customer'),
    ),
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
