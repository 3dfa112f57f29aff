// SQL for relay submissions (their signed transactions are in the chain layer's ledger, src/chain/ledger-repo.ts).
import type { PendingQuery, Row } from 'postgres';
import type { Db } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';
import type { RelayCall } from './calls.js';
import type { RelayStatus } from './schemas.js';

export type SubmissionRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  idempotencyKey: string;
  kind: 'payment' | 'subscription';
  chainId: string;
  authorizationDigest: string;
  call: RelayCall;
  status: RelayStatus;
  transactionHash: string | null;
  blockNumber: string | null;
  blockHash: string | null;
  confirmations: number;
  failureCode: string | null;
  failureReason: string | null;
  /** The payment session this submission pays (relay payments made with paymentSessionId). */
  paymentSessionId: string | null;
  createdAt: Date;
  updatedAt: Date;
};

const columns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, idempotency_key as "idempotencyKey", kind, chain_id::text as "chainId",
     authorization_digest as "authorizationDigest", call, status, transaction_hash as "transactionHash",
     block_number::text as "blockNumber", block_hash as "blockHash", confirmations, failure_code as "failureCode",
     failure_reason as "failureReason", payment_session_id as "paymentSessionId", created_at as "createdAt", updated_at as "updatedAt"`;

export async function insertSubmission(
  db: Db,
  s: Pick<SubmissionRow, 'id' | 'merchantId' | 'livemode' | 'idempotencyKey' | 'kind' | 'authorizationDigest' | 'call'> & {
    chainId: number;
  },
): Promise<SubmissionRow> {
  const [row] = await db<SubmissionRow[]>`
    insert into relay_submissions (id, merchant_id, livemode, idempotency_key, kind, chain_id, authorization_digest, call, status)
    values (${s.id}, ${s.merchantId}, ${s.livemode}, ${s.idempotencyKey}, ${s.kind}, ${s.chainId}, ${s.authorizationDigest},
            ${db.json(s.call as never)}, 'pending')
    returning ${columns(db)}`;
  return row!;
}

export async function findSubmissionByKey(db: Db, scope: MerchantScope, key: string): Promise<SubmissionRow | undefined> {
  const [row] = await db<SubmissionRow[]>`
    select ${columns(db)} from relay_submissions
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and idempotency_key = ${key}`;
  return row;
}

/** In one round trip: the submission under this Idempotency-Key, and the one of this authorization (either may be absent). */
export async function findSubmissionsByKeyOrDigest(
  db: Db,
  scope: MerchantScope,
  key: string,
  digest: string,
): Promise<{ byKey?: SubmissionRow; byDigest?: SubmissionRow }> {
  const rows = await db<SubmissionRow[]>`
    select ${columns(db)} from relay_submissions
    where (merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and idempotency_key = ${key})
       or authorization_digest = ${digest}`;
  const byKey = rows.find((r) => r.merchantId === scope.merchantId && r.livemode === scope.livemode && r.idempotencyKey === key);
  const byDigest = rows.find((r) => r.authorizationDigest === digest);
  return { ...(byKey ? { byKey } : {}), ...(byDigest ? { byDigest } : {}) };
}

export async function findSubmission(db: Db, id: string): Promise<SubmissionRow | undefined> {
  const [row] = await db<SubmissionRow[]>`select ${columns(db)} from relay_submissions where id = ${id}`;
  return row;
}

/** Open submissions nothing has touched for a while (their workflow start may have been lost). */
export async function findStaleOpenSubmissions(db: Db, olderThanSeconds: number, limit: number): Promise<SubmissionRow[]> {
  return db<SubmissionRow[]>`
    select ${columns(db)} from relay_submissions
    where status in ('pending', 'submitted') and updated_at <= now() - make_interval(secs => ${olderThanSeconds})
    order by updated_at limit ${limit}`;
}

/** True when this call failed it (a retry finds it failed already and changes nothing). */
export async function markFailed(db: Db, id: string, failure: { code: string; reason: string }): Promise<boolean> {
  const result = await db`
    update relay_submissions set status = 'failed', failure_code = ${failure.code}, failure_reason = ${failure.reason}, updated_at = now()
    where id = ${id} and status in ('pending', 'submitted')`;
  return result.count > 0;
}

export async function markSubmitted(db: Db, id: string, transactionHash: string): Promise<void> {
  await db`
    update relay_submissions set status = 'submitted', transaction_hash = ${transactionHash}, updated_at = now()
    where id = ${id} and status in ('pending', 'submitted')`;
}

export async function recordInclusion(
  db: Db,
  id: string,
  inclusion: { transactionHash: string; blockNumber: bigint; blockHash: string; confirmations: number; confirmed: boolean },
): Promise<void> {
  await db`
    update relay_submissions set
      transaction_hash = ${inclusion.transactionHash}, block_number = ${inclusion.blockNumber.toString()},
      block_hash = ${inclusion.blockHash}, confirmations = ${inclusion.confirmations},
      status = ${inclusion.confirmed ? 'confirmed' : 'submitted'}, updated_at = now()
    where id = ${id} and status in ('pending', 'submitted')`;
}

/**
 * A confirmed inclusion and its ledger row's outcome (`ledger.outcomeUpdate`) in one statement: as
 * atomic as a transaction, in one round trip instead of four (every relayed submission ends here).
 */
export async function recordConfirmedInclusion(
  db: Db,
  id: string,
  inclusion: { transactionHash: string; blockNumber: bigint; blockHash: string; confirmations: number },
  ledgerOutcome: PendingQuery<Row[]>,
): Promise<void> {
  await db`
    with ledger_outcome as (${ledgerOutcome})
    update relay_submissions set
      transaction_hash = ${inclusion.transactionHash}, block_number = ${inclusion.blockNumber.toString()},
      block_hash = ${inclusion.blockHash}, confirmations = ${inclusion.confirmations},
      status = 'confirmed', updated_at = now()
    where id = ${id} and status in ('pending', 'submitted')`;
}

export async function recordFailedInclusion(
  db: Db,
  id: string,
  inclusion: { transactionHash: string; blockNumber: bigint; blockHash: string; code: string; reason: string },
): Promise<boolean> {
  const result = await db`
    update relay_submissions set
      transaction_hash = ${inclusion.transactionHash}, block_number = ${inclusion.blockNumber.toString()},
      block_hash = ${inclusion.blockHash}, status = 'failed', failure_code = ${inclusion.code},
      failure_reason = ${inclusion.reason}, updated_at = now()
    where id = ${id} and status in ('pending', 'submitted')`;
  return result.count > 0;
}

/** A replacement of the submission's transaction (same nonce, higher fee) is the hash it answers with now. */
export async function setSubmissionTransactionHash(db: Db, id: string, transactionHash: string): Promise<void> {
  await db`update relay_submissions set transaction_hash = ${transactionHash}, updated_at = now() where id = ${id}`;
}

/** The payment session a submission pays (relay payments made with paymentSessionId), with its outcome. */
export async function findSubmissionPaymentSession(
  db: Db,
  submissionId: string,
): Promise<{ paymentSessionId: string; status: SubmissionRow['status']; transactionHash: string | null } | undefined> {
  const [row] = await db<{ paymentSessionId: string; status: SubmissionRow['status']; transactionHash: string | null }[]>`
    select payment_session_id as "paymentSessionId", status, transaction_hash as "transactionHash"
    from relay_submissions where id = ${submissionId} and payment_session_id is not null`;
  return row;
}

export async function setSubmissionPaymentSession(db: Db, submissionId: string, paymentSessionId: string): Promise<void> {
  await db`update relay_submissions set payment_session_id = ${paymentSessionId} where id = ${submissionId}`;
}
