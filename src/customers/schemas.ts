// Response shapes of customers. A customer is a wallet seen paying a merchant
// (enrolling in a subscription, or paying a payment session), one per merchant,
// mode and wallet address; the service creates them, the API only reads.
import { z } from 'zod';
import { metadataObject, metadataQuery, metadataUpdate } from '../http/metadata.js';
import { listOf, listQueryOf } from '../http/pagination.js';
import { createdRangeQuery, searchQuery } from '../http/list-filters.js';
import { pathId, timestamp } from '../http/schemas.js';

export const customer = z
  .object({
    id: z.string(),
    object: z.literal('customer'),
    walletAddress: z.string().describe("The customer's wallet (lower-case hex); one customer per wallet, merchant and mode."),
    email: z
      .string()
      .nullable()
      .describe('The first email the customer left at checkout (enrolment or payment page), when they left one; unverified.'),
    firstSeenAt: timestamp.describe(
      'When the wallet was first seen paying this merchant in this mode (an enrolment or a completed payment).',
    ),
    subscriptionCount: z.number().int().describe('Subscriptions of this customer, in any status.'),
    activeSubscriptionCount: z.number().int().describe('Subscriptions not ended: trialing, active, at_risk or paused.'),
    lastSubscribedAt: timestamp.nullable().describe("When the customer's newest subscription was created."),
    succeededChargeCount: z.number().int().describe("Periodic charges that succeeded, over all of the customer's subscriptions."),
    completedPaymentCount: z
      .number()
      .int()
      .describe('One-off payments (payment sessions) the wallet paid, completed; list them with GET /v1/payment-sessions?customerId=.'),
    metadata: metadataObject,
    livemode: z.boolean(),
  })
  .meta({ id: 'Customer' });

/** Only metadata: the wallet is who the customer is, the email is what they left at checkout. */
export const updateCustomerBody = z.object({ metadata: metadataUpdate.optional() }).strict();
export type UpdateCustomerBody = z.infer<typeof updateCustomerBody>;

export const customerParams = z.object({ id: pathId('customer') });
export const customerList = listOf(customer);
export const customerListQuery = listQueryOf('customer').extend({
  walletAddress: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address')
    .optional()
    .describe('Only the customer of this wallet (any letter case).'),
  email: z.string().trim().min(1).max(320).optional().describe('Only customers with this email (case-insensitive).'),
  metadata: metadataQuery,
  ...createdRangeQuery,
  q: searchQuery('the customer id, the wallet address (any letter case), or the start of the email (case-insensitive prefix)'),
});

export type Customer = z.infer<typeof customer>;
export type CustomerListQuery = z.infer<typeof customerListQuery>;
