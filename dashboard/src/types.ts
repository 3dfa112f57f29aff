// The API objects the dashboard shows (fields it reads; the API's OpenAPI document has the rest).

export type Merchant = {
  id: string;
  name: string;
  email: string | null;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  business: { name: string; sector: string; country: string; payoutAddress: string } | null;
  /** Where checkouts pay to now (set before onboarding by the dev seed, for instance). */
  payoutAddress: string | null;
  liveModeEligible: boolean;
  apiVersion: string;
  rateLimitPerMinute: number;
  allowedOrigins: string[];
  createdAt: string;
};

export type Eligibility = {
  eligible: boolean;
  checks: Record<'emailVerification' | 'twoFactor' | 'businessOnboarding', { passed: boolean; completedAt: string | null }>;
  reasons: { check: string; code: string; message: string; action: string }[];
};

export type PaymentSession = {
  id: string;
  amount: string;
  currency: string;
  status: string;
  checkoutUrl: string;
  invoiceId: string | null;
  productName: string | null;
  payer: string | null;
  payTo?: string;
  chainId?: number;
  token?: string;
  expiresAt?: string;
  productId?: string | null;
  transactionHash: string | null;
  completedAt: string | null;
  deposit?: { address: string; amountReceived: string; amountRemaining: string; amountExcess: string } | null;
  /** What can still be refunded (paid in total minus refunds made or pending), as the API computes it. */
  amountRefundable: string;
  /** Set when an x402 seller was paid through the facilitator. */
  x402: {
    network: string;
    payer?: string;
    transaction?: string | null;
    resource: { url: string | null; description: string | null };
  } | null;
  /** Why the latest relayed payment failed, while the session is open again after it. */
  lastPaymentError?: { code: string; reason: string } | null;
  createdAt: string;
};

export type Plan = {
  id: string;
  name: string;
  amount: string;
  currency: string;
  interval: string;
  intervalCount: number;
  trialPeriodDays: number;
  /** An archived plan takes no new subscribers (its running subscriptions go on). */
  archived: boolean;
  archivedAt: string | null;
  createdAt: string;
};

export type Subscription = {
  id: string;
  planId: string;
  status: string;
  customer: { id: string; walletAddress: string; email: string | null };
  amount: string;
  currency: string;
  periods: number;
  firstPeriodStart: string;
  trialEnd: string | null;
  currentPeriodIndex: number | null;
  nextChargeAt: string | null;
  cancelReason: string | null;
  cancelledAt: string | null;
  createdAt: string;
};

export type Charge = {
  id: string;
  subscriptionId: string;
  periodIndex: number;
  periodStart: string;
  amount: string;
  currency: string;
  status: string;
  attempts: number;
  transactionHash: string | null;
  failureCode?: string | null;
  failureReason: string | null;
  settledAt: string | null;
  createdAt: string;
};

export type LineItem = { description: string; quantity: number; unitAmount: string };

export type Invoice = {
  id: string;
  number: string;
  customerName: string | null;
  customerEmail: string | null;
  currency: string;
  lineItems: LineItem[];
  total: string;
  status: string;
  payUrl: string;
  /** The page the customer sees (issue #28's API); payUrl before it exists. */
  hostedInvoiceUrl?: string;
  sessionId?: string;
  subtotal?: string;
  note?: string | null;
  paidAt?: string | null;
  voidedAt?: string | null;
  dueAt: string;
  sentAt: string | null;
  createdAt: string;
};

export type RecipientSource = 'payer_signer' | 'deposit_sender' | 'merchant_specified' | 'customer_claimed';

/** Why a refund goes to its recipient, in the merchant's words (docs/refunds.md, Who gets a refund). */
export const RECIPIENT_REASONS: Record<RecipientSource, string> = {
  payer_signer: 'the wallet that signed the payment',
  deposit_sender: 'the wallet whose transfer paid',
  merchant_specified: 'the address you named',
  customer_claimed: 'the address the customer gave',
};

export type Refund = {
  id: string;
  paymentSessionId: string;
  amount: string;
  currency: string;
  reason: string | null;
  status: string;
  method?: 'allowance' | 'wallet';
  /** Where it goes and why (null while it waits for the customer's claim). */
  recipient?: string | null;
  recipientSource?: RecipientSource | null;
  /** The hosted page where the customer names the address, while `requires_action`. */
  claimUrl?: string | null;
  transactionHash: string | null;
  /** When failed: a refusal code (`token_paused`, `payer_blacklisted`, ...) and its readable sentence. */
  failureCode?: string | null;
  failureReason?: string | null;
  createdAt: string;
};

export type Customer = {
  id: string;
  walletAddress: string;
  email: string | null;
  firstSeenAt: string;
  subscriptionCount: number;
  activeSubscriptionCount: number;
  lastSubscribedAt: string | null;
  succeededChargeCount: number;
};

export type WebhookEndpoint = {
  id: string;
  url: string;
  events: string[];
  mode: string;
  status: 'active' | 'disabled';
  disabledReason: string | null;
  signingSecretPrefix: string;
  description: string;
  createdAt: string;
};

export type WebhookDelivery = {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: string;
  attempt: number;
  replay: number;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  attemptedAt: string;
  nextRetryAt: string | null;
};

export type ApiKey = {
  id: string;
  name: string;
  kind: 'secret' | 'publishable';
  mode: 'test' | 'live';
  prefix: string;
  last4: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revoked: boolean;
  revokedAt: string | null;
  revokedReason: string | null;
};

export type AuditEntry = { id: string; apiKeyId: string; action: string; actor: string; reason: string | null; createdAt: string };

export type AgentJob = {
  id: string;
  vendorAddress: string;
  description: string;
  amount: string;
  currency: string;
  status: string;
  approvalReasons: string[];
  /** ERC-8183 evaluator: the agent wallet by default, when the merchant decides through the API. */
  evaluatorAddress: string;
  /** A failed job: why; failureCode names the token's refusal of an escrow call. */
  failureCode?: string | null;
  failureReason?: string | null;
  createdAt: string;
};

export type AgentActivity = {
  id: string;
  capability: string;
  actionType: string;
  outcome: string;
  summary: string;
  createdAt: string;
};

export type Storefront = {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  logoUrl: string | null;
  accentColor: string;
  supportEmail: string | null;
  successUrl: string | null;
  cancelUrl: string | null;
  url: string;
};

export type Product = {
  id: string;
  name: string;
  description: string | null;
  amount: string | null;
  currency: string;
  planId: string | null;
  status?: string;
  archived?: boolean;
  createdAt: string;
};

/** An event the merchant's objects produced (GET /v1/events). */
export type ApiEvent = {
  id: string;
  type: string;
  created: string;
  livemode: boolean;
  data: Record<string, unknown>;
  objectId: string | null;
};

export type EventDelivery = {
  id: string;
  endpointId: string;
  endpointUrl?: string;
  url?: string;
  status: string;
  attempt: number;
  replay?: number;
  attemptedAt?: string;
  createdAt?: string;
  durationMs?: number;
  responseStatus: number | null;
  requestBody: string | null;
  responseBodyExcerpt?: string | null;
  responseBody?: string | null;
  error?: string | null;
};

export type EventWithDeliveries = ApiEvent & { deliveries: EventDelivery[] };

/** One on-chain transaction of a payment session (GET /v1/payment-sessions/{id}/transactions). */
export type SessionTransaction = {
  kind: 'payment' | 'deposit' | 'sweep' | 'refund';
  sourceId: string;
  status: 'pending' | 'submitted' | 'confirmed' | 'failed' | 'removed' | 'cancelled';
  transactionHash: string | null;
  blockNumber: string | null;
  confirmations: number | null;
  requiredConfirmations: number;
  from: string | null;
  to: string | null;
  amount: string | null;
  late: boolean;
  failureCode: string | null;
  failureReason: string | null;
  createdAt: string;
  confirmedAt: string | null;
};

/** A test clock (test mode only, GET /v1/test-clocks). */
export type TestClock = {
  id: string;
  name: string;
  frozenTime: string;
  status: 'ready' | 'advancing' | 'deleted';
  advancingTo: string | null;
  wallets: { walletAddress: string; attachedAt: string }[];
  createdAt: string;
};
