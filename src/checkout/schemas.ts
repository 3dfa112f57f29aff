// Request and response shapes of the hosted checkout's same-origin server route.
import { z } from 'zod';
import { chainIdField, chainIdQuery, idParam, emailAddress, timestamp } from '../http/schemas.js';
import { checkoutChain } from '../payment-sessions/schemas.js';
import { promotionCodeText } from '../promotion-codes/schemas.js';
import { relayPaymentBody, relaySubscriptionBody } from '../relay/schemas.js';
import { address } from '../tokens/schemas.js';

export const checkoutPageParams = z.object({ id: z.string().max(64) });
export const checkoutPayParams = z.object({ id: idParam('paymentSession') });

export const checkoutPayBody = relayPaymentBody
  .pick({ authorization: true, signature: true, chainId: true })
  .describe(
    "What the hosted checkout page posts after the customer's wallet signed: the EIP-3009 TransferWithAuthorization message and its signature, and the chain it was signed for (one of the session's `acceptedChainIds`; default its first). The server relays it for the session's merchant on that chain; no key is involved on the page.",
  );

export const depositQrQuery = z.object({
  chainId: chainIdQuery.describe("The accepted chain whose transfer the QR code holds (EIP-681 `@chainId`); default: the session's first."),
});

/** The relay submission's failure code: a refusal code of src/chain/refusals.ts when the token refused. */
const failureCode = z
  .string()
  .nullable()
  .describe(
    'When failed: a refusal code (docs/events.md "Refusal codes", e.g. `payer_blacklisted`, `token_paused`, `insufficient_funds`), else the contract error name, `Reverted` or `NonceConsumed`. The hosted page shows the payer one sentence per refusal code.',
  );

export const checkoutPaymentParams = z.object({
  id: idParam('paymentSession'),
  nonce: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x-prefixed 32-byte hex')
    .describe('The authorization nonce the page signed.'),
});

export const checkoutPayment = z
  .object({
    object: z.literal('checkout_payment'),
    sessionId: z.string(),
    submissionStatus: z
      .enum(['pending', 'submitted', 'confirmed', 'failed'])
      .describe(
        'Status of the relay submission that carries the payment; poll GET /v1/checkout/sessions/{id} until the session is completed.',
      ),
    transactionHash: z.string().nullable(),
    failureCode: failureCode,
    failureReason: z.string().nullable().describe("When failed: the relay's readable reason."),
  })
  .meta({ id: 'CheckoutPayment' });

export type CheckoutPayBody = z.infer<typeof checkoutPayBody>;

/** The optional email of the hosted payment page (docs/decisions.md, One-off payers as customers). */
export const checkoutCustomerEmailBody = z.object({
  email: emailAddress(254).describe(
    "The payer's email. Kept on the session; copied to the paying wallet's customer only when it has none.",
  ),
});
export const checkoutCustomerEmail = z
  .object({
    object: z.literal('checkout_customer_email'),
    sessionId: z.string(),
    email: z.string(),
  })
  .meta({ id: 'CheckoutCustomerEmail' });
export type CheckoutCustomerEmail = z.infer<typeof checkoutCustomerEmail>;
export type CheckoutPayment = z.infer<typeof checkoutPayment>;

export const checkoutPlanParams = z.object({ planId: idParam('plan') });
export const checkoutEnrolmentQuery = z.object({
  chainId: chainIdQuery.describe(
    "The chain to enrol on: one of the offer's `chains` (the plan's `chainIds`, else every chain of the mode); default: the plan's first.",
  ),
  wallet: address
    .optional()
    .describe(
      "The subscriber's wallet, once the page knows it. A test-mode wallet attached to a test clock with a chain of its own (TEST_CLOCK_CHAINS=fork) is offered the clock's chain only (`chainId` and `chains` name it), where the clock's time runs and its charges go; a plan restricted to named chains is then refused (`invalid_request`, param `wallet`). Any other wallet gets the plan's chains.",
    ),
  promotionCode: promotionCodeText
    .optional()
    .describe(
      "A promotion code to preview (any letter case): the offer's `discount` shows what each discounted period pulls and for how many. Refused as the enrolment refuses it (`invalid_request`, param `promotionCode`), except the first-time-customer rule, which needs the wallet and is checked at enrolment.",
    ),
});
export const checkoutPlanPageParams = z.object({ planId: z.string().max(64) });
export const checkoutEnrolmentParams = z.object({
  planId: idParam('plan'),
  nonce: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x-prefixed 32-byte hex')
    .describe('The enrolment nonce the page chose.'),
});

const domain = z
  .object({ name: z.string(), version: z.string(), chainId: z.number().int(), verifyingContract: z.string() })
  .describe('An EIP-712 domain.');

export const checkoutEnrolmentOffer = z
  .object({
    object: z.literal('checkout_enrolment_offer'),
    planId: z.string(),
    planName: z.string(),
    merchantName: z.string(),
    livemode: z.boolean(),
    chainId: z
      .number()
      .int()
      .describe("The chain these terms, the manager and its domain are on: the one asked for, else the plan's first."),
    chains: z
      .array(checkoutChain)
      .describe(
        "Every chain the plan is offered on, the default first: the hosted page's network picker. GET again with `?chainId=` for another chain's offer.",
      ),
    subscriptionManager: z.string().describe('The SubscriptionManager the permit is granted to and the Enrolment is signed for.'),
    managerDomain: domain.describe("The SubscriptionManager's EIP-712 domain (sign Enrolment with it)."),
    terms: z
      .object({
        token: z.string(),
        merchant: z.string(),
        operator: z.string(),
        amount: z.string(),
        period: z
          .string()
          .describe(
            'Seconds: the plan interval on SubscriptionManagerV2 (months as the mean Gregorian month, 2,629,746 s; days and weeks exact).',
          ),
        periods: z.number().int().describe('0: open-ended (plans have no end).'),
        trialEnd: z.string().describe("Unix seconds; now + the plan's trial days, or 0 without a trial."),
        chargeWindow: z
          .string()
          .describe(
            "Seconds after a period's start during which it may be charged: the period plus the calendar's largest drift from it, rounded up to an hour.",
          ),
      })
      .describe('The Enrolment terms the subscriber signs; the enrol route accepts exactly these (trialEnd no later than offered).'),
    permitValue: z
      .string()
      .describe(
        'The allowance the page asks the subscriber to permit: 12 periods of the plan amount (renewed from the emailed renewal link).',
      ),
    discount: z
      .object({
        promotionCode: z.string().describe('The code as the merchant wrote it.'),
        couponName: z.string().nullable(),
        percentOff: z.number().nullable(),
        amountOff: z.string().nullable(),
        discountedAmount: z
          .string()
          .describe('What each discounted period pulls, in base units (the terms keep the full amount, the cap).'),
        periods: z.number().int().nullable().describe('How many charged periods are discounted; null: every one.'),
      })
      .nullable()
      .describe('The `promotionCode` asked about, applied to this plan; null without one.'),
  })
  .meta({ id: 'CheckoutEnrolmentOffer' });

export const checkoutEnrolment = z
  .object({
    object: z.literal('checkout_enrolment'),
    planId: z.string(),
    nonce: z.string(),
    chainId: z.number().int().describe('The chain the enrolment was relayed on.'),
    submissionStatus: z.enum(['pending', 'submitted', 'confirmed', 'failed']),
    transactionHash: z.string().nullable(),
    failureCode: failureCode,
    failureReason: z.string().nullable(),
  })
  .meta({ id: 'CheckoutEnrolment' });

export type CheckoutEnrolmentOffer = z.infer<typeof checkoutEnrolmentOffer>;
export type CheckoutEnrolment = z.infer<typeof checkoutEnrolment>;

// ---- Renewal of a subscription's allowance (hosted, linked from the renewal email). ----
const renewalToken = z.string().min(16).max(128).describe('The capability from the renewal link the customer was emailed.');

/** The enrol route's body: the relay's subscription body plus the customer's optional email (for renewal notices). */
export const checkoutEnrolBody = relaySubscriptionBody.extend({
  chainId: chainIdField
    .optional()
    .describe(
      "The chain the subscriber chose and signed for: one the plan is offered on (GET /checkout/plans/{planId}/enrolment lists them in `chains`); default: the plan's first. Another chain is refused (`chainId`), and signatures made for another chain than this one are refused (`permit.signature`, `enrolment.signature`), before anything is relayed.",
    ),
  customerEmail: emailAddress(254)
    .optional()
    .describe(
      'Optional. Where the "renew your authorisation" email goes when the permitted allowance runs low. Kept on the wallet\'s customer; the first one given wins.',
    ),
  promotionCode: promotionCodeText
    .optional()
    .describe(
      "Optional. A promotion code of the plan's merchant (any letter case). Checked before the relay (refused with `invalid_request`, param `promotionCode`); redeemed when the subscription is projected, so each charge pulls the discounted amount. The signed terms stay the plan's amount, the cap, so the discount needs no other signature.",
    ),
});
export type CheckoutEnrolBody = z.infer<typeof checkoutEnrolBody>;

export const checkoutRenewalPageParams = z.object({ id: z.string().max(64) });
export const checkoutRenewalPageQuery = z.object({ token: z.string().max(128).optional() });
export const checkoutRenewalParams = z.object({ id: idParam('subscription') });
export const checkoutRenewalQuery = z.object({ token: renewalToken });
export const checkoutRenewalStatusParams = z.object({
  id: idParam('subscription'),
  nonce: z
    .string()
    .regex(/^\d{1,78}$/, 'must be an integer string')
    .describe('The permit nonce the renewal was signed at.'),
});

export const checkoutRenewalBody = z
  .object({
    token: renewalToken,
    permit: relaySubscriptionBody.shape.permit.describe(
      "The subscriber's EIP-2612 permit for the SubscriptionManager at the current permit nonce (as GET /checkout/subscriptions/{id}/renewal offers it). It replaces the allowance, so it must raise it.",
    ),
  })
  .describe('What the hosted renewal page posts after the wallet signed.');
export type CheckoutRenewalBody = z.infer<typeof checkoutRenewalBody>;

export const checkoutRenewalOffer = z
  .object({
    object: z.literal('checkout_renewal_offer'),
    subscriptionId: z.string(),
    status: z.string().describe("The subscription's status (at_risk when a charge already failed for lack of allowance)."),
    merchantName: z.string(),
    planName: z.string(),
    livemode: z.boolean(),
    chainId: z.number().int().describe("The subscription's chain: where it was enrolled, is charged, and where the permit goes."),
    addChain: checkoutChain.shape.addChain,
    token: z.string().describe('The token the permit is signed for.'),
    tokenDomain: domain.describe("The token's EIP-712 domain (sign the Permit with it)."),
    subscriber: z.string().describe('The permit owner: the wallet that pays the subscription.'),
    spender: z.string().describe('The SubscriptionManager.'),
    amount: z.string().describe('One period of the subscription, in token base units.'),
    allowance: z.string().describe('The allowance the SubscriptionManager has now.'),
    periodsLeft: z.number().int().describe('Whole periods the current allowance pays.'),
    permitNonce: z.string().describe("The subscriber's current permit nonce."),
    permitValue: z.string().describe('The allowance to permit: the current allowance plus 12 periods of the amount.'),
  })
  .meta({ id: 'CheckoutRenewalOffer' });

export const checkoutRenewal = z
  .object({
    object: z.literal('checkout_renewal'),
    subscriptionId: z.string(),
    permitNonce: z.string(),
    status: z.enum(['pending', 'confirmed', 'failed']),
    transactionHash: z.string().nullable(),
    failureCode: z
      .string()
      .nullable()
      .describe(
        'When failed and the token refused the permit: its refusal code (docs/events.md "Refusal codes", e.g. `token_paused`, `authorization_expired`). The hosted page shows the subscriber one sentence per code.',
      ),
    failureReason: z.string().nullable(),
  })
  .meta({ id: 'CheckoutRenewal' });

export type CheckoutRenewalOffer = z.infer<typeof checkoutRenewalOffer>;
export type CheckoutRenewal = z.infer<typeof checkoutRenewal>;

// ---- Approval of a replacement enrolment (hosted): an upgrade above the authorised amount (the plan change's
// hostedUrl) or a move to another wallet (the wallet change's hostedUrl, started in the customer portal). ----
const reauthorisationToken = z
  .string()
  .min(16)
  .max(128)
  .describe("The capability from the change's `hostedUrl` (its `token` query parameter): good for that change only.");
export const checkoutReauthorisationPageParams = z.object({ id: z.string().max(64) });
export const checkoutReauthorisationPageQuery = z.object({ token: z.string().max(128).optional() });
export const checkoutReauthorisationParams = z.object({ id: idParam('planChange') });
export const checkoutWalletChangeParams = z.object({ id: idParam('walletChange') });
export const checkoutReauthorisationQuery = z.object({ token: reauthorisationToken });
const reauthorisationKind = z
  .enum(['plan_change', 'wallet_change'])
  .describe('`plan_change`: an upgrade above the authorised amount; `wallet_change`: the subscription moves to another wallet.');

export const checkoutReauthorisationOffer = checkoutEnrolmentOffer
  .extend({
    object: z.literal('checkout_reauthorisation_offer'),
    kind: reauthorisationKind,
    planChangeId: z.string().nullable().describe('The upgrade’s plan change (null for a wallet change).'),
    walletChangeId: z.string().nullable().describe('The wallet change (null for an upgrade).'),
    subscriptionId: z.string(),
    fromPlanName: z.string().describe('The plan the subscription is on now.'),
    fromAmount: z.string().describe('What a period charges now (before a discount), base units.'),
    currentSubscriber: z.string().describe('The wallet the subscription charges now.'),
    subscriber: z
      .string()
      .describe(
        'The only wallet whose signature is accepted: the subscribing wallet for an upgrade, the wallet the customer named for a wallet change.',
      ),
    firstChargeAt: timestamp.describe(
      'When the new amount is first charged: the start of the subscription’s next period, the new enrolment’s period 0 (its trialEnd). The period in progress stays as paid; nothing is prorated.',
    ),
  })
  .describe(
    "What the approval page asks `subscriber` to sign: a new enrolment on the subscription's chain, starting at its next period, which replaces the current enrolment (then cancelled on chain). For an upgrade, `planId`, `planName` and `terms.amount` are the new plan's; for a wallet change, the plan stays and `terms.amount` is the current authorised amount.",
  )
  .meta({ id: 'CheckoutReauthorisationOffer' });
export type CheckoutReauthorisationOffer = z.infer<typeof checkoutReauthorisationOffer>;

export const checkoutReauthorisationBody = relaySubscriptionBody
  .extend({ token: reauthorisationToken })
  .describe(
    "What the approval page posts after the wallet signed: the permit and Enrolment of the offer's exact terms, by the offer's `subscriber`, and the link's token.",
  );
export type CheckoutReauthorisationBody = z.infer<typeof checkoutReauthorisationBody>;

export const checkoutReauthorisation = z
  .object({
    object: z.literal('checkout_reauthorisation'),
    id: z.string().describe('The change approved: its plan change id, or its wallet change id.'),
    planChangeId: z.string().nullable(),
    nonce: z.string().describe('The enrolment nonce signed.'),
    chainId: z.number().int(),
    firstChargeAt: timestamp,
    submissionStatus: z.enum(['pending', 'submitted', 'confirmed', 'failed']),
    transactionHash: z.string().nullable(),
    failureCode: failureCode,
    failureReason: z.string().nullable(),
  })
  .meta({ id: 'CheckoutReauthorisation' });

export const checkoutReauthorisationStatus = z
  .object({
    object: z.literal('checkout_reauthorisation_status'),
    id: z.string().describe('The plan change id, or the wallet change id.'),
    kind: reauthorisationKind,
    subscriptionId: z.string(),
    status: z
      .enum(['pending', 'submitted', 'applied', 'cancelled'])
      .describe(
        '`pending`: nothing signed yet (or a signature that could not be applied: sign again); `submitted`: the signed enrolment was relayed and is bound to `firstChargeAt`, waiting to be indexed; `applied`: the subscription charges through it; `cancelled`: the change was withdrawn (an enrolment signed for it is cancelled on chain when indexed).',
      ),
    subscriber: z.string().describe('The wallet that signs (or signed) the replacement enrolment.'),
    firstChargeAt: timestamp.nullable().describe('The period the signed enrolment is bound to (null before a signature).'),
    appliedAt: timestamp.nullable(),
  })
  .meta({
    id: 'CheckoutReauthorisationStatus',
    examples: [
      {
        object: 'checkout_reauthorisation_status',
        id: 'swc_01JD8ZX0000000000000000001',
        kind: 'wallet_change',
        subscriptionId: 'sub_01JD8ZX0000000000000000001',
        status: 'submitted',
        subscriber: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
        firstChargeAt: '2027-01-10T14:02:00.000Z',
        appliedAt: null,
      },
    ],
  });
export type CheckoutReauthorisationStatus = z.infer<typeof checkoutReauthorisationStatus>;
export type CheckoutReauthorisation = z.infer<typeof checkoutReauthorisation>;
