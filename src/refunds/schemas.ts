// Request and response shapes of refunds (the spec shows only the id and the
// recording of an on-chain transaction hash; the rest is documented here).
import { z } from 'zod';
import { amountString, idParam, pathId, timestamp } from '../http/schemas.js';
import { listOf, listQueryOf } from '../http/pagination.js';
import { createdRangeQuery, searchQuery } from '../http/list-filters.js';
import { REFUSAL_CODES } from '../chain/refusals.js';

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;

const refundAmountFields = {
  amount: amountString.optional().describe('Amount to refund in base units; defaults to all that remains refundable. Never more than was paid in total (the payment, an overpayment by transfer, late deposits) minus its pending and succeeded refunds.'),
  reason: z.string().trim().min(1).max(500).optional(),
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
    to: z.string().describe('The refund recipient: the payer of a relayed payment, else the sender of the latest transfer to the deposit address.'),
    amount: z.string(),
    call: z
      .object({
        to: z.string().describe('Contract to call: the token.'),
        data: z.string().describe('ABI-encoded calldata of transfer(to, amount): send as the transaction data from `from` (e.g. eth_sendTransaction { from, to, data, value: "0x0" }).'),
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
        '`pending`: waiting for the merchant wallet\'s transfer (its amount is reserved). `succeeded`: the transfer was verified on-chain (terminal). `failed`: the recorded transfer was refused by the token (see `failureCode`; terminal); it reserves nothing, so a new refund can be created once the cause is gone. `cancelled`: cancelled while pending with POST /v1/refunds/{id}/cancel; its amount is refundable again (terminal).',
      ),
    instructions: refundInstructions,
    transactionHash: z.string().nullable().describe('The verified refund transfer (of a failed refund: the transfer the token refused).'),
    failureCode: z
      .string()
      .nullable()
      .describe(
        `Why the refund failed (\`failed\` only): one of the token refusal codes (${REFUSAL_CODES.join(', ')}). Most likely: payer_blacklisted (the refunded customer's address is blocked by the issuer), merchant_blacklisted (the payout address is), token_paused (create a new refund once USDC resumes), insufficient_funds (top up the payout wallet).`,
      ),
    failureReason: z.string().nullable().describe('A readable sentence for `failureCode`.'),
    succeededAt: timestamp.nullable(),
    failedAt: timestamp.nullable(),
    cancelledAt: timestamp.nullable(),
    livemode: z.boolean(),
    createdAt: timestamp,
  })
  .meta({ id: 'Refund' });

export const refundSignatureBody = z
  .object({
    transactionHash: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte transaction hash')
      .describe('Hash of the mined transaction that made the refund transfer (from instructions.from to instructions.to, exactly instructions.amount of the token).'),
  })
  .strict();

export const refundParams = z.object({ id: pathId('refund') });
export const refundList = listOf(refund);
export const refundListQuery = listQueryOf('refund').extend({
  status: z.enum(REFUND_STATUSES).optional().describe('Only refunds in this status.'),
  ...createdRangeQuery,
  q: searchQuery(
    'the refund id, the id of the refunded payment session, the wallet address refunded to (any letter case), or the refund ' +
      'transaction hash (exact)',
  ),
});
export type RefundListQuery = z.infer<typeof refundListQuery>;

export type CreateRefundBody = z.infer<typeof createRefundBody>;
export type Refund = z.infer<typeof refund>;
