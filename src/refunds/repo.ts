// SQL for refunds.
import type { Db } from '../db/client.js';
import { createdRangeSql, lowerPrefixPattern, type CreatedRange } from '../http/list-filters.js';
import type { MerchantScope } from '../http/principal.js';

export type RefundRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  paymentSessionId: string;
  invoiceId: string | null;
  amount: string;
  currency: string;
  reason: string | null;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  chainId: string;
  token: string;
  fromAddress: string;
  toAddress: string;
  transactionHash: string | null;
  succeededAt: Date | null;
  cancelledAt: Date | null;
  failureCode: string | null;
  failureReason: string | null;
  failedAt: Date | null;
  createdAt: Date;
};

const columns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, payment_session_id as "paymentSessionId", invoice_id as "invoiceId",
     amount::text as amount, currency, reason, status, chain_id::text as "chainId", token, from_address as "fromAddress",
     to_address as "toAddress", transaction_hash as "transactionHash", succeeded_at as "succeededAt", cancelled_at as "cancelledAt",
     failure_code as "failureCode", failure_reason as "failureReason", failed_at as "failedAt", created_at as "createdAt"`;

/** What is already refunded or reserved (pending) of a session's payment; a cancelled refund reserves nothing. */
export async function refundedAmount(db: Db, paymentSessionId: string): Promise<bigint> {
  const [row] = await db<{ total: string }[]>`
    select coalesce(sum(amount), 0)::text as total from refunds where payment_session_id = ${paymentSessionId} and status in ('pending', 'succeeded')`;
  return BigInt(row!.total);
}

export async function insertRefund(
  db: Db,
  r: Omit<RefundRow, 'status' | 'transactionHash' | 'succeededAt' | 'cancelledAt' | 'failureCode' | 'failureReason' | 'failedAt' | 'createdAt' | 'chainId'> & {
    chainId: number;
  },
): Promise<RefundRow> {
  const [row] = await db<RefundRow[]>`
    insert into refunds (id, merchant_id, livemode, payment_session_id, invoice_id, amount, currency, reason, status, chain_id, token,
                         from_address, to_address)
    values (${r.id}, ${r.merchantId}, ${r.livemode}, ${r.paymentSessionId}, ${r.invoiceId}, ${r.amount}, ${r.currency}, ${r.reason},
            'pending', ${r.chainId}, ${r.token}, ${r.fromAddress}, ${r.toAddress})
    returning ${columns(db)}`;
  return row!;
}

export async function findRefund(db: Db, scope: MerchantScope, id: string): Promise<RefundRow | undefined> {
  const [row] = await db<RefundRow[]>`
    select ${columns(db)} from refunds where id = ${id} and merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}`;
  return row;
}

export async function listRefunds(
  db: Db,
  scope: MerchantScope,
  page: CreatedRange & { before?: string; limit: number; status?: RefundRow['status']; q?: string },
): Promise<RefundRow[]> {
  return db<RefundRow[]>`
    select ${columns(db)} from refunds
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}
      ${page.status ? db`and status = ${page.status}` : db``}
      ${createdRangeSql(db, 'created_at', page)}
      ${page.q ? db`and (id = ${page.q} or payment_session_id = ${page.q} or lower(to_address) = ${page.q.toLowerCase()}
        or transaction_hash = ${page.q})` : db``}
      ${page.before ? db`and id < ${page.before}` : db``}
    order by id desc limit ${page.limit + 1}`;
}

/** pending -> succeeded with its verified transaction; undefined when it was not pending. */
export async function markSucceeded(db: Db, id: string, transactionHash: string): Promise<RefundRow | undefined> {
  const [row] = await db<RefundRow[]>`
    update refunds set status = 'succeeded', transaction_hash = ${transactionHash}, succeeded_at = now(), updated_at = now()
    where id = ${id} and status = 'pending' returning ${columns(db)}`;
  return row;
}

/** pending -> cancelled; undefined when the refund is no longer pending. */
export async function markCancelled(db: Db, id: string): Promise<RefundRow | undefined> {
  const [row] = await db<RefundRow[]>`
    update refunds set status = 'cancelled', cancelled_at = now(), updated_at = now()
    where id = ${id} and status = 'pending' returning ${columns(db)}`;
  return row;
}

/**
 * pending -> failed with the token's named refusal of its transfer (which releases what it reserved);
 * undefined when it was not pending (a concurrent call decided it first).
 */
export async function markFailed(db: Db, id: string, failure: { transactionHash: string; code: string; reason: string }): Promise<RefundRow | undefined> {
  const [row] = await db<RefundRow[]>`
    update refunds set status = 'failed', transaction_hash = ${failure.transactionHash}, failure_code = ${failure.code},
           failure_reason = ${failure.reason}, failed_at = now(), updated_at = now()
    where id = ${id} and status = 'pending' returning ${columns(db)}`;
  return row;
}
