// SQL for refunds.
import type { Db } from '../db/client.js';
import { createdRangeSql, type CreatedRange } from '../http/list-filters.js';
import type { MerchantScope } from '../http/principal.js';
import { metadataSql } from '../http/metadata.js';

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
  /** The recipient; null while the refund waits for the customer's claim (`requires_action`). */
  toAddress: string | null;
  recipientSource: RecipientSource | null;
  /** The late deposit it returns to its own sender, if created for one. */
  depositId: string | null;
  /** The capability of the hosted refund-claim page, for a refund the customer names the address of. */
  claimToken: string | null;
  claimedAt: Date | null;
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
  metadata: Record<string, string>;
  createdAt: Date;
};

export type RefundAuthorization = { from: string; to: string; value: string; validAfter: string; validBefore: string; nonce: string };

export type RefundStatus = 'requires_action' | 'pending' | 'processing' | 'succeeded' | 'failed' | 'cancelled';
export type RecipientSource = 'payer_signer' | 'deposit_sender' | 'merchant_specified' | 'customer_claimed';
/** Who sends it: the operator from the refund allowance, or the merchant's wallet. */
export type RefundMethod = 'allowance' | 'wallet';

const columns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, payment_session_id as "paymentSessionId", invoice_id as "invoiceId",
     amount::text as amount, currency, reason, status, chain_id::text as "chainId", token, from_address as "fromAddress",
     to_address as "toAddress", transaction_hash as "transactionHash", succeeded_at as "succeededAt", cancelled_at as "cancelledAt",
     method, block_number::text as "blockNumber", failure_code as "failureCode", failure_reason as "failureReason", failed_at as "failedAt",
     authorization_message as "authorizationMessage", authorization_signature as "authorizationSignature", created_at as "createdAt",
     recipient_source as "recipientSource", deposit_id as "depositId", claim_token as "claimToken", claimed_at as "claimedAt", metadata`;

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
  r: Pick<
    RefundRow,
    | 'id'
    | 'merchantId'
    | 'livemode'
    | 'paymentSessionId'
    | 'invoiceId'
    | 'amount'
    | 'currency'
    | 'reason'
    | 'method'
    | 'token'
    | 'fromAddress'
    | 'toAddress'
    | 'metadata'
  > & { chainId: number; recipientSource: RecipientSource | null; depositId: string | null; claimToken: string | null },
): Promise<RefundRow> {
  // Without a recipient it waits for the customer's claim; an allowance refund is the operator's from the start:
  // processing (it cannot be cancelled); else it waits for the merchant wallet.
  const status: RefundStatus = r.toAddress === null ? 'requires_action' : r.method === 'allowance' ? 'processing' : 'pending';
  const [row] = await db<RefundRow[]>`
    insert into refunds (id, merchant_id, livemode, payment_session_id, invoice_id, amount, currency, reason, status, method, chain_id, token,
                         from_address, to_address, recipient_source, deposit_id, claim_token, metadata)
    values (${r.id}, ${r.merchantId}, ${r.livemode}, ${r.paymentSessionId}, ${r.invoiceId}, ${r.amount}, ${r.currency}, ${r.reason},
            ${status}, ${r.method}, ${r.chainId}, ${r.token}, ${r.fromAddress}, ${r.toAddress}, ${r.recipientSource}, ${r.depositId}, ${r.claimToken},
            ${db.json(r.metadata)})
    returning ${columns(db)}`;
  return row!;
}

/** The distinct senders (lowercase) of a session's deposits in one status: `credited` paid it, `late` came after. */
export async function depositSendersOf(db: Db, sessionId: string, status: 'credited' | 'late'): Promise<string[]> {
  const rows = await db<{ sender: string }[]>`
    select distinct lower(from_address) as sender from deposits where payment_session_id = ${sessionId} and status = ${status} order by 1`;
  return rows.map((r) => r.sender);
}

/** A late deposit of the session, with what its refunds (not failed or cancelled) already take of it. */
export async function findLateDeposit(
  db: Db,
  sessionId: string,
  depositId: string,
): Promise<{ fromAddress: string; amount: string; reserved: string; chainId: string; payoutAddress: string } | undefined> {
  const [row] = await db<{ fromAddress: string; amount: string; reserved: string; chainId: string; payoutAddress: string }[]>`
    select d.from_address as "fromAddress", d.amount::text as amount, d.chain_id::text as "chainId",
           d.payout_address as "payoutAddress",
           (select coalesce(sum(r.amount), 0)::text from refunds r
            where r.deposit_id = d.id and r.status in ('requires_action', 'pending', 'processing', 'succeeded')) as reserved
    from deposits d where d.id = ${depositId} and d.payment_session_id = ${sessionId} and d.status = 'late'`;
  return row;
}

/** The refund whose claim link carries `token`, locked when `forUpdate`. */
export async function findRefundByClaimToken(db: Db, token: string, forUpdate = false): Promise<RefundRow | undefined> {
  const [row] = await db<RefundRow[]>`select ${columns(db)} from refunds where claim_token = ${token} ${forUpdate ? db`for update` : db``}`;
  return row;
}

/**
 * requires_action -> pending or processing (by `method`) with the address the customer gave; undefined
 * when the refund no longer waits for a claim (a second claim changes nothing).
 */
export async function recordClaim(db: Db, id: string, toAddress: string, method: RefundMethod): Promise<RefundRow | undefined> {
  const status: RefundStatus = method === 'allowance' ? 'processing' : 'pending';
  const [row] = await db<RefundRow[]>`
    update refunds set to_address = ${toAddress}, recipient_source = 'customer_claimed', method = ${method}, status = ${status},
                       claimed_at = now(), updated_at = now()
    where id = ${id} and status = 'requires_action' returning ${columns(db)}`;
  return row;
}

/**
 * The payout wallet's refunds still waiting for its own transfer (pending, method wallet, nothing
 * signed), oldest first and locked: the ones a newly granted allowance may carry on.
 */
export async function refundsAwaitingAllowance(db: Db, scope: MerchantScope, chainId: number, payout: string): Promise<RefundRow[]> {
  return db<RefundRow[]>`
    select ${columns(db)} from refunds
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and chain_id = ${chainId} and lower(from_address) = ${payout.toLowerCase()}
      and status = 'pending' and method = 'wallet' and authorization_message is null
    order by id for update skip locked`;
}

/** pending (wallet, nothing signed) -> processing (allowance): the operator sends it now; undefined when it was not waiting. */
export async function moveToAllowance(db: Db, id: string): Promise<RefundRow | undefined> {
  const [row] = await db<RefundRow[]>`
    update refunds set method = 'allowance', status = 'processing', updated_at = now()
    where id = ${id} and status = 'pending' and method = 'wallet' and authorization_message is null returning ${columns(db)}`;
  return row;
}

export async function findRefund(db: Db, scope: MerchantScope, id: string): Promise<RefundRow | undefined> {
  const [row] = await db<RefundRow[]>`
    select ${columns(db)} from refunds where id = ${id} and merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}`;
  return row;
}

export async function listRefunds(
  db: Db,
  scope: MerchantScope,
  page: CreatedRange & {
    before?: string;
    limit: number;
    status?: RefundRow['status'];
    q?: string;
    chainId?: number;
    metadata?: Record<string, string>;
  },
): Promise<RefundRow[]> {
  return db<RefundRow[]>`
    select ${columns(db)} from refunds
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}
      ${page.status ? db`and status = ${page.status}` : db``}
      ${page.chainId === undefined ? db`` : db`and chain_id = ${page.chainId}`}
      ${metadataSql(db, 'metadata', page.metadata)}
      ${createdRangeSql(db, 'created_at', page)}
      ${
        page.q
          ? db`and (id = ${page.q} or payment_session_id = ${page.q} or lower(to_address) = ${page.q.toLowerCase()}
        or transaction_hash = ${page.q})`
          : db``
      }
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
export async function attachAuthorization(
  db: Db,
  id: string,
  authorization: RefundAuthorization,
  signature: string,
): Promise<RefundRow | undefined> {
  const [row] = await db<RefundRow[]>`
    update refunds set status = 'processing', authorization_message = ${db.json(authorization)}, authorization_signature = ${signature}, updated_at = now()
    where id = ${id} and status = 'pending' and method = 'wallet' returning ${columns(db)}`;
  return row;
}

/** pending or requires_action -> cancelled; undefined when the refund is neither anymore. */
export async function markCancelled(db: Db, id: string): Promise<RefundRow | undefined> {
  const [row] = await db<RefundRow[]>`
    update refunds set status = 'cancelled', cancelled_at = now(), updated_at = now()
    where id = ${id} and status in ('pending', 'requires_action') returning ${columns(db)}`;
  return row;
}
