// What the hosted checkout pages read from the public routes (only the fields
// they use): GET /v1/checkout/sessions/{id}, GET /v1/tokens/{address}, the plan
// enrolment offer and the renewal offer. The server's schemas are in
// src/checkout/schemas.ts and src/tokens.

export type TypedDataDomain = { name?: string; version?: string; chainId?: number | string; verifyingContract?: string };

export type TokenInfo = {
  decimals: number;
  symbol: string;
  domain: TypedDataDomain | null;
  supports?: { eip3009?: boolean; eip2612?: boolean };
};

export type SessionStatus = 'open' | 'processing' | 'completed' | 'expired' | 'cancelled';

/** EIP-3085 wallet_addEthereumChain parameters (from the chain's preset). */
export type AddChainParameter = {
  chainId: string;
  chainName: string;
  nativeCurrency: { name: string; symbol: string; decimals: number };
  rpcUrls: string[];
  blockExplorerUrls: string[];
};

/** One chain the customer may pay on. */
export type CheckoutChain = {
  chainId: number;
  network: string;
  token: string;
  /** The merchant's payout on this chain (absent from an older server: the session's payTo). */
  payTo?: string;
  addChain: AddChainParameter | null;
};

export type CheckoutSession = {
  id: string;
  status: SessionStatus;
  amount: string;
  token: string;
  payTo: string;
  chainId: number;
  /** The accepted chains, the session's default first (absent from an older server: the session's chain alone). */
  chains?: CheckoutChain[];
  network?: string | null;
  livemode: boolean;
  expiresAt: string;
  successUrl?: string | null;
  cancelUrl?: string | null;
  merchantName?: string | null;
  storeName?: string | null;
  productName?: string | null;
  logoUrl?: string | null;
  supportEmail?: string | null;
  lastPaymentError?: { code?: string | null } | null;
  invoice?: { number: string; lineItems: { description: string; quantity: number; unitAmount: string }[] } | null;
  deposit?: {
    address: string;
    paymentUri: string;
    amountRemaining: string;
    amountReceived: string;
    amountExcess: string;
    /** `address`: this chain's deposit address (a chain with a payout of its own has its own; absent from an older server). */
    networks?: { chainId: number; network: string; token: string; address?: string; paymentUri: string }[];
  } | null;
};

export type EnrolmentTerms = {
  token: string;
  merchant: string;
  operator: string;
  amount: string;
  period: string;
  periods: number | string;
  trialEnd: string;
  /** Seconds after a period's start during which it may be charged (SubscriptionManagerV2). */
  chargeWindow: string;
};

/** A promotion code applied to a plan's offer: what each discounted period pulls and for how many (null: every one). */
export type OfferDiscount = {
  promotionCode: string;
  couponName: string | null;
  discountedAmount: string;
  periods: number | null;
};

export type EnrolmentOffer = {
  merchantName?: string | null;
  planName: string;
  chainId: number;
  /** The chains the plan is offered on, its default first (absent from an older server: the offer's chain alone). */
  chains?: CheckoutChain[];
  livemode: boolean;
  subscriptionManager: string;
  managerDomain: TypedDataDomain;
  permitValue: string;
  terms: EnrolmentTerms;
  /** The promotion code asked about with `?promotionCode=` (null without one; absent from an older server). */
  discount?: OfferDiscount | null;
};

/** GET /checkout/{plan-changes|wallet-changes}/{id}/reauthorisation: the enrolment offer to sign, from the next period. */
export type ReauthorisationOffer = EnrolmentOffer & {
  kind: 'plan_change' | 'wallet_change';
  fromPlanName: string;
  fromAmount: string;
  /** The wallet charged now; `subscriber` is the one that must sign (another one for a wallet change). */
  currentSubscriber: string;
  subscriber: string;
  firstChargeAt: string;
};

export type RenewalOffer = {
  merchantName?: string | null;
  planName: string;
  periodsLeft: number;
  permitValue: string;
  spender: string;
  subscriber: string;
  token: string;
  tokenDomain: TypedDataDomain;
  permitNonce: string;
  chainId: number;
  /** What a wallet needs to add the subscription's chain (EIP-3085); null for a chain without a preset. */
  addChain?: AddChainParameter | null;
  livemode: boolean;
  status: string;
};
