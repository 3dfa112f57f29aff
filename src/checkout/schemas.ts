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
