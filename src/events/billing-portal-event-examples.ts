// The example body of `billing_portal.session.created` (issue 40, item 4), shown under the OpenAPI
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
};
