// The hosted refund-claim page: server-rendered HTML with a plain form that posts the customer's
// address back to the same URL. No script at all (nothing to build or inject), a strict CSP, and a
// layout that reads at 390 px as at 1280 px.
import { formatMoney } from '../money/format.js';
import { escapeHtml } from '../storefront/page.js';
import type { ClaimView } from './service.js';

/** Served with every claim page: no script, forms only to this origin, never framed, cached or leaked by referrer. */
export const CLAIM_PAGE_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

const STYLE = `
  * { box-sizing: border-box; }
  body { font-family: system-ui, sans-serif; background: #f5f6f8; margin: 0; padding: 16px; color: #1c2030; }
  main { max-width: 460px; margin: 32px auto; background: #fff; border-radius: 12px; padding: 24px; box-shadow: 0 2px 12px rgba(0,0,0,.08); }
  h1 { font-size: 1.15rem; margin: 0 0 4px; }
  .amount { font-size: 2rem; font-weight: 600; margin: 12px 0; overflow-wrap: anywhere; }
  .muted { color: #556; font-size: .9rem; }
  label { display: block; font-weight: 600; margin: 16px 0 6px; }
  input { width: 100%; padding: 10px; font: inherit; font-family: ui-monospace, monospace; font-size: .9rem; border: 1px solid #aab; border-radius: 8px; }
  button { width: 100%; margin-top: 14px; padding: 12px; font-size: 1rem; border: 0; border-radius: 8px; background: #2b59c3; color: #fff; cursor: pointer; }
  .error { color: #a11; }
  .done { color: #175; }
  code { overflow-wrap: anywhere; }
`;

function frame(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

/** The page for a refund: the form while it waits for an address, else what happened to it. */
export function renderClaimPage(view: ClaimView, notice?: { error?: string; address?: string }): string {
  const head = `<h1>Refund from ${escapeHtml(view.merchantName)}</h1>
<div class="amount" data-testid="claim-amount">${escapeHtml(formatMoney(view.amount, view.currency))}</div>`;
  if (view.status === 'requires_action') {
    const error = notice?.error ? `<p class="error" role="alert">${escapeHtml(notice.error)}</p>` : '';
    return frame(
      'Claim your refund',
      `${head}
<p class="muted">Your payment cannot be traced to a single wallet, so ${escapeHtml(view.merchantName)} asks where to send your refund.
Give the address of a wallet you control that accepts ${escapeHtml(view.currency)} on chain ${view.chainId}. It can be given once.</p>
<form method="post">
<label for="address">Your wallet address</label>
<input id="address" name="address" required autocomplete="off" spellcheck="false" placeholder="0x…" value="${escapeHtml(notice?.address ?? '')}">
${error}
<button type="submit">Send my refund to this address</button>
</form>`,
    );
  }
  if (view.status === 'cancelled')
    return frame('Refund cancelled', `${head}<p role="status">The merchant cancelled this refund. Contact them if you expected it.</p>`);
  const where = view.recipient ? ` to <code data-testid="claim-recipient">${escapeHtml(view.recipient)}</code>` : '';
  const state =
    view.status === 'succeeded'
      ? 'has been sent'
      : view.status === 'failed'
        ? 'could not be sent; the merchant has been told'
        : 'is on its way';
  return frame(
    'Refund claimed',
    `${head}<p class="done" role="status">Your refund ${state}${where}. The address cannot be changed here.</p>`,
  );
}

export const claimNotFoundPage = (): string =>
  frame(
    'Refund link not found',
    '<h1>Refund link not found</h1><p class="muted">This link is not valid. Use the link from your email, or contact the merchant.</p>',
  );
