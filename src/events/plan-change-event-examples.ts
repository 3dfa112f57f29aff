// The example body of `subscription.updated` (issue 40, item 1: plan changes), shown under the OpenAPI
// document's `webhooks` (webhook-docs.ts) and in docs/events.md. Pure data: an upgrade from a 4 USDC to a
// 19 USDC monthly plan within a 40 USDC authorisation, asked for 20 days before the end of a 30-day period:
// proration = floor(15,000,000 x 1,728,000 / 2,592,000) = 10,000,000, collected with the next charge.

const planChange = {
  id: 'spc_01JD9A0B1C2D3E4F5G6H7J8K9M',
  object: 'subscription_plan_change',
  fromPlanId: 'plan_01JD8ZV4E5F6G7H8J9K0L1M2N4',
  planId: 'plan_01JD8ZV4E5F6G7H8J9K0L1M2N5',
  fromAmount: '4000000',
  amount: '19000000',
  status: 'applied',
  prorationBehavior: 'create_prorations',
  prorationAmount: '10000000',
  effectiveAt: '2026-12-11T09:30:00.000Z',
  hostedUrl: null,
  createdAt: '2026-12-11T09:30:00.000Z',
};

/** A whole subscription object (every field of the API's), which the subscription events' examples start from. */
export const exampleSubscription = {
  id: 'sub_01JD8ZT1V2W3X4Y5Z6A7B8C9D0',
  object: 'subscription',
  planId: planChange.planId,
  status: 'active',
  customer: { id: 'cus_01JD8ZT0A1B2C3D4E5F6G7H8J9', walletAddress: '0x8f3cf7ad23cd3cadbd9735aff958023239c6a063', email: null },
  amount: '40000000',
  planAmount: '19000000',
  currency: 'USDC',
  onChain: {
    chainId: '8453',
    contractAddress: '0x5a1c0c3f2b6e8d4a7c9b0e1f2a3b4c5d6e7f8091',
    subscriptionId: '42',
    tokenAddress: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
    periodSeconds: '2629746',
    createdTxHash: '0x6f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0',
  },
  periods: 0,
  firstPeriodStart: '2026-10-01T09:30:00.000Z',
  trialEnd: null,
  currentPeriodIndex: 2,
  nextChargeAt: '2027-01-01T09:30:00.000Z',
  atRiskSince: null,
  cancelReason: null,
  cancelledBy: null,
  cancelledAt: null,
  onChainCancelledAt: null,
  lapsedAt: null,
  completedAt: null,
  discount: null,
  pendingPlanChange: null,
  metadata: {},
  cancelAtPeriodEnd: false,
  cancelAt: null,
  cancellationDetails: null,
  livemode: false,
  createdAt: '2026-10-01T09:29:40.000Z',
};
const subscription = exampleSubscription;

export const planChangeEventExamples: Record<string, Record<string, unknown>> = {
  'subscription.updated': {
    id: 'evt_01JD9A0C0000000000000000001',
    object: 'event',
    type: 'subscription.updated',
    created: '2026-12-11T09:30:00.000Z',
    livemode: false,
    data: {
      object: subscription,
      planChange,
      previousAttributes: { planId: planChange.fromPlanId, planAmount: '4000000', pendingPlanChange: null },
    },
  },
};
