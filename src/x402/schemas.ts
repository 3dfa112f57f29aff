// Request and response shapes of the x402 facilitator, as x402 v2 defines them
// (specs/x402-specification-v2.md, sections 5 and 7, of the x402 repository).
// Objects are open (extra keys pass): x402 carries extensions we do not read.
import { z } from 'zod';

const resourceInfo = z
  .looseObject({
    url: z.string().describe('URL of the paid resource.'),
    description: z.string().optional(),
    mimeType: z.string().optional(),
  })
  .describe('ResourceInfo: the paid resource, as the seller described it in PAYMENT-REQUIRED.');

export const paymentRequirements = z
  .looseObject({
    scheme: z.string().min(1).describe('Payment scheme; this facilitator settles `exact`.'),
    network: z.string().min(1).describe('CAIP-2 network, e.g. `eip155:8453`; GET /v1/x402/supported lists the ones of your mode.'),
    amount: z.string().min(1).describe('Amount in token base units (USDC: 6 decimals), integer string.'),
    asset: z.string().min(1).describe("The token's address: the mode's USDC."),
    payTo: z
      .string()
      .min(1)
      .describe(
        "The recipient: the merchant's payout address, or the deposit address of one of its open, unpaid payment sessions in the key's mode (the payment is then that session's deposit, for exactly its amount).",
      ),
    maxTimeoutSeconds: z.number().positive(),
    extra: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("Scheme data; for `exact` on EVM the token's EIP-712 `name` and `version`."),
  })
  .meta({ id: 'X402PaymentRequirements' });

const paymentPayload = z
  .looseObject({
    x402Version: z.number().int(),
    resource: resourceInfo.nullish(),
    accepted: paymentRequirements,
    payload: z
      .record(z.string(), z.unknown())
      .describe(
        'Scheme data; for `exact` on EVM `{ signature, authorization: { from, to, value, validAfter, validBefore, nonce } }` (EIP-3009).',
      ),
    extensions: z.record(z.string(), z.unknown()).nullish(),
  })
  .meta({ id: 'X402PaymentPayload' });

export const facilitatorRequest = z
  .looseObject({
    x402Version: z.number().int().describe('2.'),
    paymentPayload: paymentPayload.describe('The PAYMENT-SIGNATURE header of the buyer, decoded.'),
    paymentRequirements: paymentRequirements.describe('What the seller requires (the entry of PAYMENT-REQUIRED the payment answers).'),
  })
  .meta({ id: 'X402FacilitatorRequest' });

/** The `payload` of the `exact` scheme on EVM (EIP-3009 TransferWithAuthorization). */
export const exactEvmPayload = z.object({
  signature: z.string().regex(/^0x([0-9a-fA-F]{2})+$/, 'must be 0x-prefixed hex bytes'),
  authorization: z.object({
    from: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
    to: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
    value: z.string().regex(/^(0|[1-9][0-9]{0,77})$/),
    validAfter: z.string().regex(/^(0|[1-9][0-9]{0,77})$/),
    validBefore: z.string().regex(/^(0|[1-9][0-9]{0,77})$/),
    nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  }),
});

export const verifyResponse = z
  .object({
    isValid: z.boolean(),
    invalidReason: z
      .string()
      .optional()
      .describe('Why not, as the x402 reference facilitator names it (e.g. `invalid_exact_evm_signature`); absent when valid.'),
    invalidMessage: z.string().optional().describe('The same in words, for a person.'),
    payer: z.string().optional().describe("The payer's wallet (authorization.from)."),
  })
  .meta({ id: 'X402VerifyResponse' });

export const settleResponse = z
  .object({
    success: z.boolean(),
    errorReason: z
      .string()
      .optional()
      .describe(
        'Why not; `settlement_pending` with a `transaction` means it is on its way: settle again with the same payment to read the outcome.',
      ),
    errorMessage: z.string().optional(),
    payer: z.string().optional(),
    transaction: z.string().describe('The transaction hash; empty when nothing was sent.'),
    network: z.string().describe('CAIP-2 network of the transaction.'),
    amount: z.string().optional().describe('The amount settled, in base units.'),
  })
  .meta({ id: 'X402SettleResponse' });

export const supportedResponse = z
  .object({
    kinds: z.array(
      z.object({
        x402Version: z.number().int(),
        scheme: z.string(),
        network: z.string(),
        extra: z.record(z.string(), z.unknown()).optional(),
      }),
    ),
    extensions: z.array(z.string()),
    signers: z.record(z.string(), z.array(z.string())).describe('The addresses that send settlements, per CAIP-2 family.'),
  })
  .meta({ id: 'X402SupportedResponse' });

export type FacilitatorRequest = z.infer<typeof facilitatorRequest>;
export type PaymentRequirements = z.infer<typeof paymentRequirements>;
export type VerifyResponse = z.infer<typeof verifyResponse>;
export type SettleResponse = z.infer<typeof settleResponse>;
export type SupportedResponse = z.infer<typeof supportedResponse>;
