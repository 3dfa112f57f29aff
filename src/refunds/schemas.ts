// Request and response shapes of refunds (the spec shows only the id and the
// recording of an on-chain transaction hash; the rest is documented here).
import { isAddress } from 'viem';
import { z } from 'zod';
import { metadataField, metadataObject, metadataQuery, metadataUpdate } from '../http/metadata.js';
import { amountString, chainIdField, idParam, pathId, timestamp, chainIdQuery } from '../http/schemas.js';
import { listOf, listQueryOf } from '../http/pagination.js';
import { createdRangeQuery, searchQuery } from '../http/list-filters.js';
import { REFUSAL_CODES } from '../chain/refusals.js';

export const REFUND_STATUSES = ['requires_action', 'pending', 'processing', 'succeeded', 'failed', 'cancelled'] as const;
export const REFUND_METHODS = ['allowance', 'wallet'] as const;
/** Why the refund goes to its recipient (docs/refunds.md, Who gets a refund). */
export const RECIPIENT_SOURCES = ['payer_signer', 'deposit_sender', 'merchant_specified', 'customer_claimed'] as const;

/** A recipient address as a client sends it: 0x + 40 hex; mixed case must be a valid EIP-55 checksum. */
export const recipientAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address')
  .refine((value) => isAddress(value, { strict: true }), 'mixed case must be a valid EIP-55 checksum (or send it all-lowercase)');

const refundAmountFields = {
  amount: amountString
    .optional()
    .describe(
      'Amount to refund in base units; defaults to all that remains refundable. Never more than was paid in total (the payment, an overpayment by transfer, late deposits) minus its pending, processing and succeeded refunds.',
    ),
  reason: z.string().trim().min(1).max(500).optional(),
  chainId: chainIdField
    .optional()
    .describe(
      "Optional check: the chain the refund must go out on (EIP-155 id). A refund always goes out on the chain the money came in on (a late deposit's chain, else the chain of the payment); naming another chain is refused (invalid_request, param chainId) and creates nothing.",
    ),
  destination: recipientAddress
    .optional()
    .describe(
      "Send the refund to this address instead of the payer the payment shows (recipientSource `merchant_specified`): e.g. the address the customer asked for. Not the zero address, the payout address, the session's deposit address, the token or the platform's contracts. Not with customerClaim.",
    ),
  customerClaim: z
    .literal(true)
    .optional()
    .describe(
      'Let the customer name the address on the hosted refund-claim page (`claimUrl`; emailed when the invoice has a customerEmail): the refund is `requires_action` until they do. Chosen by itself when the payer cannot be told (the payment came from several senders). Not with destination or depositId.',
    ),
  depositId: idParam('deposit')
    .optional()
    .describe(
      'A late deposit of this session (its `sourceId` in GET /v1/payment-sessions/{id}/transactions) to return to its own sender: the amount defaults to, and is at most, what remains of that deposit. Without it a refund goes to the payer of the payment.',
    ),
  metadata: metadataField.optional(),
};

/** Exactly one of paymentSessionId and invoiceId: two strict shapes, so the document says so too (anyOf, each forbidding the other). */
export const createRefundBody = z.union([
  z
    .object({
      paymentSessionId: idParam('paymentSession').describe('The completed payment session to refund.'),
      invoiceId: z.never().optional().describe('Not with paymentSessionId.'),
      ...refundAmountFields,
    })
    .strict(),
  z
    .object({
      invoiceId: idParam('invoice').describe("A paid invoice: refunds its backing session's payment."),
      paymentSessionId: z.never().optional().describe('Not with invoiceId.'),
      ...refundAmountFields,
    })
    .strict(),
]);

export const refundInstructions = z
  .object({
    chainId: z.number().int(),
    token: z.string().describe('The token contract (USDC of this mode).'),
    from: z.string().describe("The merchant's payout address: the wallet that must send the refund (it received the payment)."),
    to: z.string().describe('The refund recipient (`recipient`, chosen as `recipientSource` says).'),
    amount: z.string(),
    call: z
      .object({
        to: z.string().describe('Contract to call: the token.'),
        data: z
          .string()
          .describe(
            'ABI-encoded calldata of transfer(to, amount): send as the transaction data from `from` (e.g. eth_sendTransaction { from, to, data, value: "0x0" }).',
          ),
        value: z.literal('0').describe('Native value to send with the call: none.'),
        functionName: z.literal('transfer'),
        args: z.tuple([z.string(), z.string()]).describe('transfer arguments: recipient, amount.'),
      })
      .describe('The exact ERC-20 call the merchant wallet signs and sends.'),
  })
  .describe('Wallet-signing instructions: send call from `from`, then POST /v1/refunds/{id}/signature with the transaction hash.')
  .meta({ id: 'RefundInstructions' });

export const refund = z
  .object({
    id: z.string(),
    object: z.literal('refund'),
    paymentSessionId: z.string(),
    invoiceId: z.string().nullable(),
    amount: z.string(),
    currency: z.string(),
    reason: z.string().nullable(),
    status: z
      .enum(REFUND_STATUSES)
      .describe(
        "`requires_action`: waiting for the customer to name the address on the hosted refund-claim page (`claimUrl`); its amount is reserved; then `processing` or `pending` by the refund allowance. `pending` (method `wallet`): waiting for the merchant wallet's transfer (its amount is reserved). `processing` (method `allowance`): the operator is sending it from the refund allowance; it cannot be cancelled. `succeeded`: the transfer has the mode's confirmations (terminal; `refund.succeeded`). `failed`: the refund transfer was refused or reverted, `failureCode` says why; its amount is refundable again (terminal; `refund.failed`). `cancelled`: cancelled while pending or requires_action with POST /v1/refunds/{id}/cancel; its amount is refundable again (terminal).",
      ),
    method: z
      .enum(REFUND_METHODS)
      .describe(
        "`allowance`: the refund allowance of the payout wallet covered it when it was created, so the operator sends it (transferFrom payout -> customer) and it completes by itself. `wallet`: the allowance did not cover it (or none was granted), so the merchant's payout wallet sends it: sign the EIP-3009 transfer (POST /v1/refunds/{id}/authorization; the relay submits it) or send `instructions.call` and record it with POST /v1/refunds/{id}/signature.",
      ),
    instructions: refundInstructions
      .nullable()
      .describe(
        'For method `wallet` only (null for `allowance`, and while `requires_action`: no recipient yet): the transfer the payout wallet sends.',
      ),
    recipient: z.string().nullable().describe('Where the refund goes (null while `requires_action`: the customer has not named it yet).'),
    recipientSource: z
      .enum(RECIPIENT_SOURCES)
      .nullable()
      .describe(
        'Why it goes there: `payer_signer` (the wallet that signed the relayed payment), `deposit_sender` (the sender of the transfers that paid the session, or of the late deposit refunded), `merchant_specified` (`destination` at creation), `customer_claimed` (given on the hosted refund-claim page). Null while `requires_action`.',
      ),
    depositId: z.string().nullable().describe('The late deposit this refund returns to its sender, if it was created for one.'),
    claimUrl: z
      .string()
      .nullable()
      .describe(
        'The hosted refund-claim page where the customer names the address (an unguessable link; share it only with the customer). Set while the refund `requires_action`, null otherwise.',
      ),
    claimedAt: timestamp.nullable().describe('When the customer named the address on the claim page.'),
    transactionHash: z
      .string()
      .nullable()
      .describe("The refund transfer (the operator's as soon as it is mined; for `wallet`, the verified one)."),
    blockNumber: z.string().nullable().describe("Block of the operator's refund transfer, once confirmed."),
    failureCode: z
      .string()
      .nullable()
      .describe(
        `Why the refund failed (\`failed\` only): one of the token refusal codes (${REFUSAL_CODES.join(', ')}), or \`reverted\`. Most likely: payer_blacklisted (the refunded customer's address is blocked by the issuer), merchant_blacklisted (the payout address is), token_paused (create a new refund once USDC resumes), insufficient_funds (top up the payout wallet), insufficient_allowance (raise the refund allowance).`,
      ),
    failureReason: z.string().nullable().describe('A readable sentence for `failureCode`.'),
    failedAt: timestamp.nullable(),
    succeededAt: timestamp.nullable(),
    cancelledAt: timestamp.nullable(),
    chainId: z
      .number()
      .int()
      .describe('The chain the refund goes out on (EIP-155 id): the one the refunded money came in on, never another by default.'),
    metadata: metadataObject,
    livemode: z.boolean(),
    createdAt: timestamp,
  })
  .meta({ id: 'Refund' });

export const refundSignatureBody = z
  .object({
    transactionHash: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte transaction hash')
      .describe(
        'Hash of the mined transaction that made the refund transfer (from instructions.from to instructions.to, exactly instructions.amount of the token).',
      ),
  })
  .strict();

export const refundParams = z.object({ id: pathId('refund') });
export const refundList = listOf(refund);
export const refundListQuery = listQueryOf('refund').extend({
  status: z.enum(REFUND_STATUSES).optional().describe('Only refunds in this status.'),
  chainId: chainIdQuery.describe('Only refunds on this chain (EIP-155 id).'),
  metadata: metadataQuery,
  ...createdRangeQuery,
  q: searchQuery(
    'the refund id, the id of the refunded payment session, the wallet address refunded to (any letter case), or the refund ' +
      'transaction hash (exact)',
  ),
});
export type RefundListQuery = z.infer<typeof refundListQuery>;

export type CreateRefundBody = z.infer<typeof createRefundBody>;
export type Refund = z.infer<typeof refund>;

export const refundAllowance = z
  .object({
    object: z.literal('refund_allowance'),
    chainId: z.number().int(),
    token: z.string(),
    owner: z.string().nullable().describe("The merchant's payout address, which grants the allowance (null: no payout address set)."),
    spender: z
      .string()
      .nullable()
      .describe('The operator that sends refunds from the allowance (null: this deployment has no operator in this mode).'),
    allowance: z.string().describe("The payout wallet's USDC allowance for the operator, on chain now."),
    inUse: z.string().describe('What refunds being processed still take from it.'),
    available: z.string().describe('allowance - inUse: a refund up to this amount is sent by the operator.'),
    balance: z.string().describe("The payout wallet's USDC balance (a refund also needs the funds)."),
    permit: z
      .object({
        domain: z.object({ name: z.string(), version: z.string(), chainId: z.number().int(), verifyingContract: z.string() }),
        primaryType: z.literal('Permit'),
        nonce: z.string().describe("The payout wallet's next EIP-2612 nonce."),
      })
      .nullable()
      .describe(
        'What to sign to grant the allowance by EIP-2612 permit (eth_signTypedData_v4 with message {owner, spender, value, nonce, deadline}), then POST /v1/refunds/allowance/permit.',
      ),
    approve: z
      .object({
        to: z.string(),
        functionName: z.literal('approve'),
        args: z.array(z.string()).length(2).describe('spender, value (a suggested cap).'),
      })
      .nullable()
      .describe(
        'The alternative without a signature: the payout wallet sends approve(spender, value) to the token itself (it pays the gas).',
      ),
  })
  .meta({ id: 'RefundAllowance' });

export const grantRefundAllowanceBody = z
  .object({
    chainId: chainIdField
      .optional()
      .describe(
        "The chain whose USDC the permit is for (EIP-155 id; its domain names the chain): one of the mode's configured chains. Default: the mode's first chain. Refunds of payments on that chain are then sent from this allowance.",
      ),
    value: amountString.describe('The allowance to grant in base units (a cap: it replaces the current allowance).'),
    deadline: z
      .string()
      .regex(/^[0-9]{1,20}$/, 'must be a unix timestamp in seconds')
      .describe('The permit deadline (unix seconds), as signed.'),
    signature: z
      .string()
      .regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 65-byte 0x-prefixed signature')
      .describe("The payout wallet's EIP-712 signature of the Permit."),
  })
  .strict();

export const refundAllowanceQuery = z.object({
  chainId: z.coerce
    .number()
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .describe("The chain of the allowance (EIP-155 id): one of the mode's configured chains. Default: the mode's first chain."),
});

export type RefundAllowance = z.infer<typeof refundAllowance>;
export type RefundAllowanceQuery = z.infer<typeof refundAllowanceQuery>;
export type GrantRefundAllowanceBody = z.infer<typeof grantRefundAllowanceBody>;

export const refundAuthorizationBody = z
  .object({
    authorization: z
      .object({
        from: z
          .string()
          .regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address')
          .describe("The payout wallet (the refund's instructions.from)."),
        to: z
          .string()
          .regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address')
          .describe("The customer (the refund's instructions.to)."),
        value: amountString.describe("Exactly the refund's amount."),
        validAfter: z.string().regex(/^(0|[1-9][0-9]{0,19})$/, 'must be unix seconds'),
        validBefore: z.string().regex(/^(0|[1-9][0-9]{0,19})$/, 'must be unix seconds'),
        nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x-prefixed 32-byte hex'),
      })
      .strict()
      .describe("The EIP-3009 TransferWithAuthorization message the payout wallet signed (domain: the token's)."),
    signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 65-byte 0x-prefixed signature'),
  })
  .strict();
export type RefundAuthorizationBody = z.infer<typeof refundAuthorizationBody>;

export const refundRecipientQuery = z
  .object({ paymentSessionId: idParam('paymentSession').describe('The payment session a refund would be of.') })
  .strict();
export const refundRecipient = z
  .object({
    object: z.literal('refund_recipient'),
    paymentSessionId: z.string(),
    recipient: z
      .string()
      .nullable()
      .describe('Where a refund of it (without destination or depositId) would go; null when the customer must claim it, or nobody paid.'),
    recipientSource: z.enum(RECIPIENT_SOURCES).nullable().describe('Why: `payer_signer` or `deposit_sender` (see Refund.recipientSource).'),
    requiresClaim: z
      .boolean()
      .describe('Several senders paid it: a refund would be `requires_action` until the customer names the address on the claim page.'),
  })
  .meta({ id: 'RefundRecipient' });
export type RefundRecipient = z.infer<typeof refundRecipient>;

export const updateRefundBody = z
  .object({ metadata: metadataUpdate.optional() })
  .strict()
  .meta({ examples: [{ metadata: { order: '1234', note: '' } }] });
export type UpdateRefundBody = z.infer<typeof updateRefundBody>;
