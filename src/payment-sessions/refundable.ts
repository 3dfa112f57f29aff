// What a payment session received in total and what of it can still be refunded: one rule for the
// API's `amountRefundable` and for POST /v1/refunds, so the dashboard prefills exactly what the API
// accepts. Every receipt counts once, whatever became of the session (docs/refunds.md, "What is
// refundable"): a confirmed relayed payment, the transfers credited to it (a partial payment of a
// session that then expired or was cancelled included) and its late deposits.
import type { PaymentSessionRow } from './repo.js';

type Paid = Pick<PaymentSessionRow, 'status' | 'amount' | 'amountReceived' | 'amountRelayed' | 'amountLate'>;

const maxOf = (a: bigint, b: bigint) => (a > b ? a : b);

/** What paid toward the session's amount: the confirmed relayed payment plus the credited transfers. */
export function amountPaidTowardSession(session: Pick<PaymentSessionRow, 'amountReceived' | 'amountRelayed'>): bigint {
  return BigInt(session.amountRelayed) + BigInt(session.amountReceived);
}

/** What the customer still owes: nothing once completed. */
export function amountDue(session: Pick<PaymentSessionRow, 'status' | 'amount' | 'amountReceived' | 'amountRelayed'>): bigint {
  if (session.status === 'completed') return 0n;
  return maxOf(BigInt(session.amount) - amountPaidTowardSession(session), 0n);
}

/** What was paid beyond the amount (by a transfer, or a transfer and a relayed payment both): refundable. */
export function amountOverpaid(session: Pick<PaymentSessionRow, 'amount' | 'amountReceived' | 'amountRelayed'>): bigint {
  return maxOf(amountPaidTowardSession(session) - BigInt(session.amount), 0n);
}

/**
 * Everything the merchant received for the session: what paid toward it plus late deposits. A
 * completed session counts at least its amount (it was paid, however that was recorded).
 */
export function amountPaid(session: Paid): bigint {
  const toward = amountPaidTowardSession(session);
  const payment = session.status === 'completed' ? maxOf(BigInt(session.amount), toward) : toward;
  return payment + BigInt(session.amountLate);
}

/** Paid in total minus refunds pending, processing or succeeded (failed and cancelled ones reserve nothing); never below 0. */
export function amountRefundable(session: Paid & Pick<PaymentSessionRow, 'amountRefunded'>): bigint {
  return maxOf(amountPaid(session) - BigInt(session.amountRefunded), 0n);
}
