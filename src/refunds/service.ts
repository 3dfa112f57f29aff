// Refunds of completed payments. The service never holds the merchant's keys.
// POST /v1/refunds reserves the amount under the session's row lock. When the
// payout wallet's refund allowance for the operator covers it (beside what the
// operator's refunds in progress already take from it), the refund is the
// operator's (`allowance`, processing): its workflow sends transferFrom and it
// completes by itself. Otherwise it is the merchant wallet's (`wallet`,
// pending) with the exact ERC-20 transfer to send; POST /v1/refunds/{id}/signature
// takes the mined transaction's hash and marks the refund succeeded only after
// verifying the transfer on-chain; POST /v1/refunds/{id}/cancel releases a pending one.
import type { Client } from '@temporalio/client';
import { decodeEventLog, getAddress, isAddressEqual, type Hex } from 'viem';
import { fiatTokenAbi } from '../chain/fiat-token-abi.js';
import { chainFor, type ChainConfig } from '../chain/config.js';
import { publicClientFor, withSafeChainErrors } from '../chain/clients.js';
import { isUniqueViolation, type Db, type Sql } from '../db/client.js';
import { InvalidRequestError, InvalidStateError, NotFoundError } from '../errors.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type ListQuery, type Page } from '../http/pagination.js';
import { newId } from '../ids.js';
import * as invoiceRepo from '../invoices/repo.js';
import * as sessionRepo from '../payment-sessions/repo.js';
import * as depositRepo from '../payment-sessions/deposits-repo.js';
import { commitWithEvents } from '../events/commit.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { createWorkflowStarter, queueWorkflowStart, type QueuedWorkflowStart } from '../temporal/start-outbox.js';
import { readRefundAllowance, refundOperatorOf } from './allowance.js';
import { recordRefundEvent } from './events.js';
import { renderRefund } from './render.js';
import * as repo from './repo.js';
import type { CreateRefundBody, Refund } from './schemas.js';
import { refundWorkflowStart } from './starts.js';

const maxOf = (a: bigint, b: bigint) => (a > b ? a : b);

export { renderRefund } from './render.js';

const refuseHash = (message: string) => new InvalidRequestError(message, { param: 'transactionHash' });

export type RefundServiceDeps = {
  sql: Sql;
  chain: ChainConfig;
  events: EventDispatcher;
  temporal?: Client;
  taskQueue: string;
  onStartError?: (error: unknown, start: QueuedWorkflowStart) => void;
};

export function createRefundService({ sql, chain, events, temporal, taskQueue, onStartError }: RefundServiceDeps) {
  const starter = createWorkflowStarter(temporal, sql, onStartError ?? (() => {}));

  /**
   * `allowance` when the payout wallet's refund allowance covers `amount` beyond what the operator's
   * refunds in progress take from it (read under a lock per payout wallet, so concurrent refunds
   * never count the same allowance twice), else `wallet`.
   */
  async function methodFor(tx: Db, livemode: boolean, payout: string, amount: bigint): Promise<repo.RefundMethod> {
    const settings = chainFor(chain, livemode);
    const operator = refundOperatorOf(settings);
    if (!operator) return 'wallet';
    await repo.lockRefundAllowance(tx, settings.chainId, livemode, payout);
    const [reading, inUse] = await Promise.all([
      readRefundAllowance(settings, getAddress(payout), operator),
      repo.allowanceInUse(tx, settings.chainId, livemode, payout),
    ]);
    return reading.allowance - inUse >= amount ? 'allowance' : 'wallet';
  }

  return {
    async create(scope: MerchantScope, input: CreateRefundBody): Promise<Refund> {
      const { row, starts } = await commitWithEvents(sql, events, async (tx, record) => {
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
        const method = await methodFor(tx, scope.livemode, session.payTo, amount);
        const row = await repo.insertRefund(tx, {
          id: newId('refund'),
          ...scope,
          paymentSessionId: session.id,
          invoiceId,
          amount: amount.toString(),
          currency: session.currency,
          reason: input.reason ?? null,
          method,
          chainId: Number(session.chainId),
          token: session.token,
          fromAddress: session.payTo,
          toAddress: getAddress(recipient),
        });
        await recordRefundEvent(record, 'refund.created', row);
        const starts = method === 'allowance' ? [await queueWorkflowStart(tx, refundWorkflowStart(taskQueue, row))] : [];
        return { row, starts };
      });
      await starter.startAfterCommit(starts);
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
      if (refund.method === 'allowance') {
        throw new InvalidStateError('The operator sends this refund from the refund allowance; there is no transaction of yours to record.', { param: 'id' });
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
      if (receipt.status !== 'success') throw refuseHash(`Transaction ${hash} reverted; it transferred nothing.`);
      const confirmations = latest - receipt.blockNumber + 1n;
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
        const updated = await commitWithEvents(sql, events, async (tx, record) => {
          const done = await repo.markSucceeded(tx, refund.id, hash, receipt.blockNumber);
          if (done) await recordRefundEvent(record, 'refund.succeeded', done);
          return done;
        });
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

    async list(scope: MerchantScope, query: ListQuery): Promise<Page<Refund>> {
      const rows = await repo.listRefunds(sql, scope, { before: decodeCursor(query.cursor), limit: query.limit });
      return toPage(rows, query.limit, renderRefund);
    },
  };
}

export type RefundService = ReturnType<typeof createRefundService>;
