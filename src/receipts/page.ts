// The receipt page behind the emailed link: server-rendered, no script (like the paid checkout link,
// src/checkout/final-pages.ts). What was paid, its lines with any discount, the transaction, the refunds of
// the money so far, and the PDF where one exists.
import { escapeHtml, frame } from '../checkout/page.js';
import { utcDate } from '../checkout/final-pages.js';
import { formatMoney } from '../money/format.js';
import { networkName } from '../payment-sessions/api-shape.js';
import type { ReceiptData } from './content.js';
import { explorerLink } from './email-text.js';

/** The refunds of the receipted money now: what was refunded of how much, or a refund's own state. */
export type RefundState = { refunded: string; of: string } | { refundStatus: string } | null;

export type ReceiptPage = { data: ReceiptData; livemode: boolean; refundState: RefundState; pdfUrl: string | null };

function refundLine(data: ReceiptData, state: RefundState): string {
  if (state === null) return 'Not refunded';
  if ('refundStatus' in state) return state.refundStatus === 'succeeded' ? 'Refund sent' : `Refund ${state.refundStatus}`;
  if (state.refunded === '0') return 'Not refunded';
  if (BigInt(state.refunded) >= BigInt(state.of)) return `Refunded in full (${formatMoney(state.refunded, data.currency)})`;
  return `Partly refunded: ${formatMoney(state.refunded, data.currency)} of ${formatMoney(state.of, data.currency)}`;
}

export function renderReceiptPage({ data, livemode, refundState, pdfUrl }: ReceiptPage): string {
  const money = (amount: string) => escapeHtml(formatMoney(amount, data.currency));
  const row = (label: string, id: string, value: string) => `\n    <tr><td>${label}</td><td class="num" id="${id}">${value}</td></tr>`;
  const lines = data.lines
    .map((line, i) => `\n    <tr data-line="${i}"><td>${escapeHtml(line.description)}</td><td class="num">${money(line.amount)}</td></tr>`)
    .join('');
  const network = data.chainId === null ? '—' : escapeHtml(networkName(data.chainId) + (livemode ? '' : ' (test mode)'));
  const explorer = explorerLink(data);
  const hash = data.transactionHash
    ? explorer
      ? `<a href="${escapeHtml(explorer)}">${escapeHtml(data.transactionHash)}</a>`
      : escapeHtml(data.transactionHash)
    : '—';
  const paid = data.kind === 'refund' ? 'Amount refunded' : 'Amount paid';
  return frame(
    `Receipt: ${data.merchantName}`,
    `<div id="receipt" data-kind="${escapeHtml(data.kind)}">
  <h1 id="merchant">${escapeHtml(data.merchantName)}</h1>
  <div class="muted" id="description">${escapeHtml(data.title)}</div>
  <div class="amount" id="receipt-amount">${money(data.amount)}</div>
  <table id="items"><tbody>${lines}${row(paid, 'receipt-total', money(data.amount))}${row('Date', 'receipt-date', escapeHtml(utcDate(new Date(data.date))))}${row(
    'Network',
    'receipt-network',
    network,
  )}${row('Refunds', 'receipt-refunds', escapeHtml(refundLine(data, refundState)))}
    <tr><td colspan="2">Transaction<br><code class="muted" id="receipt-transaction">${hash}</code></td></tr>
  </tbody></table>${pdfUrl ? `\n  <div id="links"><a id="receipt-pdf" href="${escapeHtml(pdfUrl)}">Download the PDF</a></div>` : ''}
</div>`,
  );
}

/** Every miss looks the same: an unknown, malformed or revoked token. */
export function receiptNotFoundHtml(): string {
  return frame(
    'Receipt not found',
    '<div id="receipt-missing"><h1>Receipt not found</h1><p class="muted">This link does not lead to a receipt.</p></div>',
  );
}
