// The hosted invoice page: what the customer sees behind hostedInvoiceUrl. Server-rendered, no
// script; every text the merchant or customer typed is escaped.
import { escapeHtml } from '../storefront/page.js';
import type { InvoiceDocument } from './page-text.js';

const STATUS_WORDS: Record<InvoiceDocument['status'], string> = {
  draft: 'Draft',
  sent: 'Open',
  overdue: 'Overdue',
  paid: 'Paid',
  void: 'Void',
};

export function invoicePageHtml(doc: InvoiceDocument): string {
  const e = escapeHtml;
  const lines = doc.lines
    .map(
      (line) =>
        `<tr><td>${e(line.description)}</td><td class="num">${e(line.quantity)}</td><td class="num">${e(line.unitAmount)}</td><td class="num">${e(line.amount)}</td></tr>`,
    )
    .join('');
  const pay = doc.payable ? `<a class="pay" href="${e(doc.payUrl)}">Pay ${e(doc.total)}</a>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Invoice ${e(doc.number)} from ${e(doc.merchantName)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f5f6f8;color:#111}
main{max-width:720px;margin:2rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 3px #0002}
h1{margin:0 0 .25rem;font-size:1.4rem}.muted{color:#555}
.status{display:inline-block;padding:.1rem .5rem;border-radius:4px;background:#eef;font-size:.85rem}
.status-paid{background:#dfd}.status-overdue{background:#fdd}.status-void{background:#eee}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{color:#555}dd{margin:0}
.table{overflow-x:auto}table{width:100%;border-collapse:collapse;margin:1rem 0}th,td{padding:.4rem;border-bottom:1px solid #ddd;text-align:left}
.num{text-align:right;white-space:nowrap}tfoot td{font-weight:700;border-bottom:none}
.pay{display:inline-block;background:#1a56db;color:#fff;padding:.7rem 1.4rem;border-radius:6px;text-decoration:none;font-weight:600}
.actions{display:flex;gap:1rem;align-items:center;flex-wrap:wrap}
@media (max-width:480px){main{margin:0;border-radius:0;padding:1rem}table{font-size:.9rem}th,td{padding:.4rem .2rem}.num{white-space:normal}}
</style></head>
<body><main>
<p class="muted">${e(doc.merchantName)}</p>
<h1>Invoice ${e(doc.number)}</h1>
<p><span class="status status-${e(doc.status)}" data-status="${e(doc.status)}">${e(STATUS_WORDS[doc.status])}</span></p>
<dl>
<dt>Issued</dt><dd>${e(doc.issuedOn)}</dd>
<dt>Due</dt><dd>${e(doc.dueOn)}</dd>
${doc.paidOn ? `<dt>Paid</dt><dd>${e(doc.paidOn)}</dd>` : ''}
<dt>Bill to</dt><dd>${doc.customerName ? `${e(doc.customerName)}<br>` : ''}${e(doc.customerEmail ?? '-')}</dd>
</dl>
<div class="table"><table>
<thead><tr><th>Description</th><th class="num">Qty</th><th class="num">Unit price</th><th class="num">Amount</th></tr></thead>
<tbody>${lines}</tbody>
<tfoot><tr><td colspan="3">Total</td><td class="num">${e(doc.total)}</td></tr></tfoot>
</table></div>
${doc.note ? `<p>${e(doc.note)}</p>` : ''}
<div class="actions">${pay}<a href="${e(doc.hostedUrl)}.pdf" download>Download PDF</a></div>
</main></body></html>`;
}

export function invoiceNotFoundHtml(): string {
  return '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Invoice not found</title></head><body><main><h1>Invoice not found</h1><p>This link does not lead to an invoice.</p></main></body></html>';
}
