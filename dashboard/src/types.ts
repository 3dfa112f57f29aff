// The API objects the dashboard shows, as the API declares them: every type here is derived from
// api/generated/openapi.ts (rendered from the API's own OpenAPI document by `npm run api:generate`), never
// retyped, so a status the API never returns fails the dashboard's type check. The names are the dashboard's.
import type { components } from './api/generated/openapi.ts';

type Schemas = components['schemas'];

export type Merchant = Schemas['Merchant'];
export type Eligibility = Schemas['LiveModeEligibility'];
export type PaymentSession = Schemas['PaymentSession'];
export type Plan = Schemas['SubscriptionPlan'];
export type Subscription = Schemas['Subscription'];
export type Charge = Schemas['SubscriptionCharge'];
export type Coupon = Schemas['Coupon'];
export type PromotionCode = Schemas['PromotionCode'];
export type Discount = Schemas['Discount'];
export type LineItem = Schemas['InvoiceLineItem'];
export type Invoice = Schemas['Invoice'];
export type Refund = Schemas['Refund'];
/** What the payout wallet lets the operator send for refunds (GET /v1/refunds/allowance). */
export type RefundAllowance = Schemas['RefundAllowance'];
/** Who a refund would go to and why (GET /v1/refunds/recipient). */
export type RefundRecipient = Schemas['RefundRecipient'];
export type Customer = Schemas['Customer'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
/** An endpoint as created or rotated: the signing secret is shown this once. */
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecret'];
export type ApiKey = Schemas['ApiKey'];
export type AuditEntry = Schemas['ApiKeyAuditEntry'];
export type AgentJob = Schemas['AgentJob'];
export type AgentActivity = Schemas['AgentActivity'];
export type AgentConfig = Schemas['AgentConfig'];
export type MrrStats = Schemas['MrrStats'];
export type ChurnStats = Schemas['ChurnStats'];
export type ConversionStats = Schemas['ConversionStats'];
export type ForecastStats = Schemas['ForecastStats'];
export type Storefront = Schemas['Storefront'];
export type Product = Schemas['Product'];
/** An event the merchant's objects produced (GET /v1/events). */
export type ApiEvent = Schemas['Event'];
export type EventDelivery = Schemas['EventDelivery'];
export type EventWithDeliveries = Schemas['EventWithDeliveries'];
/** One on-chain transaction of a payment session (GET /v1/payment-sessions/{id}/transactions). */
export type SessionTransaction = Schemas['PaymentSessionTransaction'];
/** A test clock (test mode only, GET /v1/test-clocks). */
export type TestClock = Schemas['TestClock'];

/** Why a refund goes to its recipient (docs/refunds.md, Who gets a refund). */
export type RecipientSource = NonNullable<Refund['recipientSource']>;

/** Why a refund goes to its recipient, in the merchant's words. */
export const RECIPIENT_REASONS: Record<RecipientSource, string> = {
  payer_signer: 'the wallet that signed the payment',
  deposit_sender: 'the wallet whose transfer paid',
  merchant_specified: 'the address you named',
  customer_claimed: 'the address the customer gave',
};
/** A billing meter (GET /v1/billing/meters). */
export type Meter = Schemas['BillingMeter'];
/** A meter's aggregation of one customer's usage over one window (GET /v1/billing/meters/{id}/event-summaries). */
export type MeterSummary = Schemas['BillingMeterEventSummary'];
/** What a subscription's next charge would bill if usage stopped now (GET /v1/subscriptions/{id}/upcoming-invoice). */
export type UpcomingInvoice = Schemas['UpcomingInvoice'];
/** A metered period's frozen close (GET /v1/subscriptions/{id}/period-closes). */
export type PeriodClose = Schemas['SubscriptionPeriodClose'];
export type PeriodCloseLine = Schemas['SubscriptionPeriodCloseLine'];
