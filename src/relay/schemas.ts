// Request and response shapes of the relay (the spec leaves them open; these
// descriptions are the documentation in /openapi.json).
import { z } from 'zod';
import { amountString, chainIdField, timestamp } from '../http/schemas.js';
import { address } from '../tokens/schemas.js';

const uintString = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,77})$/, 'must be a non-negative integer string')
  .describe('A non-negative integer as a decimal string (uint256).');
const bytes32 = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x-prefixed 32-byte hex')
  .describe('32 bytes, 0x-prefixed hex.');
const signature = z
  .string()
  .regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 65-byte 0x-prefixed hex signature (r, s, v)')
  .describe('The EIP-712 signature, 65 bytes as 0x-prefixed hex (r || s || v).');

/** A payment's signature: an EOA's 65 bytes, or an ERC-1271 contract wallet's signature of any length. */
const paymentSignature = z
  .string()
  .regex(
    /^0x([0-9a-fA-F]{2}){1,4096}$/,
    'must be 0x-prefixed hex bytes (65 bytes for an EOA; a contract wallet signature up to 4096 bytes)',
  )
  .describe(
    "The EIP-712 signature as 0x-prefixed hex: 65 bytes (r || s || v) from an EOA, sent through transferWithAuthorization(..., v, r, s); or an ERC-1271 contract wallet's signature (authorization.from is the wallet; any other length is sent through transferWithAuthorization(..., bytes signature)). Checked before sending: it must recover authorization.from, or the wallet's isValidSignature must accept it.",
  );

export const relayPaymentBody = z
  .object({
    chainId: chainIdField
      .optional()
      .describe(
        "The chain to send on (EIP-155 id): one of the mode's configured chains, and one the payment session accepts when one is named. Default: the mode's first chain. The authorization must be signed for this chain's USDC (its EIP-712 domain names the chain).",
      ),
    token: address.optional().describe("The token's address; defaults to the mode's configured USDC and must equal it."),
    authorization: z
      .object({
        from: address.describe('The payer: the address that signed the authorization.'),
        to: address.describe(
          "The recipient: the merchant's payout address, or the payTo of the payment session named by paymentSessionId.",
        ),
        value: amountString,
        validAfter: uintString.describe('Unix seconds; the authorization is valid strictly after this time.'),
        validBefore: uintString.describe('Unix seconds; the authorization is valid strictly before this time.'),
        nonce: bytes32.describe('The EIP-3009 nonce the payer chose (random 32 bytes).'),
      })
      .strict()
      .describe('The EIP-3009 TransferWithAuthorization message the payer signed.'),
    signature: paymentSignature,
    paymentSessionId: z
      .string()
      .regex(/^ps_[0-9A-HJKMNP-TV-Z]{26}$/, 'must be a payment session id (ps_...)')
      .optional()
      .describe(
        'Pay this payment session: it must be open and unexpired, and the authorization must pay exactly what remains due (its amount, less what transfers to its deposit address already paid: `deposit.amountRemaining`) to its payTo. The session turns `processing` now and `completed` when this submission confirms on-chain (`open` again if it fails).',
      ),
  })
  .strict();

export const relaySubscriptionBody = z
  .object({
    chainId: chainIdField
      .optional()
      .describe(
        "The chain to enrol on (EIP-155 id): one of the mode's configured chains. Default: the mode's first chain. The terms name that chain's USDC, and the permit and the enrolment must be signed for it (their EIP-712 domains name the chain): a signature for another chain is refused (`permit.signature` or `enrolment.signature`) before anything is sent. When the terms are those of a plan of the merchant, one of them must be offered on this chain (else `chainId` is refused). The subscription lives and is charged on this chain.",
      ),
    subscriber: address.describe('The wallet that enrols; it signed both the permit and the enrolment.'),
    terms: z
      .object({
        token: address.describe("The token; must be the mode's configured USDC."),
        merchant: address.describe("Payee of every charge: must be the merchant's payout address."),
        operator: address.optional().describe("Who may charge; defaults to and must equal the service's operator for this mode."),
        amount: amountString.describe('Maximum charge per period, in base units.'),
        period: z
          .string()
          .regex(/^[1-9][0-9]{0,18}$/, 'must be a positive integer string')
          .describe('Period length in seconds (uint64).'),
        periods: z.number().int().min(0).max(4_294_967_295).describe('Number of chargeable periods; 0 means open-ended (uint32).'),
        trialEnd: uintString.default('0').describe('Unix seconds; period 0 starts at max(enrolment time, trialEnd) (uint64).'),
        chargeWindow: z
          .string()
          .regex(/^[1-9][0-9]{0,18}$/, 'must be a positive integer string')
          .describe(
            "Seconds after a period's start during which it may be charged (uint64; SubscriptionManagerV2). The platform records an enrolment only with its plan's window: period + the calendar drift, to the hour (the hosted enrolment offer names it).",
          ),
      })
      .strict()
      .describe(
        'The enrolment terms, exactly as the subscriber signed them (EIP-712 Enrolment of SubscriptionManagerV2, domain version 2).',
      ),
    permit: z
      .object({
        value: amountString.describe('Allowance granted to the SubscriptionManager.'),
        deadline: uintString.describe('Unix seconds after which the permit is invalid.'),
        signature,
      })
      .strict()
      .describe(
        "The subscriber's EIP-2612 permit for the SubscriptionManager, signed at the nonce GET /v1/tokens/{address}/permit-nonce returns.",
      ),
    enrolment: z
      .object({
        nonce: bytes32.describe('Random 32-byte enrolment nonce chosen by the subscriber.'),
        deadline: uintString.describe('Unix seconds after which the enrolment signature is invalid.'),
        signature,
      })
      .strict()
      .describe("The subscriber's EIP-712 Enrolment signature over the terms."),
  })
  .strict();

export const RELAY_STATUSES = ['pending', 'submitted', 'confirmed', 'failed'] as const;

export const relaySubmission = z
  .object({
    object: z.literal('relay_submission'),
    id: z.string(),
    idempotencyKey: z
      .string()
      .describe('The Idempotency-Key the submission was made with; GET /v1/relay/submissions/{idempotencyKey} reads it.'),
    kind: z.enum(['payment', 'subscription']),
    livemode: z.boolean(),
    chainId: z.number().int(),
    status: z
      .enum(RELAY_STATUSES)
      .describe(
        '`pending`: accepted, not yet sent. `submitted`: sent, waiting for inclusion and confirmations. `confirmed`: included with the required confirmations. `failed`: reverted or refused on-chain; see failureReason. Terminal: confirmed, failed.',
      ),
    authorizationDigest: z
      .string()
      .describe('EIP-712 digest of the signed authorization (payment) or enrolment (subscription); one submission per digest, ever.'),
    transactionHash: z
      .string()
      .nullable()
      .describe('Hash of the relayer transaction (the latest one when a stuck transaction was replaced with a higher fee).'),
    blockNumber: z.string().nullable().describe('Block that included the transaction, as an integer string.'),
    confirmations: z.number().int().describe('Blocks on top of and including the one holding the transaction.'),
    requiredConfirmations: z.number().int(),
    failureCode: z
      .string()
      .nullable()
      .describe(
        'When failed: a refusal code (`insufficient_funds`, `insufficient_allowance`, `payer_blacklisted`, `merchant_blacklisted`, `account_blacklisted`, `token_paused`, `authorization_expired`, `authorization_not_yet_valid`, `authorization_used`, `signature_invalid`; docs/events.md "Refusal codes"), else the contract error name, `Reverted` or `NonceConsumed`.',
      ),
    failureReason: z
      .string()
      .nullable()
      .describe('What went wrong, readable: the refusal in a sentence, or the decoded revert and its arguments.'),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'RelaySubmission' });

export const submissionParams = z.object({
  idempotencyKey: z.string().min(1).max(255).describe('The Idempotency-Key of the relay POST.'),
});

export type RelayPaymentBody = z.infer<typeof relayPaymentBody>;
export type RelaySubscriptionBody = z.infer<typeof relaySubscriptionBody>;
export type RelaySubmission = z.infer<typeof relaySubmission>;
export type RelayStatus = (typeof RELAY_STATUSES)[number];
