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
  status: RefundStatus;
  method: RefundMethod;
  chainId: string;
  token: string;
  fromAddress: string;
  toAddress: string;
  transactionHash: string | null;
  blockNumber: string | null;
  failureCode: string | null;
  failureReason: string | null;
  succeededAt: Date | null;
  cancelledAt: Date | null;
  failedAt: Date | null;
  /** A wallet refund's signed EIP-3009 transfer, which the relayer submits. */
  authorizationMessage: RefundAuthorization | null;
  authorizationSignature: string | null;
  createdAt: Date;
};

export type RefundAuthorization = { from: string; to: string; value: string; validAfter: string; validBefore: string; nonce: string };

export type RefundStatus = 'pending' | 'processing' | 'succeeded' | 'failed' | 'cancelled';
/** Who sends it: the operator from the refund allowance, or the merchant's wallet. */
export type RefundMethod = 'allowance' | 'wallet';

const columns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, payment_session_id as "paymentSessionId", invoice_id as "invoiceId",
     amount::text as amount, currency, reason, status, chain_id::text as "chainId", token, from_address as "fromAddress",
     to_address as "toAddress", transaction_hash as "transactionHash", succeeded_at as "succeededAt", cancelled_at as "cancelledAt",
     method, block_number::text as "blockNumber", failure_code as "failureCode", failure_reason as "failureReason", failed_at as "failedAt",
     authorization_message as "authorizationMessage", authorization_signature as "authorizationSignature", created_at as "createdAt"`;

/**
 * Serialises the allowance decisions of one payout wallet (chain and mode) until the transaction ends,
 * so refunds created at once never count the same allowance twice.
 */
export async function lockRefundAllowance(db: Db, chainId: number, livemode: boolean, payout: string): Promise<void> {
  await db`select pg_advisory_xact_lock(hashtextextended(${`refund-allowance:${chainId}:${livemode}:${payout.toLowerCase()}`}, 0))`;
}

/**
 * What the operator still has to take from a payout wallet's allowance: its allowance refunds being
 * processed whose transfer is not known to be mined (a mined one already lowered the allowance on chain;
 * one mined but not yet recorded is counted twice for a moment, which errs toward the wallet method).
 */
export async function allowanceInUse(db: Db, chainId: number, livemode: boolean, payout: string): Promise<bigint> {
  const [row] = await db<{ total: string }[]>`
    select coalesce(sum(r.amount), 0)::text as total from refunds r
    where r.chain_id = ${chainId} and r.livemode = ${livemode} and lower(r.from_address) = ${payout.toLowerCase()}
      and r.status = 'processing' and r.method = 'allowance'
      and not exists (select 1 from chain_transactions c where c.chain_id = r.chain_id and c.purpose = 'refund:' || r.id and c.outcome = 'success')`;
  return BigInt(row!.total);
}

export async function insertRefund(
  db: Db,
  r: Pick<RefundRow, 'id' | 'merchantId' | 'livemode' | 'paymentSessionId' | 'invoiceId' | 'amount' | 'currency' | 'reason' | 'method' | 'token' | 'fromAddress' | 'toAddress'> & {
    chainId: number;
  },
): Promise<RefundRow> {
  // An allowance refund is the operator's from the start: processing (it cannot be cancelled).
  const status: RefundStatus = r.method === 'allowance' ? 'processing' : 'pending';
  const [row] = await db<RefundRow[]>`
    insert into refunds (id, merchant_id, livemode, payment_session_id, invoice_id, amount, currency, reason, status, method, chain_id, token,
                         from_address, to_address)
    values (${r.id}, ${r.merchantId}, ${r.livemode}, ${r.paymentSessionId}, ${r.invoiceId}, ${r.amount}, ${r.currency}, ${r.reason},
            ${status}, ${r.method}, ${r.chainId}, ${r.token}, ${r.fromAddress}, ${r.toAddress})
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

/** The refund by id alone (the refund workflow's activities), locked when `forUpdate`. */
export async function findRefundById(db: Db, id: string, forUpdate = false): Promise<RefundRow | undefined> {
  const [row] = await db<RefundRow[]>`select ${columns(db)} from refunds where id = ${id} ${forUpdate ? db`for update` : db``}`;
  return row;
}

/** pending or processing -> succeeded with its verified transaction; undefined when it was neither. */
export async function markSucceeded(db: Db, id: string, transactionHash: string, blockNumber?: bigint): Promise<RefundRow | undefined> {
  const [row] = await db<RefundRow[]>`
    update refunds set status = 'succeeded', transaction_hash = ${transactionHash}, block_number = ${blockNumber?.toString() ?? null},
                       succeeded_at = now(), updated_at = now()
    where id = ${id} and status in ('pending', 'processing') returning ${columns(db)}`;
  return row;
}

/**
 * processing (the operator's or relayer's transfer) or pending (a wallet transfer the merchant recorded)
 * -> failed with the token's named refusal (or the revert); releases the amount it reserved.
 */
export async function markFailed(
  db: Db,
  id: string,
  failure: { code: string; reason: string; transactionHash?: string },
): Promise<RefundRow | undefined> {
  const [row] = await db<RefundRow[]>`
    update refunds set status = 'failed', failure_code = ${failure.code}, failure_reason = ${failure.reason},
                       transaction_hash = coalesce(${failure.transactionHash ?? null}, transaction_hash), failed_at = now(), updated_at = now()
    where id = ${id} and status in ('pending', 'processing') returning ${columns(db)}`;
  return row;
}

/** pending (wallet) -> processing with the payout wallet's signed EIP-3009 transfer; undefined when it was not pending. */
export async function attachAuthorization(db: Db, id: string, authorization: RefundAuthorization, signature: string): Promise<RefundRow | undefined> {
  const [row] = await db<RefundRow[]>`
    update refunds set status = 'processing', authorization_message = ${db.json(authorization)}, authorization_signature = ${signature}, updated_at = now()
    where id = ${id} and status = 'pending' and method = 'wallet' returning ${columns(db)}`;
  return row;
}

/** pending -> cancelled; undefined when the refund is no longer pending. */
export async function markCancelled(db: Db, id: string): Promise<RefundRow | undefined> {
  const [row] = await db<RefundRow[]>`
    update refunds set status = 'cancelled', cancelled_at = now(), updated_at = now()
    where id = ${id} and status = 'pending' returning ${columns(db)}`;
  return row;
}
