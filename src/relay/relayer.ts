// The relayer: simulates a submission's call, allocates the relayer nonce under
// a Postgres row lock, records the signed transaction before sending it (so a
// retry re-sends the same bytes), follows it to the required confirmations,
// replaces it with a higher fee (same nonce) when it is stuck, and reports a
// revert with its decoded reason (never retried).
import {
  type Address,
  BaseError,
  type Hash,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  decodeErrorResult,
  keccak256,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainSettings } from '../chain/config.js';
import { publicClientFor } from '../chain/clients.js';
import { estimateGasInNextBlock, nextBlockTime } from '../chain/chain-time.js';
import { allocateNonces } from '../chain/nonce-ledger.js';
import { broadcast, replacementFees } from '../chain/sending.js';
import type { Sql } from '../db/client.js';
import { encodeRelayCall, relayErrorAbi } from './calls.js';
import * as repo from './repo.js';

export type Failure = { code: string; reason: string };

/** Decodes the revert of a failed eth_call / estimateGas into the contract's named error. */
export function failureOf(error: unknown): Failure | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const withData = error.walk((e) => typeof (e as { data?: unknown }).data === 'string' && String((e as { data: string }).data).startsWith('0x')) as
    | { data?: Hex }
    | null;
  const data = withData?.data;
  if (data && data.length >= 10) {
    try {
      const decoded = decodeErrorResult({ abi: relayErrorAbi, data });
      const args = (decoded.args ?? []).map((a) => String(a)).join(', ');
      return { code: decoded.errorName, reason: `The contract reverted with ${decoded.errorName}(${args}).` };
    } catch {
      return { code: 'Reverted', reason: `The contract reverted with undecoded data ${data.slice(0, 74)}.` };
    }
  }
  const message = error.shortMessage || error.message;
  if (/revert/i.test(message)) return { code: 'Reverted', reason: message };
  return undefined;
}

async function simulate(
  client: PublicClient,
  from: Address,
  call: { to: Address; data: Hex },
  at: { blockNumber: bigint } | { time: bigint },
): Promise<Failure | undefined> {
  try {
    await client.call({ account: from, to: call.to, data: call.data, ...('blockNumber' in at ? at : { blockOverrides: { time: at.time } }) });
    return undefined;
  } catch (error) {
    const failure = failureOf(error);
    if (failure) return failure;
    throw error;
  }
}

function relayerOf(settings: ChainSettings) {
  if (!settings.relayerKey) throw new Error(`no relayer key configured for ${settings.mode} mode`);
  return privateKeyToAccount(settings.relayerKey);
}

const feeCache = new Map<string, { at: number; fees: Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> }>();

/** Fee estimates, shared for a second across concurrent submissions. */
function currentFees(settings: ChainSettings, client: PublicClient) {
  const key = `${settings.chainId}|${settings.rpcUrl}`;
  const hit = feeCache.get(key);
  if (hit && Date.now() - hit.at < 1000) return hit.fees;
  const fees = client.estimateFeesPerGas();
  feeCache.set(key, { at: Date.now(), fees });
  fees.catch(() => feeCache.delete(key));
  return fees;
}

export type SubmitResult = { status: 'submitted'; transactionHash: string } | { status: 'failed'; failure: Failure } | { status: 'done' };

/** Simulate, then allocate a nonce, sign, record and send. Safe to retry at any point. */
export async function submitSubmission(sql: Sql, settings: ChainSettings, submissionId: string): Promise<SubmitResult> {
  const client = publicClientFor(settings);
  const submission = await repo.findSubmission(sql, submissionId);
  if (!submission) throw new Error(`no relay submission ${submissionId}`);
  if (submission.status === 'confirmed' || submission.status === 'failed') return { status: 'done' };

  const existing = await repo.findRelayerTransaction(sql, submissionId);
  if (existing) {
    await broadcast(client, existing.rawTransaction as Hex);
    return { status: 'submitted', transactionHash: existing.transactionHash };
  }

  const relayer = relayerOf(settings);
  const call = encodeRelayCall(submission.call);
  // Gas estimation executes the call: a revert here is the simulation's verdict. On the latest
  // state, not the node's pending state: our own queued transactions must not make a later one look
  // like a revert (the chain orders them by nonce anyway). At the next block's time, not the latest
  // block's: that is when the transaction runs, and the pre-checks used it too (an idle dev chain's
  // latest block can be minutes older than an authorization's validAfter).
  const time = await nextBlockTime(client);
  let gasEstimate: bigint;
  try {
    gasEstimate = await estimateGasInNextBlock(client, { from: relayer.address, to: call.to, data: call.data }, time);
  } catch (error) {
    const failure = failureOf(error) ?? (await simulate(client, relayer.address, call, { time }));
    if (!failure) throw error;
    await repo.markFailed(sql, submissionId, failure);
    return { status: 'failed', failure };
  }
  const fees = await currentFees(settings, client);
  const gas = (gasEstimate * 13n) / 10n;

  const raw = await signInBatch(sql, settings, { submissionId, to: call.to, data: call.data, gas, ...fees });
  await broadcast(client, raw);
  return { status: 'submitted', transactionHash: keccak256(raw) };
}

// ------------------------------------------------------------------ batched nonce allocation

type SignRequest = { submissionId: string; to: Address; data: Hex; gas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
type QueuedSign = SignRequest & { resolve: (raw: Hex) => void; reject: (error: unknown) => void };

/** Concurrent submissions of one relayer in this process share one lock acquisition (group commit). */
const signQueues = new WeakMap<Sql, Map<string, { items: QueuedSign[]; draining: boolean }>>();
const SIGN_BATCH = 64;

/**
 * Allocates the submission's nonce, signs and records the transaction, and marks it submitted,
 * in one database transaction shared with whatever other submissions of this relayer are waiting.
 * A submission that already has a recorded transaction gets those same bytes back.
 */
function signInBatch(sql: Sql, settings: ChainSettings, request: SignRequest): Promise<Hex> {
  const relayer = relayerOf(settings);
  let queues = signQueues.get(sql);
  if (!queues) signQueues.set(sql, (queues = new Map()));
  const key = `${settings.chainId}:${relayer.address}`;
  let queue = queues.get(key);
  if (!queue) queues.set(key, (queue = { items: [], draining: false }));
  const q = queue;
  return new Promise<Hex>((resolve, reject) => {
    q.items.push({ ...request, resolve, reject });
    if (!q.draining) {
      q.draining = true;
      void drain(sql, settings, q).finally(() => (q.draining = false));
    }
  });
}

async function drain(sql: Sql, settings: ChainSettings, queue: { items: QueuedSign[] }): Promise<void> {
  const relayer = relayerOf(settings);
  const client = publicClientFor(settings);
  const account = { chainId: settings.chainId, address: relayer.address };
  while (queue.items.length > 0) {
    const batch = queue.items.splice(0, SIGN_BATCH);
    try {
      // Read before the lock: the stored next nonce already covers our own transactions in flight.
      const chainNonce = BigInt(await client.getTransactionCount({ address: relayer.address, blockTag: 'pending' }));
      const raws = await sql.begin(async (tx) => {
        const recorded = new Map((await repo.findRelayerTransactions(tx, batch.map((b) => b.submissionId))).map((r) => [r.submissionId, r.rawTransaction as Hex]));
        const fresh = [...new Map(batch.filter((b) => !recorded.has(b.submissionId)).map((b) => [b.submissionId, b])).values()];
        if (fresh.length === 0) return recorded;
        const first = await allocateNonces(tx, account, chainNonce, fresh.length);
        const signed = await Promise.all(
          fresh.map((b, i) =>
            relayer.signTransaction({
              type: 'eip1559',
              chainId: settings.chainId,
              to: b.to,
              data: b.data,
              nonce: Number(first + BigInt(i)),
              gas: b.gas,
              maxFeePerGas: b.maxFeePerGas,
              maxPriorityFeePerGas: b.maxPriorityFeePerGas,
            }),
          ),
        );
        // Pipelined on the transaction's connection.
        await Promise.all(
          fresh.flatMap((b, i) => {
            const hash = keccak256(signed[i]!);
            recorded.set(b.submissionId, signed[i]!);
            return [
              repo.insertRelayerTransaction(tx, {
                submissionId: b.submissionId,
                chainId: settings.chainId,
                address: relayer.address,
                nonce: first + BigInt(i),
                rawTransaction: signed[i]!,
                transactionHash: hash,
                maxFeePerGas: b.maxFeePerGas,
                maxPriorityFeePerGas: b.maxPriorityFeePerGas,
                gas: b.gas,
              }),
              repo.markSubmitted(tx, b.submissionId, hash),
            ];
          }),
        );
        return recorded;
      });
      for (const b of batch) b.resolve(raws.get(b.submissionId)!);
    } catch (error) {
      for (const b of batch) b.reject(error);
    }
  }
}

async function receiptOf(client: PublicClient, hashes: readonly string[]): Promise<TransactionReceipt | undefined> {
  for (const hash of [...hashes].reverse()) {
    try {
      return await client.getTransactionReceipt({ hash: hash as Hash });
    } catch {
      // not mined (or not known): try the next hash
    }
  }
  return undefined;
}

async function receiptAfter(client: PublicClient, hashes: readonly string[], delayMs: number): Promise<TransactionReceipt | undefined> {
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  return receiptOf(client, hashes);
}

/** Re-signs the stuck transaction with the same nonce and fees raised by at least 25%. */
async function replace(sql: Sql, settings: ChainSettings, client: PublicClient, row: repo.RelayerTransactionRow): Promise<void> {
  const relayer = relayerOf(settings);
  const submission = await repo.findSubmission(sql, row.submissionId);
  if (!submission) return;
  const call = encodeRelayCall(submission.call);
  const old = { maxFeePerGas: BigInt(row.maxFeePerGas), maxPriorityFeePerGas: BigInt(row.maxPriorityFeePerGas) };
  const { maxFeePerGas, maxPriorityFeePerGas } = replacementFees(old, await client.estimateFeesPerGas());
  const signed = await relayer.signTransaction({
    type: 'eip1559',
    chainId: settings.chainId,
    to: call.to,
    data: call.data,
    nonce: Number(row.nonce),
    gas: BigInt(row.gas),
    maxFeePerGas,
    maxPriorityFeePerGas,
  });
  await repo.recordReplacement(sql, row.submissionId, { rawTransaction: signed, transactionHash: keccak256(signed), maxFeePerGas, maxPriorityFeePerGas });
  await broadcast(client, signed);
}

export type FollowResult = { status: 'confirmed' | 'failed' | 'waiting'; confirmations: number };

/**
 * One look at the submission's transaction: records inclusion and confirmations, a revert as a
 * failure with its reason, or replaces the transaction when it has waited longer than
 * stuckAfterSeconds. Returns 'waiting' while it needs another look.
 */
export async function checkSubmission(sql: Sql, settings: ChainSettings, submissionId: string): Promise<FollowResult> {
  const client = publicClientFor(settings);
  const submission = await repo.findSubmission(sql, submissionId);
  if (!submission) throw new Error(`no relay submission ${submissionId}`);
  if (submission.status === 'confirmed' || submission.status === 'failed') return { status: submission.status, confirmations: submission.confirmations };
  const row = await repo.findRelayerTransaction(sql, submissionId);
  if (!row) return { status: 'waiting', confirmations: 0 };

  const receipt = await receiptOf(client, row.allHashes);
  if (receipt) {
    if (receipt.status === 'reverted') {
      const relayer = relayerOf(settings);
      // The reason: replay the call on the state after that block (the revert left no trace in it),
      // else on its parent.
      const replayAt = (blockNumber: bigint) => simulate(client, relayer.address, encodeRelayCall(submission.call), { blockNumber }).catch(() => undefined);
      const failure = (await replayAt(receipt.blockNumber)) ?? (await replayAt(receipt.blockNumber - 1n)) ?? {
        code: 'Reverted',
        reason: 'The transaction was included but reverted; the reason could not be recovered.',
      };
      await repo.recordFailedInclusion(sql, submissionId, {
        transactionHash: receipt.transactionHash,
        blockNumber: receipt.blockNumber,
        blockHash: receipt.blockHash,
        ...failure,
      });
      return { status: 'failed', confirmations: 0 };
    }
    const head = await client.getBlockNumber();
    const confirmations = Number(head - receipt.blockNumber + 1n);
    const confirmed = confirmations >= settings.confirmations;
    await repo.recordInclusion(sql, submissionId, {
      transactionHash: receipt.transactionHash,
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      confirmations,
      confirmed,
    });
    return { status: confirmed ? 'confirmed' : 'waiting', confirmations };
  }

  // Not mined. Has the nonce been used by something else? (Re-check receipts to avoid a race.)
  const relayer = relayerOf(settings);
  const mined = await client.getTransactionCount({ address: relayer.address, blockTag: 'latest' });
  // A node may report the nonce as used a moment before it serves the receipt: look again later.
  if (BigInt(mined) > BigInt(row.nonce) && !(await receiptAfter(client, row.allHashes, Math.max(1000, settings.pollIntervalMs * 3)))) {
    const failure = { code: 'NonceConsumed', reason: `Relayer nonce ${row.nonce} was used by another transaction; this submission was not included.` };
    await repo.markFailed(sql, submissionId, failure);
    return { status: 'failed', confirmations: 0 };
  }
  if (Date.now() - row.sentAt.getTime() > settings.stuckAfterSeconds * 1000) {
    await replace(sql, settings, client, row);
  } else {
    await broadcast(client, row.rawTransaction as Hex);
  }
  return { status: 'waiting', confirmations: 0 };
}
