// The money rules of paying by transfer (docs/decisions.md, Deposit addresses). Deposits are
// credited to their session while it is open and unexpired: the session records what they add up
// to, and is paid once that reaches its amount (anything beyond is the refundable excess). A deposit
// arriving once the session expired, completed or was cancelled is late: recorded, swept to the
// merchant all the same, and announced. A deposit a reorg removed is taken back out of the sum.
// A deposit on a configured chain the session does not accept (issue 39) is late however early it came.
// Each change commits with its events; each is idempotent (status moves only from the expected one).
import type { Db, Sql } from '../db/client.js';
import { commitWithEvents, type RecordEvent } from '../events/commit.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { sessionBusinessNowMs } from '../test-clocks/business-time.js';
import * as deposits from './deposits-repo.js';
import { amountOverpaid } from './refundable.js';
import { renderPaymentSession } from './api-shape.js';
import * as sessions from './repo.js';
import { acceptsChain } from './accepted-chains.js';

/** Whether the session accepts payment on the deposit's chain. */
const onAcceptedChain = (s: sessions.PaymentSessionRow, d: deposits.DepositRow) =>
  acceptsChain(sessions.acceptedChainsOf(s), Number(d.chainId));

export type DepositAccountingDeps = { sql: Sql; events: EventDispatcher; publicBaseUrl: string };

/** What a deposit event carries beside the session: the transfer itself. */
export function renderDepositRecord(d: deposits.DepositRow) {
  return {
    id: d.id,
    object: 'deposit' as const,
    paymentSessionId: d.paymentSessionId,
    chainId: Number(d.chainId),
    address: d.depositAddress,
    from: d.fromAddress,
    amount: d.amount,
    status: d.status,
    transactionHash: d.transactionHash,
    logIndex: d.logIndex,
    blockNumber: d.blockNumber,
    sweepTransactionHash: d.sweepTransactionHash,
    livemode: d.livemode,
    createdAt: d.createdAt.toISOString(),
  };
}

async function lockSession(tx: Db, sessionId: string): Promise<sessions.PaymentSessionRow | undefined> {
  await tx`select 1 from payment_sessions where id = ${sessionId} for update`;
  return sessions.findPaymentSessionById(tx, sessionId);
}

/** Open or processing and before expiresAt in the session's business time (its test clock's, else wall time). */
async function accepting(tx: Db, s: sessions.PaymentSessionRow): Promise<boolean> {
  if (s.status !== 'open' && s.status !== 'processing') return false;
  return s.expiresAt.getTime() > (await sessionBusinessNowMs(tx, s));
}

/**
 * A deposit first recorded while the session was still being paid (before it completed and before
 * expiresAt) paid toward it, even when it is settled only after the completion: a transfer that
 * raced a relayed payment (an overpayment), or one a reorg took out and the new chain brought back
 * (its row keeps the time it first arrived). Counting it late would count it beside the payment.
 */
const arrivedWhilePaying = (s: sessions.PaymentSessionRow, d: deposits.DepositRow) =>
  s.status === 'completed' && s.completedAt !== null && d.createdAt <= s.completedAt && d.createdAt < s.expiresAt;

/**
 * Settles a pending deposit of a session that no longer accepts payment: credited when it arrived
 * while the session was being paid (announced as an overpayment when it made one), else late.
 * Returns what it became, or undefined when another call settled it first.
 */
async function settleEndedSessionDeposit(
  tx: Db,
  record: RecordEvent,
  publicBaseUrl: string,
  session: sessions.PaymentSessionRow,
  d: deposits.DepositRow,
): Promise<'credited' | 'late' | undefined> {
  if (arrivedWhilePaying(session, d) && onAcceptedChain(session, d)) {
    if (!(await deposits.setDepositStatus(tx, d.id, ['pending'], 'credited'))) return undefined;
    await deposits.recomputeReceived(tx, session.id);
    const now = (await sessions.findPaymentSessionById(tx, session.id))!;
    if (amountOverpaid(now) > amountOverpaid(session))
      await recordDepositEvent(tx, record, publicBaseUrl, session.id, 'payment.overpaid', d);
    return 'credited';
  }
  if (!(await deposits.setDepositStatus(tx, d.id, ['pending'], 'late'))) return undefined;
  await recordDepositEvent(tx, record, publicBaseUrl, session.id, 'payment.late_deposit', d);
  return 'late';
}

async function recordDepositEvent(
  tx: Db,
  record: RecordEvent,
  publicBaseUrl: string,
  sessionId: string,
  type: 'payment.partially_paid' | 'payment.overpaid' | 'payment.late_deposit' | 'payment.deposit_reversed',
  deposit: deposits.DepositRow,
): Promise<void> {
  const session = (await sessions.findPaymentSessionById(tx, sessionId))!;
  const fresh = (await deposits.findDeposit(tx, deposit.id))!;
  await record({
    merchantId: session.merchantId,
    livemode: session.livemode,
    type,
    data: { object: renderPaymentSession(session, publicBaseUrl), deposit: renderDepositRecord(fresh) },
  });
}

export type CreditOutcome =
  /** The credited deposits reach the amount: the caller completes the session with this transaction. */
  { paid: true; transactionHash: string; amountReceived: string; amountExcess: string } | { paid: false; amountReceived: string };

/**
 * Credits the session's pending deposits (or marks them late when it no longer accepts payment) and
 * recomputes what it received. Does not complete the session: its workflow does, through the one
 * completion path (payment.completed, the invoice it backs).
 */
export async function creditSessionDeposits(deps: DepositAccountingDeps, sessionId: string): Promise<CreditOutcome> {
  return commitWithEvents(deps.sql, deps.events, async (tx, record) => {
    const session = await lockSession(tx, sessionId);
    if (!session) return { paid: false, amountReceived: '0' };
    const all = await deposits.depositsOfSession(tx, sessionId);
    const open = await accepting(tx, session);
    const credited: deposits.DepositRow[] = [];
    for (const d of all.filter((x) => x.status === 'pending')) {
      if (open && onAcceptedChain(session, d)) {
        if (await deposits.setDepositStatus(tx, d.id, ['pending'], 'credited')) credited.push(d);
      } else {
        await settleEndedSessionDeposit(tx, record, deps.publicBaseUrl, session, d);
      }
    }
    const { amountReceived, amountExcess } = await deposits.recomputeReceived(tx, sessionId);
    const reached = BigInt(amountReceived) >= BigInt(session.amount);
    const last = credited.at(-1);
    if (open && reached) {
      if (last && BigInt(amountExcess) > 0n) await recordDepositEvent(tx, record, deps.publicBaseUrl, sessionId, 'payment.overpaid', last);
      // A retry whose first attempt committed the crediting (and whose worker died before reporting it)
      // finds nothing pending: it still answers paid, with the deposit that paid the session.
      const paying = last ?? all.filter((d) => d.status === 'credited').at(-1)!;
      return { paid: true, transactionHash: paying.transactionHash, amountReceived, amountExcess };
    }
    if (open && !reached && last) await recordDepositEvent(tx, record, deps.publicBaseUrl, sessionId, 'payment.partially_paid', last);
    return { paid: false, amountReceived };
  });
}

/**
 * Pending deposits of a session that no longer accepts payment become late deposits (with their
 * event), or credited ones when they arrived while it was being paid. Returns how many became late.
 */
export async function settleLateDeposits(deps: DepositAccountingDeps, sessionId: string): Promise<number> {
  return commitWithEvents(deps.sql, deps.events, async (tx, record) => {
    const session = await lockSession(tx, sessionId);
    if (!session || (await accepting(tx, session))) return 0;
    let late = 0;
    for (const d of await deposits.depositsOfSession(tx, sessionId)) {
      if (d.status === 'pending' && (await settleEndedSessionDeposit(tx, record, deps.publicBaseUrl, session, d)) === 'late') late++;
    }
    return late;
  });
}

/**
 * Pending deposits of the session on chains it does not accept become late deposits (with their
 * event), whether or not the session is still open: recorded, swept and refundable, never credited.
 */
export async function settleUnacceptedDeposits(deps: DepositAccountingDeps, sessionId: string): Promise<number> {
  return commitWithEvents(deps.sql, deps.events, async (tx, record) => {
    const session = await lockSession(tx, sessionId);
    if (!session) return 0;
    let late = 0;
    for (const d of await deposits.depositsOfSession(tx, sessionId)) {
      if (d.status !== 'pending' || onAcceptedChain(session, d)) continue;
      if (!(await deposits.setDepositStatus(tx, d.id, ['pending'], 'late'))) continue;
      await recordDepositEvent(tx, record, deps.publicBaseUrl, session.id, 'payment.late_deposit', d);
      late++;
    }
    return late;
  });
}

/**
 * A reorg removed the deposit's log: it no longer counts toward its session (a completed session
 * stays completed: completion waits for the mode's confirmations, so only a reorg deeper than those
 * reaches one, and that is reported by the event for the merchant to handle).
 */
export async function reverseDeposit(deps: DepositAccountingDeps, depositId: string): Promise<boolean> {
  return commitWithEvents(deps.sql, deps.events, async (tx, record) => {
    const deposit = await deposits.findDeposit(tx, depositId);
    if (!deposit) return false;
    await lockSession(tx, deposit.paymentSessionId);
    if (!(await deposits.setDepositStatus(tx, depositId, ['pending', 'credited', 'late'], 'removed'))) return false;
    await deposits.recomputeReceived(tx, deposit.paymentSessionId);
    await recordDepositEvent(tx, record, deps.publicBaseUrl, deposit.paymentSessionId, 'payment.deposit_reversed', deposit);
    return true;
  });
}
