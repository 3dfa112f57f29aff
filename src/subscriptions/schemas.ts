// Request and response shapes of subscriptions.
import { z } from 'zod';
import { metadataObject, metadataQuery, metadataUpdate } from '../http/metadata.js';
import { chainIdQuery, idParam, pathId, timestamp } from '../http/schemas.js';
import { listOf, listQueryOf } from '../http/pagination.js';
import { createdRangeQuery, searchQuery } from '../http/list-filters.js';
import { CANCELLATION_FEEDBACK, SUBSCRIPTION_STATUSES } from './repo.js';
import { discount } from '../discounts/schemas.js';
import { pendingPlanChange } from '../subscription-plan-changes/schemas.js';

const cancellationFeedback = z
  .enum(CANCELLATION_FEEDBACK)
  .describe("Why the customer is leaving, as one of Stripe Billing's feedback codes (for churn reports).");

export const cancellationDetails = z
  .object({
    requestedBy: z.enum(['merchant', 'subscriber']).describe('`merchant`: through the API or dashboard; `subscriber`: the customer.'),
    reason: z.string().nullable().describe('Free text given with the request.'),
    feedback: cancellationFeedback.nullable(),
  })
  .meta({ id: 'CancellationDetails' });

export const subscription = z
  .object({
    id: z.string(),
    object: z.literal('subscription'),
    planId: z.string(),
    status: z.enum(SUBSCRIPTION_STATUSES),
    customer: z
      .object({
        id: z.string().describe('Customer id (prefix `cus_`): one per wallet address, merchant and mode.'),
        walletAddress: z.string().describe('The subscriber wallet (lower-case hex).'),
        email: z.string().nullable(),
      })
      .describe('The customer who enrolled.'),
    amount: z.string().describe("Maximum charged per period, integer string in the token's base units."),
    planAmount: z
      .string()
      .describe(
        "What each period charges before a discount: the current plan's amount, at most `amount` (a plan change can lower it, or raise it up to `amount`).",
      ),
    currency: z.string(),
    onChain: z
      .object({
        chainId: z.string(),
        contractAddress: z.string().describe('The SubscriptionManager contract.'),
        subscriptionId: z.string().describe('The id the contract assigned (decimal string).'),
        tokenAddress: z.string(),
        periodSeconds: z.string().describe('The on-chain minimum period length the customer authorised.'),
        createdTxHash: z.string().nullable(),
      })
      .describe('Where the authorisation lives on-chain.'),
    periods: z.number().int().describe('Number of authorised periods; 0 means open-ended.'),
    firstPeriodStart: timestamp.describe('Start of period 0 (the end of the trial, if any).'),
    trialEnd: timestamp.nullable(),
    currentPeriodIndex: z.number().int().nullable().describe('The last period charged (0-based), null before the first charge.'),
    nextChargeAt: timestamp.nullable().describe('When the next period is due; null once terminal.'),
    atRiskSince: timestamp.nullable().describe('When the current failed charge first failed; null unless at_risk.'),
    cancelReason: z.string().nullable(),
    cancelledBy: z.enum(['merchant', 'subscriber', 'operator', 'system']).nullable(),
    cancelledAt: timestamp.nullable(),
    onChainCancelledAt: timestamp.nullable().describe('When the on-chain cancel was confirmed.'),
    lapsedAt: timestamp.nullable(),
    completedAt: timestamp.nullable(),
    cancelAtPeriodEnd: z
      .boolean()
      .describe('A cancel is scheduled: when the next period comes due (`cancelAt`) the subscription is cancelled instead of charged.'),
    cancelAt: timestamp.nullable().describe('When the scheduled cancel happens (the start of the next period); null: none scheduled.'),
    cancellationDetails: cancellationDetails
      .nullable()
      .describe('Who asked to cancel (now or at the period end) and why; null: nobody did (or a scheduled cancel was undone).'),
    discount: discount
      .nullable()
      .describe('The coupon applied to the charges (each pulls the discounted amount, never more than `amount`); null: none.'),
    pendingPlanChange,
    metadata: metadataObject,
    livemode: z.boolean(),
    createdAt: timestamp,
  })
  .meta({ id: 'Subscription' });

export const subscriptionParams = z.object({ id: pathId('subscription') });
export const subscriptionList = listOf(subscription);
export const subscriptionListQuery = listQueryOf('subscription').extend({
  status: z.enum(SUBSCRIPTION_STATUSES).optional(),
  planId: idParam('plan').optional(),
  chainId: chainIdQuery.describe('Only subscriptions on this chain (EIP-155 id): the chain they were enrolled and are charged on.'),
  metadata: metadataQuery,
  ...createdRangeQuery,
  q: searchQuery(
    "the subscription id, the subscriber's wallet address (any letter case), the hash of the transaction that created it " +
      "(exact), or the start of the customer's email (case-insensitive prefix)",
  ),
});

/** Only metadata: the plan changes through change-plan, the status through cancel, pause and resume. */
export const updateSubscriptionBody = z.object({ metadata: metadataUpdate.optional() }).strict();
export type UpdateSubscriptionBody = z.infer<typeof updateSubscriptionBody>;

export const cancelSubscriptionBody = z
  .object({
    reason: z.string().trim().min(1).max(500).optional().describe('Why the merchant cancelled; kept on the subscription and in the event.'),
    feedback: cancellationFeedback.optional(),
    atPeriodEnd: z
      .boolean()
      .optional()
      .describe(
        '`true`: cancel when the next period comes due instead of now (`cancelAtPeriodEnd`); nothing more is charged, the current period runs to its end. Undo with `POST /v1/subscriptions/{id}/uncancel`.',
      ),
  })
  .strict();

export type Subscription = z.infer<typeof subscription>;
export type SubscriptionListQuery = z.infer<typeof subscriptionListQuery>;
export type CancelSubscriptionBody = z.infer<typeof cancelSubscriptionBody>;
