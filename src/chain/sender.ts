// The one transaction sender of the platform's accounts (the relayer, the
// subscription operator). Every transaction goes through the Postgres ledger
// (ledger-repo.ts): its nonce is allocated under the account's relayer_accounts
// row lock, and it is signed and recorded under its purpose in that database
// transaction, before it is sent. So any number of worker processes can share a
// key, a retry re-sends the recorded bytes instead of signing another
// transaction, and a process killed between recording and sending loses
// nothing: its retry, or any sender stuck behind the unsent nonce, sends it.
//
// Concurrent sends of one account in a process share one lock acquisition
// (group commit, at most 64 per batch): one nonce range, one fee estimate, and
// the inserts (with the callers' own bookkeeping statements) pipelined on the
// transaction's connection. A batch that never settles (a client fault) fails its
// callers after BATCH_STALL_MS instead of holding every later send of the account.
//
// Never inside a caller's transaction, so the record commits before the bytes are sent, the account's
// row lock is held only while the batch records, and a request that rolls back never leaves a sent
// transaction without its ledger row (nor a business row for a transaction never sent). Two guards:
// by type, the sender takes the pool (`PoolSql`), which a transaction or a reserved connection does
// not satisfy; at run time, a send, look or settle inside a request whose Idempotency-Key transaction
// is open (src/db/request-transaction.ts: writes not yet committed) is refused with
// `SendInsideTransactionError`. A route that sends opens no request transaction
// (`commitsBeforeResponse`, src/plugins/idempotency.ts); every other send runs in a workflow activity,
// started after the commit. Waiting for a receipt never holds a database transaction.
//
// Following: `look` takes one look at a recorded transaction (mined under any of
// its hashes, its nonce taken by another transaction, or still waiting: then it
// re-sends it, fills the lower nonces the node lacks (fillNonceGap), or replaces
// it with a higher fee once it has waited `stuckAfterMs`). `settle`
// waits through the shared receipt waiter and looks when the wait runs out.
import {
  type Address,
  type Hash,
  type Hex,
  type LocalAccount,
  type PublicClient,
  type TransactionReceipt,
  WaitForTransactionReceiptTimeoutError,
  keccak256,
  parseTransaction,
} from 'viem';
import type { Db, PoolSql, Sql } from '../db/client.js';
import { insideOpenRequestTransaction } from '../db/request-transaction.js';
import * as ledger from './ledger-repo.js';
import type { ReceiptWaiter } from './receipts.js';
import { broadcast, replacementFees } from './sending.js';

export type TransactionRow = ledger.TransactionRow;

/** A call to send under a purpose: at most one open or successful transaction per purpose and chain. */
export type OutgoingCall = { purpose: string; to: Address; data: Hex; gas: bigint };

export type SendOptions = {
  /**
   * Whether a purpose whose transaction reverted or was dropped gets a new one (default true, e.g. a
   * charge retried after a top-up). False: the purpose only ever has one transaction (a relay
   * submission), and its recorded one is returned whatever its outcome.
   */
  again?: boolean;
  /**
   * Statements of the caller's own to run in the recording database transaction (pipelined with the
   * inserts), once, when this call's transaction is recorded.
   */
  onRecord?: (tx: Db, recorded: { purpose: string; nonce: bigint; transactionHash: Hex }) => Promise<unknown>;
};

/** What one look at a recorded transaction found. `row` is the current record (a replacement changes it). */
export type Seen =
  | { kind: 'mined'; receipt: TransactionReceipt; row: TransactionRow }
  | { kind: 'dropped'; row: TransactionRow }
  | { kind: 'waiting'; row: TransactionRow };

export type Settled = { outcome: 'success' | 'reverted'; receipt: TransactionReceipt } | { outcome: 'dropped' };

/** How many times a transaction whose nonce is used is looked for before it counts as dropped. */
const DROP_CHECKS = 3;

export type TransactionSender = {
  address: Address;
  chainId: number;
  /** Records (group commit) and sends the call; if the purpose already has its transaction, re-sends that one while open. */
  send(call: OutgoingCall, options?: SendOptions): Promise<TransactionRow>;
  /** One look at a recorded transaction; see the module comment. */
  look(row: TransactionRow, options: { stuckAfterMs: number; recheckDelayMs?: number }): Promise<Seen>;
  /** Follows a transaction until it is mined (or its nonce went elsewhere), replacing it when stuck; records how it ended. */
  settle(row: TransactionRow, options: { receipts: ReceiptWaiter; stuckAfterMs: number }): Promise<Settled>;
};

/** A send to the chain was asked for while the request's transaction held uncommitted writes. */
export class SendInsideTransactionError extends Error {
  constructor() {
    super('A send to the chain may not run inside an open request transaction: send before the writes or after the commit.');
    this.name = 'SendInsideTransactionError';
  }
}

/** Runs a sender operation; refuses inside a request whose transaction is open (it may hold uncommitted writes). */
function outsideTransactions<T>(operation: () => Promise<T>): Promise<T> {
  if (insideOpenRequestTransaction()) return Promise.reject(new SendInsideTransactionError());
  return operation();
}

export function createTransactionSender(deps: {
  /** The pool, never a transaction (see the module comment). */
  sql: PoolSql;
  client: PublicClient;
  account: LocalAccount;
  chainId: number;
  /** How long a batch may stay unsettled before its callers get an error (BATCH_STALL_MS). */
  batchStallMs?: number;
}): TransactionSender {
  const { sql, client, account, chainId } = deps;
  const sending: SendingAccount = { sql, client, account, chainId, batchStallMs: deps.batchStallMs ?? BATCH_STALL_MS };

  async function send(call: OutgoingCall, options: SendOptions = {}): Promise<TransactionRow> {
    const row = await recordInBatch(sending, call, options);
    if (row.outcome === null) await broadcast(client, row.rawTransaction as Hex);
    return row;
  }

  /** Whether the node holds any of the hashes, mined or waiting in its pool. */
  async function knowsAny(hashes: readonly string[]): Promise<boolean> {
    const found = await Promise.all(hashes.map((hash) => client.getTransaction({ hash: hash as Hash }).catch(() => undefined)));
    return found.some((transaction) => transaction !== undefined);
  }

  async function receiptOfAny(hashes: readonly string[]): Promise<TransactionReceipt | undefined> {
    const found = await Promise.all(hashes.map((hash) => client.getTransactionReceipt({ hash: hash as Hash }).catch(() => undefined)));
    return found.find((receipt) => receipt !== undefined);
  }

  /** Re-signs the transaction with the same nonce and fees raised by at least 25%; recorded before it is sent. */
  async function replace(row: TransactionRow): Promise<TransactionRow> {
    const old = { maxFeePerGas: BigInt(row.maxFeePerGas), maxPriorityFeePerGas: BigInt(row.maxPriorityFeePerGas) };
    const fees = replacementFees(old, await client.estimateFeesPerGas());
    const recorded = parseTransaction(row.rawTransaction as Hex);
    if (!recorded.to) throw new Error(`recorded transaction ${row.id} (${row.purpose}) has no target`);
    const raw = await account.signTransaction({
      type: 'eip1559',
      chainId,
      to: recorded.to,
      data: recorded.data ?? '0x',
      nonce: Number(row.nonce),
      gas: BigInt(row.gas),
      ...fees,
    });
    const replaced = await ledger.recordReplacement(sql, row.id, { rawTransaction: raw, transactionHash: keccak256(raw), ...fees });
    await broadcast(client, raw);
    return replaced;
  }

  /**
   * Makes the node hold a transaction for every nonce in [from, below). A sender that died between
   * recording and sending left an open one, and a reorg can take a mined one out (the node does not
   * put it back in its pool): their recorded bytes are sent again, which is what the ledger already
   * says happened. A nonce whose transaction the ledger calls reverted or dropped may have had its
   * purpose sent again under a later nonce, so its bytes are never re-sent (a refund would pay twice):
   * the nonce is filled with a transfer of nothing to ourselves. So one lost nonce never holds every
   * later transaction of the account.
   */
  async function fillNonceGap(from: bigint, below: bigint): Promise<void> {
    const recorded = await ledger.findBetween(sql, { chainId, address: account.address }, from, below);
    for (let nonce = from; nonce < below && nonce < from + 50n; nonce++) {
      const ofNonce = recorded.filter((r) => BigInt(r.nonce) === nonce);
      const resend = ofNonce.find((r) => r.outcome === null || r.outcome === 'success');
      if (resend) await broadcast(client, resend.rawTransaction as Hex);
      else await broadcast(client, await signNothing(nonce));
    }
  }

  /** A transfer of 0 to ourselves at `nonce`: uses the nonce and does nothing else. */
  async function signNothing(nonce: bigint): Promise<Hex> {
    const fees = await client.estimateFeesPerGas();
    return account.signTransaction({
      type: 'eip1559',
      chainId,
      to: account.address,
      value: 0n,
      data: '0x',
      nonce: Number(nonce),
      gas: 21_000n,
      ...fees,
    });
  }

  async function look(
    row: TransactionRow,
    { stuckAfterMs, recheckDelayMs = 1000 }: { stuckAfterMs: number; recheckDelayMs?: number },
  ): Promise<Seen> {
    // Any fee level of the nonce may have been mined.
    const mined = await receiptOfAny(row.allHashes);
    if (mined) return { kind: 'mined', receipt: mined, row };
    const used = BigInt(await client.getTransactionCount({ address: account.address, blockTag: 'latest' }));
    const nonce = BigInt(row.nonce);
    if (used > nonce) {
      // The nonce is used. A node can report that before it serves the receipt (a moment on anvil,
      // longer behind a load-balanced RPC), so a transaction the node still knows is waited for, and
      // one is dropped only when the node serves no receipt and knows none of its hashes, looked at
      // DROP_CHECKS times. A wrong "dropped" fails a relayed payment that was made, or sends a refund again.
      for (let check = 0; check < DROP_CHECKS; check++) {
        await new Promise((resolve) => setTimeout(resolve, recheckDelayMs));
        const late = await receiptOfAny(row.allHashes);
        if (late) return { kind: 'mined', receipt: late, row };
        if (await knowsAny(row.allHashes)) return { kind: 'waiting', row };
      }
      return { kind: 'dropped', row };
    }
    if (Date.now() - row.sentAt.getTime() >= stuckAfterMs) {
      if (used === nonce) return { kind: 'waiting', row: await replace(row) };
      // Earlier nonces are not used: this transaction waits behind them, whatever its fee.
      await fillNonceGap(used, nonce);
    }
    await broadcast(client, row.rawTransaction as Hex);
    return { kind: 'waiting', row };
  }

  async function settle(
    first: TransactionRow,
    { receipts, stuckAfterMs }: { receipts: ReceiptWaiter; stuckAfterMs: number },
  ): Promise<Settled> {
    const record = async (row: TransactionRow, receipt: TransactionReceipt): Promise<Settled> => {
      const outcome = receipt.status === 'success' ? 'success' : 'reverted';
      await ledger.recordOutcome(sql, row.id, outcome, receipt.transactionHash);
      return { outcome, receipt };
    };
    let row = first;
    for (;;) {
      // Counted from when it was sent, so an activity retried after a timeout does not start the wait over.
      const timeoutMs = Math.max(stuckAfterMs - (Date.now() - row.sentAt.getTime()), 1000);
      try {
        return await record(row, await receipts.wait(row.transactionHash as Hash, { timeoutMs }));
      } catch (error) {
        if (!(error instanceof WaitForTransactionReceiptTimeoutError)) throw error;
      }
      const seen = await look(row, { stuckAfterMs });
      if (seen.kind === 'mined') return record(seen.row, seen.receipt);
      if (seen.kind === 'dropped') {
        if (await ledger.recordOutcome(sql, row.id, 'dropped')) return { outcome: 'dropped' };
        // Another follower recorded it mined meanwhile: the next look finds its receipt.
        continue;
      }
      row = seen.row;
    }
  }

  return {
    address: account.address,
    chainId,
    send: (call, options) => outsideTransactions(() => send(call, options)),
    look: (row, options) => outsideTransactions(() => look(row, options)),
    settle: (row, options) => outsideTransactions(() => settle(row, options)),
  };
}

// ------------------------------------------------------------------ group commit

type SendingAccount = { sql: Sql; client: PublicClient; account: LocalAccount; chainId: number; batchStallMs?: number };
type Queued = { call: OutgoingCall; options: SendOptions; resolve: (row: TransactionRow) => void; reject: (error: unknown) => void };
type Queue = { sending: SendingAccount; items: Queued[]; draining: boolean };

/** One queue per database and sending account in this process, whichever sender object the call came through. */
const queues = new WeakMap<Sql, Map<string, Queue>>();
const BATCH = 64;

/**
 * Longer than any wait Postgres bounds (a statement 30 s, an idle open transaction 60 s), so a batch
 * still unsettled after it waits on a fault of the client, not of the database. Every send of the
 * account queues behind the batch, so its callers get an error (their activities retry) and the queue
 * moves on. Safe: a purpose is recorded once, so if the batch commits after all, a retry finds it.
 */
export const BATCH_STALL_MS = 120_000;

export class BatchStalled extends Error {}

/** The batch's rows, or BatchStalled once it has been unsettled for `ms`; a late outcome is dropped. */
function withinStallBound<T>(batch: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new BatchStalled(`recording a batch of transactions has not settled in ${ms} ms; its sends are retried`)),
      ms,
    );
  });
  batch.catch(() => undefined); // after a stall nobody awaits it
  return Promise.race([batch, stalled]).finally(() => clearTimeout(timer));
}

class PurposeTaken extends Error {}

function recordInBatch(sending: SendingAccount, call: OutgoingCall, options: SendOptions): Promise<TransactionRow> {
  let byAccount = queues.get(sending.sql);
  if (!byAccount) queues.set(sending.sql, (byAccount = new Map()));
  const key = `${sending.chainId}:${sending.account.address}`;
  let queue = byAccount.get(key);
  if (!queue) byAccount.set(key, (queue = { sending, items: [], draining: false }));
  const q = queue;
  return new Promise<TransactionRow>((resolve, reject) => {
    q.items.push({ call, options, resolve, reject });
    if (!q.draining) {
      q.draining = true;
      void drain(q).finally(() => (q.draining = false));
    }
  });
}

async function drain(queue: Queue): Promise<void> {
  while (queue.items.length > 0) {
    const batch = queue.items.splice(0, BATCH);
    try {
      const rows = await withinStallBound(recordBatch(queue.sending, batch), queue.sending.batchStallMs ?? BATCH_STALL_MS);
      batch.forEach((b, i) => b.resolve(rows[i]!));
    } catch (error) {
      for (const b of batch) b.reject(error);
    }
  }
}

/**
 * In one database transaction: the purposes' recorded transactions, then for the others one nonce
 * range under the account's row lock, signed and recorded, with each caller's own statements. If a
 * batch fails, nothing in it was committed and every caller gets the error.
 */
async function recordBatch({ sql, client, account, chainId }: SendingAccount, batch: readonly Queued[]): Promise<TransactionRow[]> {
  // Read before the lock: the stored next nonce already covers our own transactions in flight.
  const [pending, fees] = await Promise.all([
    client.getTransactionCount({ address: account.address, blockTag: 'pending' }),
    client.estimateFeesPerGas(),
  ]);
  const chainNonce = BigInt(pending);
  const purposes = [...new Set(batch.map((b) => b.call.purpose))];
  for (;;) {
    try {
      return await sql.begin(async (tx) => {
        const recorded = new Map((await ledger.findLatestOfPurposes(tx, chainId, purposes)).map((row) => [row.purpose, row]));
        const fresh = [
          ...new Map(
            batch
              .filter((b) => {
                const row = recorded.get(b.call.purpose);
                return !row || ((row.outcome === 'reverted' || row.outcome === 'dropped') && b.options.again !== false);
              })
              .map((b) => [b.call.purpose, b]),
          ).values(),
        ];
        if (fresh.length > 0) {
          const first = await ledger.allocateNonces(tx, { chainId, address: account.address }, chainNonce, fresh.length);
          const signed = await Promise.all(
            fresh.map((b, i) =>
              account.signTransaction({
                type: 'eip1559',
                chainId,
                to: b.call.to,
                data: b.call.data,
                nonce: Number(first + BigInt(i)),
                gas: b.call.gas,
                ...fees,
              }),
            ),
          );
          // Pipelined on the transaction's connection.
          const statements = fresh.map((b, i) => {
            const nonce = first + BigInt(i);
            const transactionHash = keccak256(signed[i]!);
            const record = {
              purpose: b.call.purpose,
              chainId,
              address: account.address,
              nonce,
              rawTransaction: signed[i]!,
              transactionHash,
              gas: b.call.gas,
              ...fees,
            };
            return Promise.all([
              ledger.insertTransaction(tx, record),
              b.options.onRecord?.(tx, { purpose: b.call.purpose, nonce, transactionHash }),
            ]);
          });
          for (const [row] of await Promise.all(statements)) {
            // Another sender recorded this purpose first: roll back (no nonce is left unused) and look again.
            if (!row) throw new PurposeTaken();
            recorded.set(row.purpose, row);
          }
        }
        return batch.map((b) => recorded.get(b.call.purpose)!);
      });
    } catch (error) {
      if (!(error instanceof PurposeTaken)) throw error;
    }
  }
}
