// Activities of paying by transfer: crediting a session's deposits (paymentSessionWorkflow) and
// sweeping deposits to the merchants' payout addresses (depositSweepWorkflow). The sweep is the
// operator's transaction through the platform's one transaction sender: its purpose names the batch,
// so a retry (or another worker after a crash) follows the transaction already recorded.
// A deposit sweeps through the factory its session's address came from (version 1 or 2). A version 2
// sweep goes item by item: a deposit whose payout the token refuses is blocked, announced and
// re-checked every `sweepRecheckSeconds` (src/payment-sessions/deposit-sweep-blocks.ts).
import { Context } from '@temporalio/activity';
import { type Address, type Hex, type TransactionReceipt, encodeFunctionData, getAddress } from 'viem';
import { publicClientFor, withSafeChainErrors } from '../src/chain/clients.js';
import { depositFactoryOf, type ChainConfig } from '../src/chain/config.js';
import { createChainResolver } from '../src/test-clocks/chain-registry.js';
import { depositIdOf } from '../src/chain/deposits/deposit-address.js';
import { depositForwarderFactoryAbi } from '../src/chain/generated/contracts.js';
import { depositForwarderFactoryV2Abi } from '../src/chain/generated/contracts.js';
import { createOperatorSender, type OperatorSender } from '../src/chain/operator-sender.js';
import { createReceiptWaiter } from '../src/chain/receipts.js';
import { signingAccount } from '../src/chain/signing-account.js';
import type { Sql } from '../src/db/client.js';
import type { EventDispatcher } from '../src/events/dispatch.js';
import { creditSessionDeposits, type CreditOutcome } from '../src/payment-sessions/deposit-accounting.js';
import { newId } from '../src/ids.js';
import * as deposits from '../src/payment-sessions/deposits-repo.js';
import { commitWithEvents } from '../src/events/commit.js';
import {
  blockDepositSweeps,
  refusalCodeOfSweepFailure,
  sweepItemOutcomes,
  sweepStillRefused,
} from '../src/payment-sessions/deposit-sweep-blocks.js';

/** Deposits swept by one transaction at most (gas per deposit: docs/operations.md, Deposit addresses). */
export const SWEEP_BATCH_LIMIT = 50;

export type DepositActivityDeps = { sql: Sql; events: EventDispatcher; chain?: ChainConfig; publicBaseUrl: string };

/** How long a blocked deposit waits before its payout is looked at again, unless the mode's settings say. */
export const DEFAULT_SWEEP_RECHECK_SECONDS = 3600;

export type SweepStep =
  | { kind: 'done'; outcome: 'swept' | 'removed' | 'not_found' }
  | { kind: 'settle'; purpose: string }
  /** The token refuses the deposit's payout: look again after `recheckAfterMs`. */
  | { kind: 'blocked'; recheckAfterMs: number };

export function createDepositActivities({ sql, events, chain = {}, publicBaseUrl }: DepositActivityDeps) {
  // One operator sender per chain: a deposit is swept on the chain it arrived on (issue 39).
  const senders = new Map<string, OperatorSender>();
  /** The mode's chains and the test clocks' forks (issue 39: the clock rows are their registry). */
  const chainOf = createChainResolver({ sql, config: chain });
  const settingsOf = (livemode: boolean, chainId: string) => chainOf(livemode, Number(chainId));
  async function operatorOf(livemode: boolean, chainId: string): Promise<OperatorSender> {
    const settings = await settingsOf(livemode, chainId);
    // Keyed by node too: a clock's fork forked again answers on another URL.
    const key = `${livemode}:${chainId}:${settings.rpcUrl}`;
    let sender = senders.get(key);
    if (!sender) {
      if (!settings.operatorKey) throw new Error(`${settings.mode} mode has no operator key: deposits cannot be swept`);
      const client = publicClientFor(settings);
      sender = createOperatorSender({
        sql,
        client,
        account: signingAccount(settings.operatorKey),
        chainId: settings.chainId,
        receipts: createReceiptWaiter(client, settings.pollIntervalMs),
        stuckAfterMs: settings.stuckAfterSeconds * 1000,
      });
      senders.set(key, sender);
    }
    return sender;
  }

  /**
   * The factory call that sweeps every deposit address of the batch (one entry per address: a session has one
   * per distinct payout, each its (depositId, payout) salt), through the batch's factory version.
   */
  async function sweepCall(livemode: boolean, purpose: string, batch: deposits.DepositRow[]) {
    const chainId = batch[0]!.chainId;
    const settings = await settingsOf(livemode, chainId);
    const byAddress = new Map<string, { depositId: Hex; payout: Address }>();
    for (const d of batch)
      byAddress.set(d.depositAddress.toLowerCase(), { depositId: depositIdOf(d.paymentSessionId), payout: getAddress(d.payoutAddress) });
    const items = [...byAddress.values()];
    const version = batch[0]!.depositFactoryVersion;
    // Both versions take the same arguments; only version 2 reports each item instead of reverting.
    const data = encodeFunctionData({
      abi: version === 2 ? depositForwarderFactoryV2Abi : depositForwarderFactoryAbi,
      functionName: 'sweepMany',
      args: [getAddress(batch[0]!.token), items.map((item) => item.depositId), items.map((item) => item.payout)],
    });
    const to = depositFactoryOf(settings, version);
    const estimate = await publicClientFor(settings).estimateGas({ account: (await operatorOf(livemode, chainId)).address, to, data });
    return { purpose, to, data, gas: (estimate * 13n) / 10n };
  }

  /**
   * A mined v2 sweep: the deposits of each address the factory reported `Swept` are swept; those of an
   * address the token refused are blocked with the refusal's code and announced to their merchant.
   * Idempotent: a retry finds them swept or blocked already and changes nothing.
   */
  async function settleItems(livemode: boolean, chainId: string, purpose: string, receipt: TransactionReceipt): Promise<void> {
    const settings = await settingsOf(livemode, chainId);
    const batch = await deposits.depositsOfSweep(sql, purpose);
    // Each item is known by its forwarder: the deposit address (one session may have two in a batch).
    const ofBatch = new Set(batch.map((d) => d.depositAddress.toLowerCase()));
    const outcomes = sweepItemOutcomes(depositFactoryOf(settings, 2), receipt.logs);
    const token = getAddress(batch[0]?.token ?? settings.token);
    const blocked = new Map<string, string[]>();
    for (const item of outcomes.failed) {
      if (!ofBatch.has(item.forwarder.toLowerCase())) continue;
      const code = await withSafeChainErrors(() => refusalCodeOfSweepFailure(publicClientFor(settings), token, item, receipt.blockNumber));
      blocked.set(code, [...(blocked.get(code) ?? []), item.forwarder]);
    }
    const swept = outcomes.swept.map((item) => item.forwarder).filter((forwarder) => ofBatch.has(forwarder.toLowerCase()));
    await commitWithEvents(sql, events, async (tx, record) => {
      await deposits.markSweptAddresses(tx, purpose, swept, receipt.transactionHash);
      for (const [code, addresses] of blocked) await blockDepositSweeps(tx, record, publicBaseUrl, purpose, addresses, code);
      // Neither reported (cannot happen with the factory's loop): let them go for the next sweep.
      await deposits.releaseSweep(tx, purpose);
    });
  }

  return {
    /** Credits the session's pending deposits (paymentSessionWorkflow, on depositReceived). */
    async creditSessionDeposits(sessionId: string): Promise<CreditOutcome> {
      return creditSessionDeposits({ sql, events, publicBaseUrl }, sessionId);
    },

    /**
     * Puts the deposit in a sweep (with every other unswept deposit of its chain and mode, up to the
     * batch limit) unless one holds it already, and makes sure that sweep's transaction was sent.
     */
    async sendDepositSweep(depositId: string): Promise<SweepStep> {
      const deposit = await deposits.findDeposit(sql, depositId);
      if (!deposit) return { kind: 'done', outcome: 'not_found' };
      if (deposit.sweptAt) return { kind: 'done', outcome: 'swept' };
      if (deposit.status === 'removed' && !deposit.sweepPurpose) return { kind: 'done', outcome: 'removed' };
      if (deposit.sweepBlockedAt && !deposit.sweepPurpose) {
        const settings = await settingsOf(deposit.livemode, deposit.chainId);
        const refused = await withSafeChainErrors(() =>
          sweepStillRefused(
            publicClientFor(settings),
            getAddress(deposit.token),
            getAddress(deposit.depositAddress),
            getAddress(deposit.payoutAddress),
          ),
        );
        if (refused) return { kind: 'blocked', recheckAfterMs: (settings.sweepRecheckSeconds ?? DEFAULT_SWEEP_RECHECK_SECONDS) * 1000 };
        await deposits.unblockDeposit(sql, depositId);
      }
      let purpose = deposit.sweepPurpose;
      if (!purpose) {
        // A new purpose for every claim: a purpose's deposits are fixed when it is claimed, so its one
        // transaction sweeps exactly them. (Reused, a deposit let go by a failed sweep could join a
        // purpose whose transaction was already sent without it, and be marked swept by it.)
        purpose = `deposit-sweep:${deposit.chainId}:${newId('depositSweep')}`;
        await deposits.claimForSweep(
          sql,
          {
            chainId: Number(deposit.chainId),
            livemode: deposit.livemode,
            token: deposit.token,
            depositFactoryVersion: deposit.depositFactoryVersion,
          },
          depositId,
          purpose,
          SWEEP_BATCH_LIMIT,
        );
        const claimed = await deposits.findDeposit(sql, depositId);
        // Skipped because another sweep was claiming it that very moment: look again on the retry.
        if (!claimed?.sweepPurpose) throw new Error(`deposit ${depositId} is being claimed by another sweep`);
        purpose = claimed.sweepPurpose;
      }
      const sender = await operatorOf(deposit.livemode, deposit.chainId);
      if (await sender.find(purpose)) return { kind: 'settle', purpose };
      const batch = await deposits.depositsOfSweep(sql, purpose);
      // Let go since it was read (its transaction failed meanwhile): the retry reads the deposit again.
      if (batch.length === 0) throw new Error(`sweep ${purpose} let its deposits go; deposit ${depositId} is claimed again`);
      await withSafeChainErrors(async () => sender.send(await sweepCall(deposit.livemode, purpose, batch)));
      return { kind: 'settle', purpose };
    },

    /** Follows the sweep's transaction until mined: success marks its deposits swept; a failure lets them go. */
    async settleDepositSweep(purpose: string): Promise<'success' | 'reverted' | 'dropped'> {
      const [first] = await deposits.depositsOfSweep(sql, purpose);
      if (!first) return 'dropped';
      if (first.sweptAt) return 'success';
      const sender = await operatorOf(first.livemode, first.chainId);
      const row = await sender.find(purpose);
      if (!row) {
        // Recorded nowhere: the claim outlived a send that never happened; let the deposits go.
        await deposits.releaseSweep(sql, purpose);
        return 'dropped';
      }
      const beat = setInterval(() => Context.current().heartbeat(), 5_000);
      try {
        const settled = await withSafeChainErrors(() => sender.settle(row));
        if (settled.outcome === 'success') {
          if (first.depositFactoryVersion === 2) await settleItems(first.livemode, first.chainId, purpose, settled.receipt);
          else await deposits.markSwept(sql, purpose, settled.receipt.transactionHash);
          return 'success';
        }
        await deposits.releaseSweep(sql, purpose);
        return settled.outcome;
      } finally {
        clearInterval(beat);
      }
    },
  };
}

export type DepositActivities = ReturnType<typeof createDepositActivities>;
