// The operator's transactions (subscription charges and cancels) go through the
// Postgres nonce ledger, like the relayer's: any number of worker processes can
// share one operator key. Each transaction is signed and recorded before it is
// sent, under a purpose ("charge:<manager>:<id>:<period>") that has at most one
// open or successful transaction, so a retried activity follows the transaction
// its predecessor sent instead of sending another. A transaction that waits too
// long is replaced with a higher fee (same nonce); one whose nonce another sender
// recorded but never sent (it crashed in between) is unblocked by re-sending the
// recorded bytes of the missing nonces.
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
import type { Sql } from '../db/client.js';
import { allocateNonces } from './nonce-ledger.js';
import * as repo from './operator-repo.js';
import type { ReceiptWaiter } from './receipts.js';
import { broadcast, replacementFees } from './sending.js';

export type OperatorCall = { purpose: string; to: Address; data: Hex; gas: bigint };
export type Settled = { outcome: 'success' | 'reverted'; receipt: TransactionReceipt } | { outcome: 'dropped' };

export type OperatorSender = {
  address: Address;
  /** The purpose's open or successful transaction, if any. */
  find(purpose: string): Promise<repo.OperatorTransactionRow | undefined>;
  /** Allocates a nonce, signs, records and sends the call; if the purpose already has a live transaction, re-sends that one. */
  send(call: OperatorCall): Promise<repo.OperatorTransactionRow>;
  /** Follows a transaction until it is mined (or its nonce went elsewhere), replacing it when stuck; records how it ended. */
  settle(row: repo.OperatorTransactionRow): Promise<Settled>;
};

class PurposeTaken extends Error {}

export function createOperatorSender(deps: {
  sql: Sql;
  client: PublicClient;
  account: LocalAccount;
  chainId: number;
  receipts: ReceiptWaiter;
  /** How long a transaction may wait for inclusion before it is replaced with a higher fee. */
  stuckAfterMs: number;
}): OperatorSender {
  const { sql, client, account, chainId, receipts, stuckAfterMs } = deps;
  const ledger = { chainId, address: account.address };

  async function send(call: OperatorCall): Promise<repo.OperatorTransactionRow> {
    const live = await repo.findLivePurpose(sql, chainId, call.purpose);
    if (live) {
      if (live.outcome === null) await broadcast(client, live.rawTransaction as Hex);
      return live;
    }
    const fees = await client.estimateFeesPerGas();
    // Read before the lock: the ledger's next nonce already covers transactions in flight.
    const chainNonce = BigInt(await client.getTransactionCount({ address: account.address, blockTag: 'pending' }));
    let row: repo.OperatorTransactionRow;
    try {
      row = await sql.begin(async (tx) => {
        const nonce = await allocateNonces(tx, ledger, chainNonce, 1);
        const raw = await account.signTransaction({ type: 'eip1559', chainId, to: call.to, data: call.data, nonce: Number(nonce), gas: call.gas, ...fees });
        const inserted = await repo.insertOperatorTransaction(tx, {
          purpose: call.purpose,
          chainId,
          address: account.address,
          nonce,
          rawTransaction: raw,
          transactionHash: keccak256(raw),
          gas: call.gas,
          ...fees,
        });
        // Another sender recorded this purpose first: roll back, so the nonce is not left unused.
        if (!inserted) throw new PurposeTaken();
        return inserted;
      });
    } catch (error) {
      if (!(error instanceof PurposeTaken)) throw error;
      return send(call);
    }
    await broadcast(client, row.rawTransaction as Hex);
    return row;
  }

  async function receiptOfAny(hashes: readonly string[]): Promise<TransactionReceipt | undefined> {
    const found = await Promise.all(hashes.map((hash) => client.getTransactionReceipt({ hash: hash as Hash }).catch(() => undefined)));
    return found.find((receipt) => receipt !== undefined);
  }

  async function record(row: repo.OperatorTransactionRow, receipt: TransactionReceipt): Promise<Settled> {
    const outcome = receipt.status === 'success' ? 'success' : 'reverted';
    await repo.recordOperatorOutcome(sql, row.id, outcome, receipt.transactionHash);
    return { outcome, receipt };
  }

  async function replace(row: repo.OperatorTransactionRow): Promise<repo.OperatorTransactionRow> {
    const old = { maxFeePerGas: BigInt(row.maxFeePerGas), maxPriorityFeePerGas: BigInt(row.maxPriorityFeePerGas) };
    const fees = replacementFees(old, await client.estimateFeesPerGas());
    const { to, input } = parseRecorded(row);
    const raw = await account.signTransaction({ type: 'eip1559', chainId, to, data: input, nonce: Number(row.nonce), gas: BigInt(row.gas), ...fees });
    const replaced = await repo.recordOperatorReplacement(sql, row.id, { rawTransaction: raw, transactionHash: keccak256(raw), ...fees });
    await broadcast(client, raw);
    return replaced;
  }

  async function settle(first: repo.OperatorTransactionRow): Promise<Settled> {
    let row = first;
    for (;;) {
      // Counted from when it was sent, so an activity retried after a timeout does not start the wait over.
      const timeoutMs = Math.max(stuckAfterMs - (Date.now() - row.sentAt.getTime()), 1000);
      try {
        return await record(row, await receipts.wait(row.transactionHash as Hash, { timeoutMs }));
      } catch (error) {
        if (!(error instanceof WaitForTransactionReceiptTimeoutError)) throw error;
      }
      // Not mined in time. An earlier fee level of the same nonce may have been.
      const mined = await receiptOfAny(row.allHashes);
      if (mined) return record(row, mined);
      const used = BigInt(await client.getTransactionCount({ address: account.address, blockTag: 'latest' }));
      const nonce = BigInt(row.nonce);
      if (used > nonce) {
        // The nonce is used; a node can report that a moment before it serves the receipt.
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const late = await receiptOfAny(row.allHashes);
        if (late) return record(row, late);
        await repo.recordOperatorOutcome(sql, row.id, 'dropped');
        return { outcome: 'dropped' };
      }
      const missing = used < nonce ? await repo.findOpenBetween(sql, ledger, used, nonce) : [];
      if (missing.length > 0) {
        // Earlier nonces are not in the node (a sender died between recording and sending): send them.
        for (const earlier of missing) await broadcast(client, earlier.rawTransaction as Hex);
        await broadcast(client, row.rawTransaction as Hex);
      } else {
        row = await replace(row);
      }
    }
  }

  return { address: account.address, find: (purpose) => repo.findLivePurpose(sql, chainId, purpose), send, settle };
}

/** The recorded transaction's target and calldata (none for a plain call), for re-signing it with other fees. */
function parseRecorded(row: repo.OperatorTransactionRow): { to: Address; input: Hex } {
  const tx = parseTransaction(row.rawTransaction as Hex);
  if (!tx.to) throw new Error(`recorded operator transaction ${row.id} has no target`);
  return { to: tx.to, input: tx.data ?? '0x' };
}
