// What a payment session paid in total and what of it can still be refunded: one rule for the API's
// `amountRefundable` and for POST /v1/refunds, so the dashboard prefills exactly what the API accepts.
import type { PaymentSessionRow } from './repo.js';

type Paid = Pick<PaymentSessionRow, 'status' | 'amount' | 'amountReceived' | 'amountLate'>;

const maxOf = (a: bigint, b: bigint) => (a > b ? a : b);

/** The payment (with any overpayment by transfer) once completed, plus late deposits, which an expired session can hold too. */
export function amountPaid(session: Paid): bigint {
  const payment = session.status === 'completed' ? maxOf(BigInt(session.amount), BigInt(session.amountReceived)) : 0n;
  return payment + BigInt(session.amountLate);
}

/** Paid in total minus refunds pending, processing or succeeded (failed and cancelled ones reserve nothing); never below 0. */
export function amountRefundable(session: Paid & Pick<PaymentSessionRow, 'amountRefunded'>): bigint {
  return maxOf(amountPaid(session) - BigInt(session.amountRefunded), 0n);
}
