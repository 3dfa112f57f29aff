// The example bodies of `billing_portal.session.created` and `customer.updated` (issue 40, items 4 and 5), shown under the OpenAPI
// document's `webhooks` (webhook-docs.ts) and in docs/events.md. Pure data.

export const billingPortalEventExamples: Record<string, unknown> = {
  'billing_portal.session.created': {
    id: 'evt_01JD8ZX0000000000000000003',
    object: 'event',
    type: 'billing_portal.session.created',
    created: '2026-12-10T14:02:00.000Z',
    livemode: false,
    data: {
      object: {
        id: 'bps_01JD8ZX0000000000000000001',
        object: 'billing_portal.session',
        url: null,
        expiresAt: '2026-12-10T15:02:00.000Z',
        customerId: 'cus_01JD8ZX0000000000000000001',
        returnUrl: 'https://saas.example/account',
        livemode: false,
        createdAt: '2026-12-10T14:02:00.000Z',
      },
    },
  },
  'customer.updated': {
    id: 'evt_01JD8ZX0000000000000000004',
    object: 'event',
    type: 'customer.updated',
    created: '2026-12-10T14:05:00.000Z',
    livemode: false,
    data: {
      object: {
        id: 'cus_01JD8ZX0000000000000000001',
        object: 'customer',
        walletAddress: '0x90f79bf6eb2c4f870365e785982e1f101e93b906',
        email: 'ada@example.com',
        firstSeenAt: '2026-11-02T09:30:00.000Z',
        subscriptionCount: 1,
        activeSubscriptionCount: 1,
        lastSubscribedAt: '2026-11-02T09:30:00.000Z',
        succeededChargeCount: 2,
        completedPaymentCount: 0,
        metadata: { crm_id: '4411' },
        livemode: false,
      },
      previousAttributes: { walletAddress: '0x15d34aaf54267db7d7c367839aaf71a00a2c6a65' },
    },
  },
};
