// Request and response shapes of the hosted checkout's same-origin server route.
import { z } from 'zod';
import { idParam } from '../http/schemas.js';
import { relayPaymentBody } from '../relay/schemas.js';

export const checkoutPageParams = z.object({ id: z.string().max(64) });
export const checkoutPayParams = z.object({ id: idParam('paymentSession') });

export const checkoutPayBody = relayPaymentBody
  .pick({ authorization: true, signature: true })
  .describe(
    "What the hosted checkout page posts after the customer's wallet signed: the EIP-3009 TransferWithAuthorization message and its signature. The server relays it for the session's merchant; no key is involved on the page.",
  );

export const checkoutPayment = z
  .object({
    object: z.literal('checkout_payment'),
    sessionId: z.string(),
    submissionStatus: z
      .enum(['pending', 'submitted', 'confirmed', 'failed'])
      .describe('Status of the relay submission that carries the payment; poll GET /v1/checkout/sessions/{id} until the session is completed.'),
    transactionHash: z.string().nullable(),
  })
  .meta({ id: 'CheckoutPayment' });

export type CheckoutPayBody = z.infer<typeof checkoutPayBody>;
export type CheckoutPayment = z.infer<typeof checkoutPayment>;

export const checkoutPlanParams = z.object({ planId: idParam('plan') });
export const checkoutPlanPageParams = z.object({ planId: z.string().max(64) });
export const checkoutEnrolmentParams = z.object({
  planId: idParam('plan'),
  nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x-prefixed 32-byte hex').describe('The enrolment nonce the page chose.'),
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
    chainId: z.number().int(),
    subscriptionManager: z.string().describe('The SubscriptionManager the permit is granted to and the Enrolment is signed for.'),
    managerDomain: domain.describe("The SubscriptionManager's EIP-712 domain (sign Enrolment with it)."),
    terms: z
      .object({
        token: z.string(),
        merchant: z.string(),
        operator: z.string(),
        amount: z.string(),
        period: z.string().describe('Seconds (the plan interval mapped by onChainPeriodSeconds).'),
        periods: z.number().int().describe('0: open-ended (plans have no end).'),
        trialEnd: z.string().describe('Unix seconds; now + the plan\'s trial days, or 0 without a trial.'),
      })
      .describe('The Enrolment terms the subscriber signs; the enrol route accepts exactly these (trialEnd no later than offered).'),
    permitValue: z.string().describe('The allowance the page asks the subscriber to permit: 12 periods of the plan amount.'),
  })
  .meta({ id: 'CheckoutEnrolmentOffer' });

export const checkoutEnrolment = z
  .object({
    object: z.literal('checkout_enrolment'),
    planId: z.string(),
    nonce: z.string(),
    submissionStatus: z.enum(['pending', 'submitted', 'confirmed', 'failed']),
    transactionHash: z.string().nullable(),
    failureReason: z.string().nullable(),
  })
  .meta({ id: 'CheckoutEnrolment' });

export type CheckoutEnrolmentOffer = z.infer<typeof checkoutEnrolmentOffer>;
export type CheckoutEnrolment = z.infer<typeof checkoutEnrolment>;
