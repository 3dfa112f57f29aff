// Activities of refundWorkflow: the operator's transferFrom(payout wallet -> customer) from the
// refund allowance, or the relayer's submission of the payout wallet's signed EIP-3009 transfer, through the platform's one transaction sender under the purpose `refund:<id>`
// (recorded before it is sent: a retry, or another worker after a crash, follows the recorded
// transaction instead of sending a second one), and the follow-up to the mode's confirmations.
// Token refusals are named by src/chain/refusals.ts, nowhere else.
import { Context } from '@temporalio/activity';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Hash, type Hex, type PublicClient, encodeFunctionData, getAddress } from 'viem';
import { splitSig } from '../src/chain/typed-data.js';
import { publicClientFor, withSafeChainErrors } from '../src/chain/clients.js';
import type { ChainConfig, ChainSettings } from '../src/chain/config.js';
import { createChainResolver } from '../src/test-clocks/chain-registry.js';
import { fiatTokenAbi } from '../src/chain/generated/fiat-token.js';
import * as ledger from '../src/chain/ledger-repo.js';
import { createReceiptWaiter, type ReceiptWaiter } from '../src/chain/receipts.js';
import { refusalOf, type Refusal } from '../src/chain/refusals.js';
import { createTransactionSender, type TransactionSender } from '../src/chain/sender.js';
import { signingAccount } from '../src/chain/signing-account.js';
import type { Sql } from '../src/db/client.js';
import { commitWithEvents } from '../src/events/commit.js';
import type { EventDispatcher } from '../src/events/dispatch.js';
import { recordRefundEvent } from '../src/refunds/events.js';
import * as refunds from '../src/refunds/repo.js';
import { permanentFailure, PERMANENT_FAILURES } from '../src/temporal/failures.js';

export type RefundActivityDeps = { sql: Sql; events: EventDispatcher; chain?: ChainConfig };

type Operator = { settings: ChainSettings; client: PublicClient; sender: TransactionSender; receipts: ReceiptWaiter };

/** The ledger purpose of a refund's transfer: one per refund. */
export const refundPurpose = (refundId: string): string => `refund:${refundId}`;

export function createRefundActivities({ sql, events, chain = {} }: RefundActivityDeps) {
  const senders = new Map<string, Operator>();
  /** The operator for an allowance refund, the relayer for a signed one. */
  /** The mode's chains and the test clocks' forks (issue 39: the clock rows are their registry). */
  const chainOf = createChainResolver({ sql, config: chain });
  async function senderFor(row: refunds.RefundRow): Promise<Operator> {
    const role = row.authorizationMessage ? 'relayer' : 'operator';
    // The refund's own chain: the one the money came in on (issue 39); a clock's fork included.
    const settings = await chainOf(row.livemode, Number(row.chainId));
    // Keyed by node too: a clock's fork forked again answers on another URL.
    const key = `${row.livemode}:${row.chainId}:${settings.rpcUrl}:${role}`;
    let operator = senders.get(key);
    if (!operator) {
      const privateKey = role === 'relayer' ? settings.relayerKey : settings.operatorKey;
      if (!privateKey) throw new Error(`${settings.mode} mode has no ${role} key: the refund cannot be sent`);
      const client = publicClientFor(settings);
      const sender = createTransactionSender({ sql, client, account: signingAccount(privateKey), chainId: settings.chainId });
      operator = { settings, client, sender, receipts: createReceiptWaiter(client, settings.pollIntervalMs) };
      senders.set(key, operator);
    }
    return operator;
  }

  async function processingRefund(refundId: string): Promise<refunds.RefundRow | undefined> {
    const row = await refunds.findRefundById(sql, refundId);
    if (!row) throw permanentFailure(PERMANENT_FAILURES.refundNotFound, `refund ${refundId} does not exist`);
    return row.status === 'processing' ? row : undefined;
  }

  function transferCall(row: refunds.RefundRow) {
    const signed = row.authorizationMessage;
    if (signed) {
      const { v, r, s } = splitSig(row.authorizationSignature as Hex);
      return encodeFunctionData({
        abi: fiatTokenAbi,
        functionName: 'transferWithAuthorization',
        args: [
          getAddress(signed.from),
          getAddress(signed.to),
          BigInt(signed.value),
          BigInt(signed.validAfter),
          BigInt(signed.validBefore),
          signed.nonce as Hex,
          v,
          r,
          s,
        ],
      });
    }
    return encodeFunctionData({
      abi: fiatTokenAbi,
      functionName: 'transferFrom',
      // A processing refund always has its recipient (the refunds_recipient check).
      args: [getAddress(row.fromAddress), getAddress(row.toAddress!), BigInt(row.amount)],
    });
  }

  /** processing -> failed with the refusal, and refund.failed, in one transaction. */
  async function fail(
    row: refunds.RefundRow,
    refusal: Refusal | { code: 'reverted'; reason: string },
    transactionHash?: string,
  ): Promise<'failed'> {
    await commitWithEvents(sql, events, async (tx, record) => {
      const failed = await refunds.markFailed(tx, row.id, {
        code: refusal.code,
        reason: refusal.reason,
        ...(transactionHash ? { transactionHash } : {}),
      });
      if (failed) await recordRefundEvent(record, 'refund.failed', failed);
    });
    return 'failed';
  }

  /** Why the transfer would revert now (a simulation), if it is a refusal the token names. */
  async function refusalNow(operator: Operator, row: refunds.RefundRow): Promise<Refusal | undefined> {
    try {
      await operator.client.call({ account: operator.sender.address, to: getAddress(row.token), data: transferCall(row) });
      return undefined;
    } catch (error) {
      return refusalOf(error, fiatTokenAbi);
    }
  }

  return {
    /**
     * Sends the refund's transfer unless its purpose has one already (then the workflow follows that).
     * A transfer the token refuses in simulation fails the refund without sending anything.
     */
    async sendRefund(refundId: string): Promise<'sent' | 'succeeded' | 'failed' | 'not_processing'> {
      const row = await processingRefund(refundId);
      if (!row) {
        const now = await refunds.findRefundById(sql, refundId);
        return now?.status === 'succeeded' || now?.status === 'failed' ? now.status : 'not_processing';
      }
      const operator = await senderFor(row);
      const purpose = refundPurpose(row.id);
      const [latest] = await ledger.findLatestOfPurposes(sql, operator.settings.chainId, [purpose]);
      if (latest && latest.outcome !== 'dropped') {
        if (latest.outcome !== 'reverted') return 'sent';
        // Reverted (the follow step died before recording it): fail with what the token says now.
        return fail(
          row,
          (await refusalNow(operator, row)) ?? { code: 'reverted', reason: 'The refund transfer reverted on chain.' },
          latest.transactionHash,
        );
      }
      return withSafeChainErrors(async () => {
        let gas: bigint;
        try {
          gas = await operator.client.estimateGas({ account: operator.sender.address, to: getAddress(row.token), data: transferCall(row) });
        } catch (error) {
          const refusal = refusalOf(error, fiatTokenAbi);
          if (refusal) return fail(row, refusal);
          throw error;
        }
        await operator.sender.send({ purpose, to: getAddress(row.token), data: transferCall(row), gas: (gas * 13n) / 10n });
        return 'sent' as const;
      });
    },

    /**
     * Follows the refund's transaction until it is mined and has the mode's confirmations, then marks
     * the refund succeeded with refund.succeeded; a revert fails it; a dropped one is sent again.
     */
    async followRefund(refundId: string): Promise<'succeeded' | 'failed' | 'dropped'> {
      const row = await processingRefund(refundId);
      if (!row) {
        const now = await refunds.findRefundById(sql, refundId);
        return now?.status === 'succeeded' ? 'succeeded' : 'failed';
      }
      const operator = await senderFor(row);
      const context = Context.current();
      const beat = setInterval(() => context.heartbeat(), 5_000);
      try {
        return await withSafeChainErrors(async () => {
          const [latest] = await ledger.findLatestOfPurposes(sql, operator.settings.chainId, [refundPurpose(row.id)]);
          if (!latest || latest.outcome === 'dropped') return 'dropped';
          let hash = latest.transactionHash as Hash;
          if (latest.outcome === null) {
            const settled = await operator.sender.settle(latest, {
              receipts: operator.receipts,
              stuckAfterMs: operator.settings.stuckAfterSeconds * 1000,
            });
            if (settled.outcome === 'dropped') return 'dropped';
            hash = settled.receipt.transactionHash;
          }
          if (latest.outcome === 'reverted') return fail(row, { code: 'reverted', reason: 'The refund transfer reverted on chain.' }, hash);
          for (;;) {
            const receipt = await operator.client.getTransactionReceipt({ hash }).catch(() => undefined);
            if (receipt && receipt.status !== 'success') {
              return fail(
                row,
                (await refusalNow(operator, row)) ?? { code: 'reverted', reason: 'The refund transfer reverted on chain.' },
                hash,
              );
            }
            if (receipt) {
              const head = await operator.client.getBlockNumber();
              if (head - receipt.blockNumber + 1n >= BigInt(operator.settings.confirmations)) {
                await commitWithEvents(sql, events, async (tx, record) => {
                  const done = await refunds.markSucceeded(tx, row.id, receipt.transactionHash, receipt.blockNumber);
                  if (done) await recordRefundEvent(record, 'refund.succeeded', done);
                });
                return 'succeeded';
              }
            }
            // Not yet confirmed (or briefly unseen during a reorg: the sender's record still stands).
            await sleep(operator.settings.pollIntervalMs, undefined, { signal: context.cancellationSignal });
          }
        });
      } finally {
        clearInterval(beat);
      }
    },
  };
}

export type RefundActivities = ReturnType<typeof createRefundActivities>;
