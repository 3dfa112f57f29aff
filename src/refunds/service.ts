// Refunds of completed payments. The service never holds the merchant's keys:
// POST /v1/refunds reserves the amount and returns the exact ERC-20 transfer
// for the merchant's wallet; POST /v1/refunds/{id}/signature takes the mined
// transaction's hash and marks the refund succeeded only after verifying the
// transfer on-chain, or failed with the token's named refusal when that exact
// transfer reverted (blacklist, pause, funds); POST /v1/refunds/{id}/cancel
// releases a pending one.
import { createdRangeOf } from '../http/list-filters.js';
import { decodeEventLog, encodeFunctionData, getAddress, isAddressEqual, type Hex, type PublicClient, type TransactionReceipt } from 'viem';
import { refusalOfMinedCall } from '../chain/mined-refusal.js';
import { type Refusal, retryOf } from '../chain/refusals.js';
import { nameBlacklistedSide } from '../chain/token-standing.js';
import type { Db } from '../db/client.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { recordEvent } from '../events/outbox.js';
import { fiatTokenAbi } from '../chain/fiat-token-abi.js';
import { chainFor, type ChainConfig } from '../chain/config.js';
import { publicClientFor, withSafeChainErrors } from '../chain/clients.js';
import { isUniqueViolation, type Sql } from '../db/client.js';
import { InvalidRequestError, InvalidStateError, NotFoundError } from '../errors.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import { newId } from '../ids.js';
import * as invoiceRepo from '../invoices/repo.js';
import * as sessionRepo from '../payment-sessions/repo.js';
import * as depositRepo from '../payment-sessions/deposits-repo.js';

const maxOf = (a: bigint, b: bigint) => (a > b ? a : b);
import * as repo from './repo.js';
import type { CreateRefundBody, Refund, RefundListQuery } from './schemas.js';

const erc20TransferAbi = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
] as const;

export function renderRefund(row: repo.RefundRow): Refund {
  return {
    id: row.id,
    object: 'refund',
    paymentSessionId: row.paymentSessionId,
    invoiceId: row.invoiceId,
    amount: row.amount,
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    instructions: {
      chainId: Number(row.chainId),
      token: row.token,
      from: row.fromAddress,
      to: row.toAddress,
      amount: row.amount,
      call: {
        to: row.token,
        data: encodeFunctionData({ abi: erc20TransferAbi, functionName: 'transfer', args: [getAddress(row.toAddress), BigInt(row.amount)] }),
        value: '0',
        functionName: 'transfer',
        args: [row.toAddress, row.amount],
      },
    },
    transactionHash: row.transactionHash,
    failureCode: row.failureCode,
    failureReason: row.failureReason,
    succeededAt: row.succeededAt?.toISOString() ?? null,
    failedAt: row.failedAt?.toISOString() ?? null,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
  };
}

const refuseHash = (message: string) => new InvalidRequestError(message, { param: 'transactionHash' });

/**
 * pending -> failed with the token's named refusal of the refund's transfer, and `refund.failed` in
 * the same transaction (only the call that failed it records the event). The failed refund reserves
 * nothing: the merchant creates a new one when the cause is gone (`retry` says whether it can be).
 * Undefined when the refund was no longer pending.
 */
export async function failRefund(tx: Db, refund: repo.RefundRow, failure: { transactionHash: string; refusal: Refusal }): Promise<{ refund: repo.RefundRow; eventId: string } | undefined> {
  const failed = await repo.markFailed(tx, refund.id, { transactionHash: failure.transactionHash, code: failure.refusal.code, reason: failure.refusal.reason });
  if (!failed) return undefined;
  const event = await recordEvent(tx, {
    merchantId: failed.merchantId,
    livemode: failed.livemode,
    type: 'refund.failed',
    data: { object: renderRefund(failed), retry: retryOf(failure.refusal.code) },
  });
  return { refund: failed, eventId: event.id };
}

/**
 * The named refusal of a reverted transaction when it is exactly this refund's transfer (from the
 * payout wallet, to the token, the instructed calldata); undefined for any other transaction, which
 * stays a plain "reverted" error that changes nothing. The blacklisted side: the customer who is
 * refunded is the payer of the original payment, the sending payout address the merchant's.
 */
async function refusalOfRefundTransfer(client: PublicClient, refund: repo.RefundRow, receipt: TransactionReceipt): Promise<Refusal | undefined> {
  const sent = await client.getTransaction({ hash: receipt.transactionHash });
  const call = renderRefund(refund).instructions.call;
  const isRefundTransfer =
    isAddressEqual(sent.from, getAddress(refund.fromAddress)) && sent.to !== null && isAddressEqual(sent.to, getAddress(refund.token)) && sent.input.toLowerCase() === call.data.toLowerCase();
  if (!isRefundTransfer) return undefined;
  const refusal = await refusalOfMinedCall(client, { from: sent.from, to: sent.to!, data: sent.input, blockNumber: receipt.blockNumber }, fiatTokenAbi);
  if (!refusal) return undefined;
  return nameBlacklistedSide(client, getAddress(refund.token), getAddress(refund.toAddress), getAddress(refund.fromAddress), refusal, receipt.blockNumber);
}

export function createRefundService({ sql, chain, events }: { sql: Sql; chain: ChainConfig; events?: EventDispatcher }) {
    /** Records the token's refusal of the refund's transfer (pending -> failed, `refund.failed`); a repeat answers the refund as it is. */
  async function fail(refund: repo.RefundRow, transactionHash: Hex, refusal: Refusal): Promise<Refund> {
    const failed = await sql.begin((tx) => failRefund(tx, refund, { transactionHash, refusal }));
    if (failed) {
      await events?.dispatch([failed.eventId]);
      return renderRefund(failed.refund);
    }
    const now = (await repo.findRefund(sql, refund, refund.id))!;
    if (now.status === 'failed' && now.transactionHash === transactionHash) return renderRefund(now);
    throw new InvalidStateError(`The refund is ${now.status}; transaction ${transactionHash} reverted and changes nothing.`, { param: 'transactionHash' });
  }

  return {
    async create(scope: MerchantScope, input: CreateRefundBody): Promise<Refund> {
      const row = await sql.begin(async (tx) => {
        let sessionId = input.paymentSessionId;
        let invoiceId: string | null = null;
        if (input.invoiceId) {
          const invoice = await invoiceRepo.findInvoice(tx, scope, input.invoiceId);
          if (!invoice) throw new NotFoundError(`No such invoice: ${input.invoiceId}.`, { param: 'invoiceId' });
          sessionId = invoice.sessionId;
          invoiceId = invoice.id;
        }
        // The session row lock serialises refunds of one payment: the remaining amount is exact.
        const session = await sessionRepo.lockPaymentSession(tx, scope, sessionId!);
        if (!session) throw new NotFoundError(`No such payment session: ${sessionId}.`, { param: 'paymentSessionId' });
        invoiceId ??= session.invoiceId;
        // Paid in total: the payment (with any overpayment by transfer) and late deposits, which a
        // session that expired unpaid can hold too. The recipient: the relayed payment's payer, else
        // the sender of the latest deposit.
        const deposits = await depositRepo.refundableDeposits(tx, session.id);
        const completed = session.status === 'completed';
        const paid = (completed ? maxOf(BigInt(session.amount), BigInt(session.amountReceived)) : 0n) + deposits.lateTotal;
        const recipient = session.payer ?? deposits.lastSender;
        if (paid === 0n || !recipient) {
          throw new InvalidStateError(`Only a completed payment (or a late deposit) can be refunded; the payment session is ${session.status}.`, {
            param: input.invoiceId ? 'invoiceId' : 'paymentSessionId',
          });
        }
        const remaining = paid - (await repo.refundedAmount(tx, session.id));
        const amount = input.amount === undefined ? remaining : BigInt(input.amount);
        if (remaining <= 0n) throw new InvalidStateError('The payment is already fully refunded (or reserved by pending refunds).', { param: 'amount' });
        if (amount > remaining) {
          throw new InvalidRequestError(`amount ${amount} exceeds what remains refundable of this payment (${remaining}).`, { param: 'amount' });
        }
        return repo.insertRefund(tx, {
          id: newId('refund'),
          ...scope,
          paymentSessionId: session.id,
          invoiceId,
          amount: amount.toString(),
          currency: session.currency,
          reason: input.reason ?? null,
          chainId: Number(session.chainId),
          token: session.token,
          fromAddress: session.payTo,
          toAddress: getAddress(recipient),
        });
      });
      return renderRefund(row);
    },

    /** Verifies the refund transfer on-chain, then pending -> succeeded. */
    async recordTransaction(scope: MerchantScope, id: string, transactionHash: string): Promise<Refund> {
      const refund = await repo.findRefund(sql, scope, id);
      if (!refund) throw new NotFoundError(`No such refund: ${id}.`, { param: 'id' });
      const hash = transactionHash.toLowerCase() as Hex;
      if (refund.status === 'cancelled') {
        throw new InvalidStateError(
          'The refund was cancelled, so its amount is no longer reserved. If the transfer was sent anyway, create a new refund for the same amount and record this transaction on it.',
          { param: 'id' },
        );
      }
      if (refund.status === 'failed') {
        if (refund.transactionHash === hash) return renderRefund(refund);
        throw new InvalidStateError(`The refund failed (${refund.failureCode}): ${refund.failureReason} Create a new refund once the cause is gone.`, { param: 'id' });
      }
      if (refund.status === 'succeeded') {
        if (refund.transactionHash === hash) return renderRefund(refund);
        throw new InvalidStateError('The refund already succeeded with another transaction.', { param: 'transactionHash' });
      }
      const settings = chainFor(chain, scope.livemode);
      const client = publicClientFor(settings);
      const [receipt, latest] = await withSafeChainErrors(() =>
        Promise.all([client.getTransactionReceipt({ hash }).catch(() => undefined), client.getBlockNumber()]),
      );
      if (!receipt) throw refuseHash(`No mined transaction ${hash} was found on chain ${settings.chainId}.`);
      const confirmations = latest - receipt.blockNumber + 1n;
      if (receipt.status !== 'success') {
        const refusal = await withSafeChainErrors(() => refusalOfRefundTransfer(client, refund, receipt));
        if (!refusal) throw refuseHash(`Transaction ${hash} reverted; it transferred nothing.`);
        // Final like a success: a reorg could still bring the transfer back with another outcome.
        if (confirmations < BigInt(settings.confirmations)) {
          throw refuseHash(`Transaction ${hash} reverted (${refusal.code}) and has ${confirmations} of the ${settings.confirmations} confirmations required; retry shortly.`);
        }
        return fail(refund, hash, refusal);
      }
      if (confirmations < BigInt(settings.confirmations)) {
        throw refuseHash(`Transaction ${hash} has ${confirmations} of the ${settings.confirmations} confirmations required; retry shortly.`);
      }
      const matches = receipt.logs.some((log) => {
        if (!isAddressEqual(log.address, getAddress(refund.token))) return false;
        try {
          const event = decodeEventLog({ abi: fiatTokenAbi, data: log.data, topics: log.topics });
          if (event.eventName !== 'Transfer') return false;
          const args = event.args as { from: string; to: string; value: bigint };
          return isAddressEqual(getAddress(args.from), getAddress(refund.fromAddress)) && isAddressEqual(getAddress(args.to), getAddress(refund.toAddress)) && args.value === BigInt(refund.amount);
        } catch {
          return false;
        }
      });
      if (!matches) {
        throw refuseHash(
          `Transaction ${hash} does not transfer exactly ${refund.amount} of token ${refund.token} from ${refund.fromAddress} to ${refund.toAddress}.`,
        );
      }
      try {
        const updated = await repo.markSucceeded(sql, refund.id, hash);
        if (updated) return renderRefund(updated);
      } catch (error) {
        if (isUniqueViolation(error, 'refunds_transaction_hash')) throw refuseHash(`Transaction ${hash} is already recorded for another refund.`);
        throw error;
      }
      return renderRefund((await repo.findRefund(sql, scope, id))!);
    },

    /** pending -> cancelled, which releases the reserved amount. A succeeded or cancelled refund is final. */
    async cancel(scope: MerchantScope, id: string): Promise<Refund> {
      const refund = await repo.findRefund(sql, scope, id);
      if (!refund) throw new NotFoundError(`No such refund: ${id}.`, { param: 'id' });
      const cancelled = refund.status === 'pending' ? await repo.markCancelled(sql, refund.id) : undefined;
      if (cancelled) return renderRefund(cancelled);
      // Not pending (anymore: a concurrent /signature may have just succeeded it).
      const now = (await repo.findRefund(sql, scope, id))!;
      throw new InvalidStateError(`Only a pending refund can be cancelled; this refund is ${now.status}.`, { param: 'id' });
    },

    async get(scope: MerchantScope, id: string): Promise<Refund> {
      const row = await repo.findRefund(sql, scope, id);
      if (!row) throw new NotFoundError(`No such refund: ${id}.`, { param: 'id' });
      return renderRefund(row);
    },

    async list(scope: MerchantScope, query: RefundListQuery): Promise<Page<Refund>> {
      const rows = await repo.listRefunds(sql, scope, {
        ...createdRangeOf(query),
        status: query.status,
        q: query.q,
        before: decodeCursor(query.cursor),
        limit: query.limit,
      });
      return toPage(rows, query.limit, renderRefund);
    },
  };
}

export type RefundService = ReturnType<typeof createRefundService>;
