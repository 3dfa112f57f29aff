// Request and response shapes of the customer portal (issue 40, item 4): its sessions and configuration
// (merchant API, /v1) and the portal's own routes (/billing-portal/api, the portal session's token).
import { z } from 'zod';
import { idParam, pathId, timestamp } from '../http/schemas.js';
import { CANCELLATION_FEEDBACK } from '../subscriptions/repo.js';
import { subscription } from '../subscriptions/schemas.js';

export const CANCEL_MODES = ['off', 'now', 'at_period_end'] as const;

export const createPortalSessionBody = z
  .object({
    customerId: idParam('customer').describe('The customer (of this merchant and mode) the portal is for.'),
    returnUrl: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .describe("Where the portal's “Return to” link goes: https, or http on localhost in test mode."),
  })
  .strict()
  .meta({ examples: [{ customerId: 'cus_01JD8ZX0000000000000000001', returnUrl: 'https://saas.example/account' }] });

const sessionExample = {
  id: 'bps_01JD8ZX0000000000000000001',
  object: 'billing_portal.session',
  url: 'https://pay.example/billing-portal/session#bpt_x3Jc0n8WmJfQnYq3Gv7c5wOeZkYd2fNwR4s1uA9tLbE',
  expiresAt: '2026-12-10T15:02:00.000Z',
  customerId: 'cus_01JD8ZX0000000000000000001',
  returnUrl: 'https://saas.example/account',
  livemode: false,
  createdAt: '2026-12-10T14:02:00.000Z',
};

export const portalSession = z
  .object({
    id: z.string().describe('The session id (prefix `bps_`).'),
    object: z.literal('billing_portal.session'),
    url: z
      .string()
      .nullable()
      .describe(
        'The portal link for this one customer, valid until `expiresAt`. It carries the session token: send the customer there, never store or log it. Only its hash is kept, so it is returned only on creation (null in the `billing_portal.session.created` event).',
      ),
    expiresAt: timestamp.describe('One hour after creation.'),
    customerId: z.string(),
    returnUrl: z.string().nullable().describe('Null for a session the customer opened by signing in with their wallet.'),
    livemode: z.boolean(),
    createdAt: timestamp,
  })
  .meta({ id: 'BillingPortalSession', examples: [sessionExample] });

const configurationExample = {
  id: 'bpc_01JD8ZX0000000000000000001',
  object: 'billing_portal.configuration',
  cancel: { mode: 'at_period_end', reasons: ['too_expensive', 'unused', 'other'] },
  planSwitching: { planIds: ['plan_01JD8ZX0000000000000000001', 'plan_01JD8ZX0000000000000000002'] },
  promotionCodes: false,
  walletChanges: true,
  livemode: false,
  updatedAt: '2026-12-10T14:02:00.000Z',
};

const cancelModeField = z
  .enum(CANCEL_MODES)
  .describe(
    '`at_period_end` (default): the customer cancels at the end of the paid period; `now`: at once; `off`: no cancel in the portal.',
  );
const reasonsField = z
  .array(z.enum(CANCELLATION_FEEDBACK))
  .max(CANCELLATION_FEEDBACK.length)
  .describe('The reasons the portal offers on cancel (Stripe Billing feedback codes); the customer picks one, and may add a comment.');
const planIdsField = z
  .array(idParam('plan'))
  .max(50)
  .describe('The plans a customer may switch between (their subscription must be on one of them); empty: plan switching is off.');

const walletChangesField = z
  .boolean()
  .describe(
    'Whether the customer may move a subscription to another wallet, which then signs its own enrolment for the same terms (default true).',
  );

export const portalConfiguration = z
  .object({
    id: z.string().nullable().describe('Prefix `bpc_`; null while the merchant has not changed the defaults.'),
    object: z.literal('billing_portal.configuration'),
    cancel: z.object({ mode: cancelModeField, reasons: reasonsField }),
    planSwitching: z.object({ planIds: planIdsField }),
    promotionCodes: z.boolean().describe('Whether the customer may apply a promotion code to a subscription (default false).'),
    walletChanges: walletChangesField,
    livemode: z.boolean(),
    updatedAt: timestamp.nullable(),
  })
  .meta({ id: 'BillingPortalConfiguration', examples: [configurationExample] });

export const updatePortalConfigurationBody = z
  .object({
    cancel: z.object({ mode: cancelModeField.optional(), reasons: reasonsField.optional() }).strict().optional(),
    planSwitching: z.object({ planIds: planIdsField }).strict().optional(),
    promotionCodes: z.boolean().optional(),
    walletChanges: z.boolean().optional(),
  })
  .strict()
  .meta({
    examples: [
      {
        cancel: { mode: 'at_period_end', reasons: ['too_expensive', 'unused', 'other'] },
        planSwitching: { planIds: ['plan_01JD8ZX0000000000000000001', 'plan_01JD8ZX0000000000000000002'] },
        promotionCodes: true,
        walletChanges: false,
      },
    ],
  });

// The portal's own routes.

export const portalSubscriptionParams = z.object({ id: pathId('subscription') });

export const portalCancelBody = z
  .object({
    atPeriodEnd: z.boolean().describe('Must match the configuration: true when it says at_period_end, false when it says now.'),
    feedback: z.enum(CANCELLATION_FEEDBACK).optional(),
    reason: z.string().trim().min(1).max(500).optional().describe("The customer's own words."),
  })
  .strict();

export const portalChangePlanBody = z.object({ planId: idParam('plan') }).strict();

export const portalPromotionCodeBody = z.object({ code: z.string().trim().min(1).max(64) }).strict();

export const portalWalletChangeBody = z.object({ walletAddress: z.string().trim().min(1).max(64) }).strict();

/** The newest move of the subscription to another wallet (src/subscription-plan-changes/wallet-change.ts). */
const portalWalletChange = z.object({
  id: z.string(),
  status: z.enum(['pending', 'submitted', 'applied', 'cancelled']),
  fromWalletAddress: z.string(),
  walletAddress: z.string(),
  /** The approval page the new wallet signs on; null once the change no longer waits. */
  hostedUrl: z.string().nullable(),
  firstChargeAt: timestamp.nullable(),
  createdAt: timestamp,
});

const portalPlan = z.object({ id: z.string(), name: z.string(), amount: z.string(), interval: z.string(), intervalCount: z.number() });

export const portalSubscription = z.object({
  subscription,
  plan: portalPlan.nullable(),
  /** What the next charge pulls (the discounted price), and when; null when nothing more is charged. */
  nextCharge: z.object({ amount: z.string(), at: timestamp }).nullable(),
  /** The hosted link where the customer authorises a change above their authorised amount, when one exists. */
  planChangeUrl: z.string().nullable(),
  /** The newest move to another wallet the customer started, whatever became of it; null when none. */
  walletChange: portalWalletChange.nullable(),
});

export const portalState = z.object({
  merchantName: z.string(),
  /** Null when the customer signed in with their wallet: no merchant link to go back to. */
  returnUrl: z.string().nullable(),
  expiresAt: timestamp,
  livemode: z.boolean(),
  customer: z.object({ id: z.string(), walletAddress: z.string(), email: z.string().nullable() }),
  configuration: portalConfiguration,
  /** The plans a customer may switch to (from the configuration, not archived). */
  plans: z.array(portalPlan),
});

export const portalSubscriptions = z.object({ data: z.array(portalSubscription) });

export const portalPayments = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      subscriptionId: z.string(),
      periodIndex: z.number(),
      amount: z.string(),
      status: z.string(),
      txHash: z.string().nullable(),
      settledAt: timestamp.nullable(),
      createdAt: timestamp,
    }),
  ),
});

export const portalInvoices = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      number: z.string(),
      status: z.string(),
      total: z.string(),
      createdAt: timestamp,
      pdfUrl: z.string().nullable(),
    }),
  ),
});

export type CreatePortalSessionBody = z.infer<typeof createPortalSessionBody>;
export type PortalSession = z.infer<typeof portalSession>;
export type PortalConfiguration = z.infer<typeof portalConfiguration>;
export type UpdatePortalConfigurationBody = z.infer<typeof updatePortalConfigurationBody>;
export type PortalCancelBody = z.infer<typeof portalCancelBody>;
export type PortalSubscription = z.infer<typeof portalSubscription>;
export type PortalState = z.infer<typeof portalState>;
export type PortalPayments = z.infer<typeof portalPayments>;
export type PortalInvoices = z.infer<typeof portalInvoices>;

// Sign-In with Ethereum (EIP-4361) on a configuration's public portal page.

export const portalConfigurationPageParams = z.object({ configurationId: z.string().min(1).max(64) });

export const signInNonceBody = z.object({ configurationId: z.string().min(1).max(64) }).strict();

export const signInNonce = z.object({
  nonce: z.string(),
  /** What the message must say: this host as `domain`, a URI on this origin, one of the mode's chain ids. */
  domain: z.string(),
  uri: z.string(),
  chainIds: z.array(z.number()),
  merchantName: z.string(),
  expiresAt: timestamp,
});

export const signInBody = z
  .object({
    configurationId: z.string().min(1).max(64),
    message: z.string().min(1).max(4000),
    signature: z
      .string()
      .regex(/^0x[0-9a-fA-F]+$/, 'must be a hex signature')
      .max(20_000),
  })
  .strict();

export const signedIn = z.object({ token: z.string(), expiresAt: timestamp });

export type SignInBody = z.infer<typeof signInBody>;
export type SignInNonce = z.infer<typeof signInNonce>;
