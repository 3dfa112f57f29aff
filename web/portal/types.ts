// The portal routes' answers as the page reads them (src/billing-portal/schemas.ts is the source of truth).

export type PortalPlan = { id: string; name: string; amount: string; interval: string; intervalCount: number };

export type PortalPlanChange = {
  planId: string;
  amount: string;
  status: 'scheduled' | 'requires_customer_action' | 'applied' | 'cancelled';
  effectiveAt: string | null;
};

export type PortalSubscription = {
  subscription: {
    id: string;
    planId: string;
    status: string;
    amount: string;
    planAmount: string;
    nextChargeAt: string | null;
    cancelAtPeriodEnd: boolean;
    cancelAt: string | null;
    cancelledAt: string | null;
    cancellationDetails: { requestedBy: string; reason: string | null; feedback: string | null } | null;
    discount: {
      coupon: { name: string | null; percentOff: number | null; amountOff: string | null };
      periodsRemaining: number | null;
    } | null;
    pendingPlanChange: PortalPlanChange | null;
  };
  plan: PortalPlan | null;
  nextCharge: { amount: string; at: string } | null;
  planChangeUrl: string | null;
  walletChange: {
    id: string;
    status: 'pending' | 'submitted' | 'applied' | 'cancelled';
    fromWalletAddress: string;
    walletAddress: string;
    hostedUrl: string | null;
    firstChargeAt: string | null;
    createdAt: string;
  } | null;
};

export type CancelMode = 'off' | 'now' | 'at_period_end';

export type PortalState = {
  merchantName: string;
  returnUrl: string | null;
  expiresAt: string;
  livemode: boolean;
  customer: { id: string; walletAddress: string; email: string | null };
  configuration: {
    cancel: { mode: CancelMode; reasons: string[] };
    planSwitching: { planIds: string[] };
    promotionCodes: boolean;
    walletChanges: boolean;
  };
  plans: PortalPlan[];
};

export type PortalPayment = {
  id: string;
  subscriptionId: string;
  periodIndex: number;
  amount: string;
  status: string;
  txHash: string | null;
  settledAt: string | null;
  createdAt: string;
};

export type PortalInvoice = { id: string; number: string; status: string; total: string; createdAt: string; pdfUrl: string | null };
