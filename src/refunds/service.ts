// Refunds of completed payments. The service never holds the merchant's keys:
// POST /v1/refunds reserves the amount and returns the exact ERC-20 transfer
// for the merchant's wallet; POST /v1/refunds/{id}/signature takes the mined
// transaction's hash and marks the refund succeeded only after verifying the
// transfer on-chain; POST /v1/refunds/{id}/cancel releases a pending one.
import { decodeEventLog, encodeFunctionData, getAddress, isAddressEqual, type Hex } from 'viem';
import { fiatTokenAbi } from '../chain/fiat-token-abi.js';
import { chainFor, type ChainConfig } from '../chain/config.js';
import { publicClientFor, withSafeChainErrors } from '../chain/clients.js';
import { isUniqueViolation, type Sql } from '../db/client.js';
import { InvalidRequestError, InvalidStateError, NotFoundError } from '../errors.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type ListQuery, type Page } from '../http/pagination.js';
import { newId } from '../ids.js';
import * as invoiceRepo from '../invoices/repo.js';
import * as sessionRepo from '../payment-sessions/repo.js';
import * as depositRepo from '../payment-sessions/deposits-repo.js';

const maxOf = (a: bigint, b: bigint) => (a > b ? a : b);
import * as repo from './repo.js';
import type { CreateRefundBody, Refund } from './schemas.js';

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
    succeededAt: row.succeededAt?.toISOString() ?? null,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
  };
}

const refuseHash = (message: string) => new InvalidRequestError(message, { param: 'transactionHash' });

export function createRefundService({ sql, chain }: { sql: Sql; chain: ChainConfig }) {
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

    async list(scope: MerchantScope, query: ListQuery): Promise<Page<Refund>> {
      const rows = await repo.listRefunds(sql, scope, { before: decodeCursor(query.cursor), limit: query.limit });
      return toPage(rows, query.limit, renderRefund);
    },
  };
}

export type RefundService = ReturnType<typeof createRefundService>;
