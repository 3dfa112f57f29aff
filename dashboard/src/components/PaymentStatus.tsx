// A payment's status with what its refunds took beside it, as a Stripe merchant reads its lists:
// "completed · partly refunded" tells at a glance what the status alone hides.
import type { PaymentSession } from '../types.ts';
import { StatusBadge } from './StatusBadge.tsx';

type Refunds = Pick<PaymentSession, 'amountRefunded' | 'amountRefundable'>;

/** `refunded` when refunds took everything received, `partly_refunded` when something is still refundable, else null. */
export function refundState(session: Refunds): 'refunded' | 'partly_refunded' | null {
  if (BigInt(session.amountRefunded) === 0n) return null;
  return BigInt(session.amountRefundable) === 0n ? 'refunded' : 'partly_refunded';
}

export function PaymentStatus({ session }: { session: Pick<PaymentSession, 'status'> & Refunds }) {
  const refunds = refundState(session);
  return (
    <>
      <StatusBadge status={session.status} />
      {refunds && (
        <>
          {' '}
          <StatusBadge status={refunds} />
        </>
      )}
    </>
  );
}
