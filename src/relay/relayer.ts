// The relayer: simulates a submission's call, then sends it through the
// platform's one transaction sender (src/chain/sender.ts) under the purpose
// `relay:<submission id>`: nonce allocated under the Postgres row lock with
// group commit, the signed transaction recorded before it is sent (so a retry
// re-sends the same bytes) in the same database transaction that marks the
// submission submitted. It follows the transaction to the required
// confirmations (the sender replaces it with a higher fee, same nonce, when it
// is stuck) and reports a revert with its decoded reason (never retried).
import { type Address, BaseError, type Hex, type PrivateKeyAccount, type PublicClient, decodeErrorResult } from 'viem';
import { signingAccount } from '../chain/signing-account.js';
import type { ChainSettings } from '../chain/config.js';
import { publicClientFor } from '../chain/clients.js';
import { estimateGasInNextBlock, nextBlockTime } from '../chain/chain-time.js';
import * as ledger from '../chain/ledger-repo.js';
import { broadcast } from '../chain/sending.js';
import { createTransactionSender, type TransactionSender } from '../chain/sender.js';
import type { Db, PoolSql, Sql } from '../db/client.js';
import { type RelayCall, encodeRelayCall, relayErrorAbi } from './calls.js';
import { isRefusalCode, refusalOf, retryOf } from '../chain/refusals.js';
import { recordEvent } from '../events/outbox.js';
import { renderSubmission } from './service.js';
import { nameBlacklistedSide } from '../chain/token-standing.js';
import * as repo from './repo.js';

export type Failure = { code: string; reason: string };

/**
 * Decodes the revert of a failed eth_call / estimateGas: a token refusal by its code
 * (src/chain/refusals.ts), else the contract's named error.
 */
export function failureOf(error: unknown): Failure | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const refusal = refusalOf(error, relayErrorAbi);
  if (refusal) return refusal;
  const withData = error.walk(
    (e) => typeof (e as { data?: unknown }).data === 'string' && String((e as { data: string }).data).startsWith('0x'),
  ) as { data?: Hex } | null;
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

/** The payer, the payee and the token of a submission's call: who a blacklist refusal can be about. */
function partiesOf(call: RelayCall): { token: Address; payer: Address; payee: Address } {
  return call.kind === 'payment'
    ? { token: call.token, payer: call.from, payee: call.to }
    : { token: call.terms.token, payer: call.subscriber, payee: call.terms.merchant };
}

/** Names the blacklisted side of a blacklist refusal with two reads; other failures pass through. */
async function named(client: PublicClient, call: RelayCall, failure: Failure): Promise<Failure> {
  if (failure.code !== 'account_blacklisted') return failure;
  const { token, payer, payee } = partiesOf(call);
  return nameBlacklistedSide(client, token, payer, payee, { code: failure.code, reason: failure.reason });
}

async function simulate(
  client: PublicClient,
  from: Address,
  call: { to: Address; data: Hex },
  at: { blockNumber: bigint } | { time: bigint },
): Promise<Failure | undefined> {
  try {
    await client.call({
      account: from,
      to: call.to,
      data: call.data,
      ...('blockNumber' in at ? at : { blockOverrides: { time: at.time } }),
    });
    return undefined;
  } catch (error) {
    const failure = failureOf(error);
    if (failure) return failure;
    throw error;
  }
}

/**
 * Marks a submission failed and, for a payment, records `payment.failed` in the same transaction
 * (the outbox; docs/events.md): only the call that failed it records the event, so a retried
 * activity does not emit twice. The outbox sweep wakes the dispatcher for it.
 */
async function recordFailure(
  sql: Sql,
  settings: ChainSettings,
  submission: repo.SubmissionRow,
  fail: (tx: Db) => Promise<boolean>,
): Promise<void> {
  await sql.begin(async (tx) => {
    if (!(await fail(tx)) || submission.kind !== 'payment') return;
    const failed = await repo.findSubmission(tx, submission.id);
    if (!failed) return;
    const code = failed.failureCode;
    await recordEvent(tx, {
      merchantId: failed.merchantId,
      livemode: failed.livemode,
      type: 'payment.failed',
      data: {
        object: renderSubmission(failed, settings),
        paymentSessionId: failed.paymentSessionId,
        retry: code && isRefusalCode(code) ? retryOf(code) : 'never',
      },
    });
  });
}

const relayers = new Map<Hex, PrivateKeyAccount>();

function relayerOf(settings: ChainSettings): PrivateKeyAccount {
  if (!settings.relayerKey) throw new Error(`no relayer key configured for ${settings.mode} mode`);
  let relayer = relayers.get(settings.relayerKey);
  if (!relayer) relayers.set(settings.relayerKey, (relayer = signingAccount(settings.relayerKey)));
  return relayer;
}

const senders = new WeakMap<Sql, Map<string, TransactionSender>>();

/** The relayer's sender for these settings (its group commit is shared by every sender of the account anyway). */
function senderOf(sql: PoolSql, settings: ChainSettings): TransactionSender {
  const relayer = relayerOf(settings);
  let byChain = senders.get(sql);
  if (!byChain) senders.set(sql, (byChain = new Map()));
  const key = `${settings.chainId}|${settings.rpcUrl}|${relayer.address}`;
  let sender = byChain.get(key);
  if (!sender) {
    sender = createTransactionSender({ sql, client: publicClientFor(settings), account: relayer, chainId: settings.chainId });
    byChain.set(key, sender);
  }
  return sender;
}

/** The ledger purpose of a submission's transaction: one transaction per submission, ever. */
export const relayPurpose = (submissionId: string) => `relay:${submissionId}`;

async function recordedTransaction(sql: Sql, settings: ChainSettings, submissionId: string): Promise<ledger.TransactionRow | undefined> {
  const [row] = await ledger.findLatestOfPurposes(sql, settings.chainId, [relayPurpose(submissionId)]);
  return row;
}

/** What a submission's first look can start from: the rows `submitSubmission` just read or wrote (no second read). */
export type Submitted = { submission: repo.SubmissionRow; transaction: ledger.TransactionRow };

export type SubmitResult =
  | ({ status: 'submitted'; transactionHash: string } & Submitted)
  | { status: 'failed'; failure: Failure; submission: repo.SubmissionRow }
  | { status: 'done'; submission: repo.SubmissionRow };

/** Simulate, then allocate a nonce, sign, record and send. Safe to retry at any point. */
export async function submitSubmission(sql: Sql, settings: ChainSettings, submissionId: string): Promise<SubmitResult> {
  const client = publicClientFor(settings);
  const submission = await repo.findSubmission(sql, submissionId);
  if (!submission) throw new Error(`no relay submission ${submissionId}`);
  if (submission.status === 'confirmed' || submission.status === 'failed') return { status: 'done', submission };

  const existing = await recordedTransaction(sql, settings, submissionId);
  if (existing) {
    await broadcast(client, existing.rawTransaction as Hex);
    return { status: 'submitted', transactionHash: existing.transactionHash, submission, transaction: existing };
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
    const found = failureOf(error) ?? (await simulate(client, relayer.address, call, { time }));
    if (!found) throw error;
    const failure = await named(client, submission.call, found);
    await recordFailure(sql, settings, submission, (tx) => repo.markFailed(tx, submissionId, failure));
    return { status: 'failed', failure, submission };
  }
  const gas = (gasEstimate * 13n) / 10n;

  // Recorded (and the submission marked submitted) before it is sent; a retry finds it above.
  const row = await senderOf(sql, settings).send(
    { purpose: relayPurpose(submissionId), to: call.to, data: call.data, gas },
    { again: false, onRecord: (tx, recorded) => repo.markSubmitted(tx, submissionId, recorded.transactionHash) },
  );
  return {
    status: 'submitted',
    transactionHash: row.transactionHash,
    submission: { ...submission, status: 'submitted', transactionHash: row.transactionHash },
    transaction: row,
  };
}

export type FollowResult = { status: 'confirmed' | 'failed' | 'waiting'; confirmations: number };

/**
 * One look at the submission's transaction: records inclusion and confirmations, a revert as a
 * failure with its reason, or (through the sender) replaces the transaction when it has waited
 * longer than stuckAfterSeconds. Returns 'waiting' while it needs another look. `known`: the rows
 * as the caller just saw them (the submit step's own), read afresh otherwise.
 */
export async function checkSubmission(sql: Sql, settings: ChainSettings, submissionId: string, known?: Submitted): Promise<FollowResult> {
  const client = publicClientFor(settings);
  const submission = known?.submission ?? (await repo.findSubmission(sql, submissionId));
  if (!submission) throw new Error(`no relay submission ${submissionId}`);
  if (submission.status === 'confirmed' || submission.status === 'failed')
    return { status: submission.status, confirmations: submission.confirmations };
  const row = known?.transaction ?? (await recordedTransaction(sql, settings, submissionId));
  if (!row) return { status: 'waiting', confirmations: 0 };

  const seen = await senderOf(sql, settings).look(row, {
    stuckAfterMs: settings.stuckAfterSeconds * 1000,
    recheckDelayMs: Math.max(1000, settings.pollIntervalMs * 3),
  });
  if (seen.kind === 'waiting') {
    if (seen.row.transactionHash !== row.transactionHash)
      await repo.setSubmissionTransactionHash(sql, submissionId, seen.row.transactionHash);
    return { status: 'waiting', confirmations: 0 };
  }
  if (seen.kind === 'dropped') {
    const failure = {
      code: 'NonceConsumed',
      reason: `Relayer nonce ${row.nonce} was used by another transaction; this submission was not included.`,
    };
    await recordFailure(sql, settings, submission, async (tx) => {
      await ledger.recordOutcome(tx, row.id, 'dropped');
      return repo.markFailed(tx, submissionId, failure);
    });
    return { status: 'failed', confirmations: 0 };
  }

  const { receipt } = seen;
  if (receipt.status === 'reverted') {
    const relayer = relayerOf(settings);
    // The reason: replay the call on the state after that block (the revert left no trace in it),
    // else on its parent.
    const replayAt = (blockNumber: bigint) =>
      simulate(client, relayer.address, encodeRelayCall(submission.call), { blockNumber }).catch(() => undefined);
    const replayed = (await replayAt(receipt.blockNumber)) ??
      (await replayAt(receipt.blockNumber - 1n)) ?? {
        code: 'Reverted',
        reason: 'The transaction was included but reverted; the reason could not be recovered.',
      };
    const failure = await named(client, submission.call, replayed);
    const inclusion = {
      transactionHash: receipt.transactionHash,
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      ...failure,
    };
    await recordFailure(sql, settings, submission, async (tx) => {
      await ledger.recordOutcome(tx, row.id, 'reverted', receipt.transactionHash);
      return repo.recordFailedInclusion(tx, submissionId, inclusion);
    });
    return { status: 'failed', confirmations: 0 };
  }
  // The head only once there is a receipt: a poll of a transaction not yet mined costs one RPC call, not two.
  const head = await client.getBlockNumber();
  const confirmations = Number(head - receipt.blockNumber + 1n);
  const confirmed = confirmations >= settings.confirmations;
  const inclusion = {
    transactionHash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
    blockHash: receipt.blockHash,
    confirmations,
    confirmed,
  };
  if (confirmed) {
    await repo.recordConfirmedInclusion(
      sql,
      submissionId,
      inclusion,
      ledger.outcomeUpdate(sql, row.id, 'success', receipt.transactionHash),
    );
  } else {
    await repo.recordInclusion(sql, submissionId, inclusion);
  }
  return { status: confirmed ? 'confirmed' : 'waiting', confirmations };
}
