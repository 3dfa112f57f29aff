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

async function simulate(client: PublicClient, from: Address, call: { to: Address; data: Hex }, blockNumber?: bigint): Promise<Failure | undefined> {
  try {
    await client.call({ account: from, to: call.to, data: call.data, ...(blockNumber !== undefined ? { blockNumber } : {}) });
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

async function broadcast(client: PublicClient, raw: Hex): Promise<void> {
  try {
    await client.sendRawTransaction({ serializedTransaction: raw });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Already in the pool or already mined: the same bytes were sent before.
    if (/already known|already imported|nonce too low|known transaction|replacement transaction underpriced|already exists/i.test(message)) return;
    throw error;
  }
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
  // Gas estimation executes the call: a revert here is the simulation's verdict.
  let gasEstimate: bigint;
  try {
    // Against the latest block, not the node's pending state: our own queued transactions must not
    // make a later one look like a revert (the chain orders them by nonce anyway).
    gasEstimate = await client.estimateGas({ account: relayer.address, to: call.to, data: call.data, blockTag: 'latest' });
  } catch (error) {
    const failure = failureOf(error) ?? (await simulate(client, relayer.address, call));
    if (!failure) throw error;
    await repo.markFailed(sql, submissionId, failure);
    return { status: 'failed', failure };
  }
  const fees = await currentFees(settings, client);
  const gas = (gasEstimate * 13n) / 10n;

  // Read before the lock (the stored next nonce covers our own transactions in flight).
  const account = { chainId: settings.chainId, address: relayer.address };
  const chainNonce = BigInt(await client.getTransactionCount({ address: relayer.address, blockTag: 'pending' }));
  const raw = await sql.begin(async (tx) => {
    const again = await repo.findRelayerTransaction(tx, submissionId);
    if (again) return again.rawTransaction as Hex;
    const nonce = await repo.allocateNonce(tx, account, chainNonce);
    const signed = await relayer.signTransaction({
      type: 'eip1559',
      chainId: settings.chainId,
      to: call.to,
      data: call.data,
      nonce: Number(nonce),
      gas,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    const hash = keccak256(signed);
    await repo.insertRelayerTransaction(tx, {
      submissionId,
      chainId: settings.chainId,
      address: relayer.address,
      nonce,
      rawTransaction: signed,
      transactionHash: hash,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      gas,
    });
    await repo.markSubmitted(tx, submissionId, hash);
    return signed;
  });
  await broadcast(client, raw);
  return { status: 'submitted', transactionHash: keccak256(raw) };
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
  const current = await client.estimateFeesPerGas();
  const bump = (old: bigint, now: bigint) => {
    const raised = (old * 125n) / 100n + 1n;
    return raised > now ? raised : now;
  };
  const maxPriorityFeePerGas = bump(BigInt(row.maxPriorityFeePerGas), current.maxPriorityFeePerGas);
  let maxFeePerGas = bump(BigInt(row.maxFeePerGas), current.maxFeePerGas);
  if (maxFeePerGas < maxPriorityFeePerGas) maxFeePerGas = maxPriorityFeePerGas;
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
      const replayAt = (blockNumber: bigint) => simulate(client, relayer.address, encodeRelayCall(submission.call), blockNumber).catch(() => undefined);
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
