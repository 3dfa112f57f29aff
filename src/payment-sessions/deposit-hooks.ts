// The indexer hook of paying by transfer: a confirmed token Transfer into a payment session's
// deposit address is recorded as a deposit (once per log), its sweep workflow is started (once per
// deposit), and the session hears of it: its workflow credits the deposit while the session is open;
// a session that has ended gets it as a late deposit at once. A reorg that removes the transfer takes
// the deposit back out (unwind). Every step is idempotent: the indexer calls hooks at least once.
// A deposit address is the same on every chain of the mode that pays the same payout (a chain with a payout
// of its own has its own address): a transfer to any of a session's addresses, on any chain, finds the session;
// on a chain the session accepts it pays toward it, on another configured chain it is a late deposit. Either
// way it is swept to the payout the receiving address was made for.
import type { Client } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/client';
import { getAddress, isAddressEqual } from 'viem';
import type { Sql } from '../db/client.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { newId } from '../ids.js';
import { hookPoints, startWorkflowOnce, type ChainEvent, type ChainHook, type HookContext } from '../indexer/hooks.js';
import { signalIfRunning, signalWithStart } from '../temporal/signals.js';
import { depositSweepWorkflow, depositSweepWorkflowId } from '../../workflows/deposit-sweep.js';
import { depositReceivedSignal, paymentSessionWorkflow, paymentSessionWorkflowId } from '../../workflows/payment-session.js';
import { reverseDeposit, settleLateDeposits, settleUnacceptedDeposits } from './deposit-accounting.js';
import { chainsOf, type ChainConfig } from '../chain/config.js';
import * as deposits from './deposits-repo.js';
import * as sessions from './repo.js';
import { paymentSessionWorkflowRun } from './starts.js';

export type DepositHookDeps = {
  sql: Sql;
  events: EventDispatcher;
  temporal?: Client;
  taskQueue: string;
  publicBaseUrl: string;
  /** The configured chains: the token of a chain the session does not accept (without it, such transfers are ignored). */
  chain?: ChainConfig;
};

/** The token a transfer on the event's chain must be of to pay the session: the accepted chain's, else the configured chain's. */
function tokenOn(
  deps: DepositHookDeps,
  target: deposits.DepositTarget,
  event: ChainEvent,
): { token: string; accepted: boolean } | undefined {
  const accepted = sessions.acceptedChainsOf(target).find((chain) => chain.chainId === event.chainId);
  if (accepted) return { token: accepted.token, accepted: true };
  const configured = chainsOf(deps.chain ?? {}, event.livemode).find((chain) => chain.chainId === event.chainId);
  return configured ? { token: configured.token, accepted: false } : undefined;
}

function temporalOf(deps: DepositHookDeps, context: HookContext): Client {
  const temporal = context.temporal ?? deps.temporal;
  if (!temporal) throw new Error('deposit hooks need a Temporal client');
  return temporal;
}

export async function onTransferToDepositAddress(deps: DepositHookDeps, event: ChainEvent, context: HookContext): Promise<void> {
  const to = String(event.args.to ?? '');
  const value = BigInt(String(event.args.value ?? 0));
  if (!to || value <= 0n) return;
  const target = await deposits.findSessionByDepositAddress(deps.sql, event.livemode, to);
  const expected = target && tokenOn(deps, target, event);
  // Another token sent to the address is not a payment (it stays there; docs/operations.md).
  if (!target || !expected || !isAddressEqual(getAddress(expected.token), event.address)) return;
  const deposit = await deposits.upsertDeposit(deps.sql, {
    id: newId('deposit'),
    paymentSessionId: target.id,
    merchantId: target.merchantId,
    livemode: event.livemode,
    chainId: String(event.chainId),
    token: getAddress(expected.token),
    depositAddress: getAddress(to),
    // The payout the receiving address's salt binds: the only address its forwarder can ever pay.
    payoutAddress: getAddress(sessions.payoutBoundTo(target, to) ?? target.payTo),
    fromAddress: getAddress(String(event.args.from)),
    amount: value.toString(),
    transactionHash: event.transactionHash,
    logIndex: event.logIndex,
    blockNumber: event.blockNumber.toString(),
  });
  const temporal = temporalOf(deps, context);
  const session = (await sessions.findPaymentSessionById(deps.sql, target.id))!;
  await startWorkflowOnce(temporal, depositSweepWorkflow, {
    workflowId: depositSweepWorkflowId(deposit.id),
    taskQueue: deps.taskQueue,
    args: [{ depositId: deposit.id }],
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    tags: { merchantId: session.merchantId, livemode: session.livemode, chainId: Number(deposit.chainId) },
  });
  if (deposit.status !== 'pending') return;
  if (!expected.accepted) {
    await settleUnacceptedDeposits(deps, session.id);
    return;
  }
  if (session.status === 'open' || session.status === 'processing') {
    await signalWithStart(temporal, paymentSessionWorkflow, paymentSessionWorkflowRun(deps.taskQueue, session), depositReceivedSignal, {
      depositId: deposit.id,
    });
  } else {
    await settleLateDeposits(deps, session.id);
  }
}

export async function onDepositTransferRemoved(deps: DepositHookDeps, event: ChainEvent, context: HookContext): Promise<void> {
  const deposit = await deposits.findDepositByLog(deps.sql, event.chainId, event.transactionHash, event.logIndex);
  if (!deposit) return;
  if (await reverseDeposit(deps, deposit.id)) {
    // An open session shows the smaller amount received at once (the workflow re-reads it on its next signal).
    await signalIfRunning(temporalOf(deps, context), paymentSessionWorkflowId(deposit.paymentSessionId), depositReceivedSignal, {
      depositId: deposit.id,
    });
  }
}

export function depositIndexerHooks(deps: DepositHookDeps): ChainHook[] {
  return [
    hookPoints.transferTo(
      'payment-session-deposits',
      (event, context) => onTransferToDepositAddress(deps, event, context),
      (event, context) => onDepositTransferRemoved(deps, event, context),
    ),
  ];
}
