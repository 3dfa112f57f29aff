// The hosted checkout link of a session that can no longer be paid, rendered whole on the server
// (issue 36, item 10): a paid link is a receipt, an expired or cancelled one says so and what to do.
// Neither page has a script, a deposit address, a QR code or a pay button: the only way to pay is
// gone, so reopening an old link cannot make a customer pay twice.
import { formatMoney } from '../money/format.js';
import { escapeHtml, frame } from './page.js';

/** Who sold it and where the customer can ask (the store name wins over the merchant's name). */
export type CheckoutSeller = { name: string; supportEmail: string | null; purchase: string | null };

export type CheckoutReceipt = {
  seller: CheckoutSeller;
  amount: string;
  currency: string;
  /** Received beyond the amount (transfers), refundable by the merchant. */
  excess: string;
  paidAt: Date | null;
  transactionHash: string | null;
  network: string;
  livemode: boolean;
  /** The merchant's success URL (http/https only), as a link back; never an automatic redirect here. */
  returnUrl: string | null;
};

export type CheckoutEnded = {
  seller: CheckoutSeller;
  reason: 'expired' | 'cancelled';
  expiresAt: Date;
  /** Received by transfer before it ended (base units), which the merchant holds and can refund. */
  received: string;
  currency: string;
  /** Where to start again: the merchant's cancel URL (http/https only). */
  shopUrl: string | null;
};

/** A link target a customer may follow: http and https only. */
export function safeLink(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** A date every reader reads the same way, whatever the server's locale: "26 Nov 2026, 15:20 UTC". */
export function utcDate(date: Date): string {
  return `${date.toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' })} UTC`;
}

function heading(seller: CheckoutSeller): string {
  const purchase = seller.purchase ? `\n  <div class="muted" id="description">${escapeHtml(seller.purchase)}</div>` : '';
  return `<h1 id="merchant">${escapeHtml(seller.name)}</h1>${purchase}`;
}

function supportLine(seller: CheckoutSeller, text: string): string {
  if (!seller.supportEmail) return '';
  const email = escapeHtml(seller.supportEmail);
  return `\n  <div id="links"><a id="support-link" href="mailto:${email}">${escapeHtml(text)}: ${email}</a></div>`;
}

/** The receipt a paid link shows. */
export function renderReceiptPage(receipt: CheckoutReceipt): string {
  const row = (label: string, id: string, value: string) => `\n    <tr><td>${label}</td><td class="num" id="${id}">${value}</td></tr>`;
  const excess =
    receipt.excess !== '0'
      ? `\n  <p class="muted" id="receipt-excess">You sent ${escapeHtml(formatMoney(receipt.excess, receipt.currency))} more than the amount: ${escapeHtml(receipt.seller.name)} can refund it.</p>`
      : '';
  const back = safeLink(receipt.returnUrl);
  return frame(
    `Receipt: ${receipt.seller.name}`,
    `<div id="receipt">
  ${heading(receipt.seller)}
  <div id="message" role="status" data-kind="success">Payment confirmed. This link is paid; there is nothing more to send.</div>
  <table id="items"><tbody>${row('Amount paid', 'receipt-amount', escapeHtml(formatMoney(receipt.amount, receipt.currency)))}${row('Paid to', 'receipt-merchant', escapeHtml(receipt.seller.name))}${row(
    'Date',
    'receipt-date',
    receipt.paidAt ? escapeHtml(utcDate(receipt.paidAt)) : '—',
  )}${row('Network', 'receipt-network', escapeHtml(receipt.network + (receipt.livemode ? '' : ' (test mode)')))}
    <tr><td colspan="2">Transaction<br><code class="muted" id="receipt-transaction">${receipt.transactionHash ? escapeHtml(receipt.transactionHash) : '—'}</code></td></tr>
  </tbody></table>${excess}${back ? `\n  <p><a id="return-link" href="${escapeHtml(back)}">Return to ${escapeHtml(receipt.seller.name)}</a></p>` : ''}${supportLine(receipt.seller, 'Questions about this payment')}
</div>`,
  );
}

/** An expired or cancelled link: no address, nothing to pay, what to do instead. */
export function renderEndedPage(ended: CheckoutEnded): string {
  const what =
    ended.reason === 'expired'
      ? `This checkout session has expired (${escapeHtml(utcDate(ended.expiresAt))}). It can no longer be paid: do not send anything to an address you copied from it.`
      : 'This checkout session was cancelled by the merchant. It can no longer be paid: do not send anything to an address you copied from it.';
  const again = `Return to ${escapeHtml(ended.seller.name)} to start a new payment.`;
  const received =
    ended.received !== '0'
      ? `\n  <p id="ended-received">You sent ${escapeHtml(formatMoney(ended.received, ended.currency))} before it ended. ${escapeHtml(ended.seller.name)} received it and can refund it: ask them${ended.seller.supportEmail ? ' below' : ''}.</p>`
      : '';
  const shop = safeLink(ended.shopUrl);
  return frame(
    ended.reason === 'expired' ? 'Checkout expired' : 'Checkout cancelled',
    `<div id="ended">
  ${heading(ended.seller)}
  <div id="message" role="status" data-kind="error">${what}</div>
  <p class="muted">${again}</p>${received}${shop ? `\n  <p><a id="shop-link" href="${escapeHtml(shop)}">Back to the shop</a></p>` : ''}${supportLine(ended.seller, 'Help')}
</div>`,
  );
}
