// Example bodies of the coupon, promotion code and discount events (issue 40), shown under the OpenAPI
// document's `webhooks` (webhook-docs.ts) and in docs/events.md: what a merchant's endpoint receives.
// Pure data; the values are those of the 20%-off, three-period proof in the test clock e2e test.

const coupon = {
  id: 'coupon_01JD8ZQ3M5W9R2T4Y6U8I0O1P3',
  object: 'coupon',
  name: 'Spring 20',
  percentOff: 20,
  amountOff: null,
  currency: 'USDC',
  duration: 'repeating',
  durationInPeriods: 3,
  maxRedemptions: 100,
  timesRedeemed: 0,
  redeemBy: null,
  appliesTo: null,
  valid: true,
  metadata: { campaign: 'spring' },
  livemode: false,
  createdAt: '2026-11-25T17:00:00.000Z',
  updatedAt: '2026-11-25T17:00:00.000Z',
};

const promotionCode = {
  id: 'promo_01JD8ZR0A1B2C3D4E5F6G7H8J9',
  object: 'promotion_code',
  code: 'SPRING20',
  coupon: coupon.id,
  active: true,
  expiresAt: '2027-03-31T23:59:59.000Z',
  firstTimeTransaction: true,
  maxRedemptions: 50,
  timesRedeemed: 0,
  metadata: {},
  livemode: false,
  createdAt: '2026-11-25T17:01:00.000Z',
  updatedAt: '2026-11-25T17:01:00.000Z',
};

const discount = (periodsRemaining: number) => ({
  id: 'di_01JD8ZS7K2L3M4N5P6Q7R8S9T0',
  object: 'discount',
  coupon: { id: coupon.id, name: coupon.name, percentOff: 20, amountOff: null, duration: 'repeating', durationInPeriods: 3 },
  promotionCode: promotionCode.id,
  start: '2026-12-01T09:30:00.000Z',
  end: '2027-04-01T09:30:00.000Z',
  periodsRemaining,
});

/** The subscription beside a discount event (abridged to the fields a discount changes and its identity). */
const subscription = (withDiscount: boolean) => ({
  id: 'sub_01JD8ZT1V2W3X4Y5Z6A7B8C9D0',
  object: 'subscription',
  planId: 'plan_01JD8ZV4E5F6G7H8J9K0L1M2N3',
  status: 'active',
  amount: '10000000',
  discount: withDiscount ? discount(3) : null,
  livemode: false,
});

const event = (id: string, type: string, data: Record<string, unknown>) => ({
  id,
  object: 'event',
  type,
  created: '2026-12-01T09:30:00.000Z',
  livemode: false,
  data,
});

/** One example body per event type. */
export const couponEventExamples: Record<string, Record<string, unknown>> = {
  'coupon.created': event('evt_01JD8ZW0000000000000000001', 'coupon.created', { object: coupon }),
  'coupon.updated': event('evt_01JD8ZW0000000000000000002', 'coupon.updated', {
    object: { ...coupon, name: 'Spring 20 (extended)', updatedAt: '2026-12-01T09:30:00.000Z' },
  }),
  'coupon.deleted': event('evt_01JD8ZW0000000000000000003', 'coupon.deleted', { object: { ...coupon, valid: false } }),
  'promotion_code.created': event('evt_01JD8ZW0000000000000000004', 'promotion_code.created', { object: promotionCode }),
  'promotion_code.updated': event('evt_01JD8ZW0000000000000000005', 'promotion_code.updated', {
    object: { ...promotionCode, active: false, updatedAt: '2026-12-01T09:30:00.000Z' },
  }),
  'customer.discount.created': event('evt_01JD8ZW0000000000000000006', 'customer.discount.created', {
    object: discount(3),
    subscription: subscription(true),
  }),
  'customer.discount.deleted': event('evt_01JD8ZW0000000000000000007', 'customer.discount.deleted', {
    object: discount(0),
    subscription: subscription(false),
  }),
};
