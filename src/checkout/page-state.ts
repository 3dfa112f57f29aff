// What the hosted checkout link of a payment session may show, decided on the server from the
// session row (issue 36, items 10 and 11): only a session that can still be paid shows where to pay.
// A paid link shows a receipt and an ended one says so; neither carries a deposit address or a QR code,
// so a customer who reopens an old link cannot pay it a second time.
import type { PaymentSessionRow } from '../payment-sessions/repo.js';

export type CheckoutPageState = 'payable' | 'processing' | 'paid' | 'expired' | 'cancelled';

export function checkoutPageState(row: Pick<PaymentSessionRow, 'status' | 'expiresAt'>, now = new Date()): CheckoutPageState {
  switch (row.status) {
    case 'completed':
      return 'paid';
    case 'cancelled':
      return 'cancelled';
    case 'expired':
      return 'expired';
    case 'processing':
      return 'processing';
    case 'open':
      // Past its expiry the session cannot take money any more, even before the workflow marks it.
      return row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'payable';
  }
}

/** Whether the page (and its QR route) may show the session's deposit address. */
export const showsDepositAddress = (state: CheckoutPageState): boolean => state === 'payable';
