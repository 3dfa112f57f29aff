// The hosted checkout page: static HTML plus one same-origin script, built from
// web/checkout/ (src/hosted-pages/scripts.ts serves it). The server's values reach
// the script as one JSON island (#checkout-data). The script talks to the
// customer's wallet through EIP-1193 (window.ethereum.request) and to this host's
// public routes only: GET /v1/checkout/sessions/{id}, GET /v1/tokens/{address}
// and POST /checkout/{id}/pay. The page carries no key of any kind.
import { jsonIsland } from '../hosted-pages/json-island.js';
import { CHECKOUT_ISLAND_ID, type CheckoutIsland } from '../hosted-pages/checkout-island.js';

/** Served with every checkout response: scripts and requests only from this origin. */
export const CHECKOUT_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data: https:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

export const CHECKOUT_SCRIPT_PATH = '/checkout/assets/checkout.js';

const STYLE = `
  body { font-family: system-ui, sans-serif; background: #f5f6f8; margin: 0; }
  main { max-width: 420px; margin: 48px auto; background: #fff; border-radius: 12px; padding: 28px; box-shadow: 0 2px 12px rgba(0,0,0,.08); }
  h1 { font-size: 1.1rem; margin: 0 0 4px; }
  .amount { font-size: 2rem; font-weight: 600; margin: 16px 0; }
  .muted { color: #667; font-size: .85rem; word-break: break-all; }
  button { width: 100%; padding: 12px; font-size: 1rem; border: 0; border-radius: 8px; background: #2b59c3; color: #fff; cursor: pointer; }
  button:disabled { background: #9aa9cc; cursor: default; }
  #message { margin-top: 16px; min-height: 1.2em; }
  #message[data-kind=error] { color: #b00020; }
  #message[data-kind=success] { color: #0a7a3a; }
  #transfer { margin-top: 20px; border-top: 1px solid #e3e6ec; padding-top: 16px; }
  #transfer h2 { font-size: 1rem; margin: 0 0 8px; }
  #transfer .row { display: flex; gap: 8px; align-items: center; margin: 6px 0; }
  #transfer code { flex: 1; font-size: .85rem; background: #f5f6f8; padding: 6px 8px; border-radius: 6px; word-break: break-all; }
  #transfer .copy { width: auto; padding: 6px 10px; font-size: .85rem; background: #e8edf8; color: #2b59c3; }
  #network-choice { margin: 0 0 16px; }
  #network-choice select { display: block; width: 100%; margin-top: 4px; padding: 8px; font-size: 1rem; border: 1px solid #ccd2dd; border-radius: 8px; background: #fff; }
  #deposit-qr { display: block; width: 200px; max-width: 100%; height: auto; margin: 12px auto; }
  #deposit-progress { font-weight: 600; }
  #transfer .muted, #description { word-break: normal; overflow-wrap: anywhere; }
  #store-logo { display: block; max-height: 48px; max-width: 160px; margin-bottom: 8px; }
  #items { width: 100%; border-collapse: collapse; margin: 8px 0; font-size: .9rem; }
  #items td { padding: 4px 0; border-bottom: 1px solid #eef0f4; vertical-align: top; }
  #items td.num { text-align: right; white-space: nowrap; padding-left: 8px; }
  #links { margin-top: 12px; display: flex; flex-wrap: wrap; gap: 12px; font-size: .85rem; }
  #promotion { margin: 0 0 16px; }
  #promotion .code-row { display: flex; gap: 8px; margin-top: 4px; }
  #promotion input { flex: 1; min-width: 0; padding: 8px; font-size: 1rem; border: 1px solid #ccd2dd; border-radius: 8px; }
  #promotion button { width: auto; padding: 8px 14px; font-size: .9rem; background: #e8edf8; color: #2b59c3; }
  #promotion-code-message { min-height: 1.2em; font-size: .85rem; margin-top: 4px; }
  #promotion-code-message[data-kind=error] { color: #b00020; }
  #discount { margin: -8px 0 16px; }
  @media (max-width: 480px) { main { margin: 0; border-radius: 0; min-height: 100vh; padding: 20px 16px; box-sizing: border-box; } }
`;

/** A small card glyph as the tab icon (inline: the page loads nothing it does not need). */
const FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='7' fill='%232b59c3'/%3E%3Crect x='6' y='10' width='20' height='13' rx='2' fill='%23fff'/%3E%3Crect x='6' y='13' width='20' height='3' fill='%232b59c3'/%3E%3C/svg%3E";

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function frame(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${FAVICON}">
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The island and the script tag that end every checkout-style page. */
function pageScript(island: CheckoutIsland): string {
  return `${jsonIsland(CHECKOUT_ISLAND_ID, island)}
<script src="${CHECKOUT_SCRIPT_PATH}"></script>`;
}

/** The one page body both modes share; the script reads everything else from the public routes. */
function checkoutPage(title: string, target: string, island: CheckoutIsland, description: string, button: string, extra = ''): string {
  return frame(
    title,
    `<div id="checkout" ${target}>
  <h1 id="merchant">Loading…</h1>
  <div class="muted" id="description">${description}</div>
  <div class="amount" id="amount">&nbsp;</div>${extra}
  <button id="pay" type="button" disabled>${button}</button>
  <div id="message" role="status" aria-live="polite"></div>
  <div class="muted" id="details"></div>
</div>
${pageScript(island)}`,
  );
}

/** The network picker of a page whose payment or enrolment can go to several chains: shown by the script when there is a choice. */
const NETWORK_CHOICE = `
  <div id="network-choice" hidden><label class="muted" for="network">Network</label><select id="network"></select></div>`;

/** Paying by plain transfer to the session's deposit address: filled and kept current by the script. */
const TRANSFER_PANEL = `
  <section id="transfer" hidden aria-labelledby="transfer-title">
    <h2 id="transfer-title">Or send a transfer</h2>
    <div class="muted">From any wallet or exchange: send <strong id="deposit-amount"></strong> on <strong id="deposit-network"></strong> to this address.</div>
    <div class="row"><code id="deposit-address"></code><button class="copy" type="button" data-copy="deposit-address">Copy</button></div>
    <div class="row"><code id="deposit-exact"></code><button class="copy" type="button" data-copy="deposit-exact">Copy amount</button></div>
    <img id="deposit-qr" alt="QR code of the transfer for a wallet app" hidden>
    <div class="muted"><a id="deposit-link" href="#">Open in a wallet app</a></div>
    <div id="deposit-progress" role="status" aria-live="polite"></div>
    <div class="muted" id="deposit-countdown"></div>
  </section>`;

/** Optional, for paying by wallet or by transfer alike: kept on the session by POST /checkout/{id}/customer-email. */
const PAYER_EMAIL = `
  <div id="payer-email"><label class="muted" for="email">Your email (optional, shared with the seller)</label>
  <input id="email" type="email" maxlength="254" autocomplete="email" style="display:block;width:100%;margin-top:4px;padding:8px;font-size:1rem;border:1px solid #ccd2dd;border-radius:8px;box-sizing:border-box">
  <div class="muted" id="email-message" aria-live="polite"></div></div>`;

/** The page of one payment session. */
export function renderCheckoutPage(sessionId: string): string {
  return frame(
    'Checkout',
    `<div id="checkout" data-session-id="${escapeHtml(sessionId)}">
  <img id="store-logo" alt="" hidden>
  <h1 id="merchant">Loading…</h1>
  <div class="muted" id="description">Pay with your wallet</div>
  <table id="items" hidden><tbody></tbody></table>
  <div class="amount" id="amount">&nbsp;</div>${NETWORK_CHOICE}${PAYER_EMAIL}
  <button id="pay" type="button" disabled>Pay with wallet</button>
  <div id="message" role="status" aria-live="polite"></div>
  <div class="muted" id="details"></div>${TRANSFER_PANEL}
  <div id="links"><a id="cancel-link" href="#" hidden>Cancel and return to the shop</a><a id="support-link" href="#" hidden></a></div>
</div>
${pageScript({ page: 'session', sessionId })}`,
  );
}

/** The enrolment page of a subscription plan: the same frame and script, plan mode. */
export function renderPlanPage(planId: string): string {
  // Optional: where the "renew your authorisation" email goes when the permitted allowance runs low.
  const email = `
  <p><label class="muted" for="email">Email for renewal reminders (optional)</label><br>
  <input id="email" type="email" maxlength="254" autocomplete="email" style="width:100%;padding:8px;box-sizing:border-box"></p>`;
  // Optional: a promotion code, previewed by the offer route; its refusal is shown under the field.
  // A metered plan's usage prices and the cap the wallet authorises (web/checkout/metered-pricing.ts).
  const promotion = `
  <div class="muted" id="metered" hidden></div>
  <div class="muted" id="discount" hidden></div>
  <div id="promotion"><label class="muted" for="promotion-code">Promotion code</label>
  <div class="code-row"><input id="promotion-code" type="text" maxlength="64" autocomplete="off" autocapitalize="characters" spellcheck="false"><button id="apply-code" type="button">Apply</button></div>
  <div id="promotion-code-message" aria-live="polite"></div></div>`;
  return checkoutPage(
    'Subscribe',
    `data-plan-id="${escapeHtml(planId)}"`,
    { page: 'plan', planId },
    'Subscribe with your wallet',
    'Subscribe with wallet',
    promotion + NETWORK_CHOICE + email,
  );
}

/** The renewal page of a subscription's allowance (linked from the renewal email; the token stays in the URL). */
export function renderRenewalPage(subscriptionId: string): string {
  return checkoutPage(
    'Renew your subscription',
    `data-renewal-id="${escapeHtml(subscriptionId)}"`,
    { page: 'renewal', subscriptionId },
    'Renew the authorisation with your wallet',
    'Renew with wallet',
  );
}

/**
 * The approval page of a replacement enrolment (the change's hostedUrl; the token stays in the URL): an upgrade above
 * the authorised amount, or a move to another wallet.
 */
export function renderReauthorisationPage(id: string, kind: 'plan_change' | 'wallet_change'): string {
  if (kind === 'wallet_change') {
    return checkoutPage(
      'Move your subscription to this wallet',
      `data-wallet-change-id="${escapeHtml(id)}"`,
      { page: 'wallet-change', walletChangeId: id },
      'Authorise the subscription with your new wallet',
      'Approve with wallet',
    );
  }
  return checkoutPage(
    'Approve your new plan',
    `data-plan-change-id="${escapeHtml(id)}"`,
    { page: 'reauthorisation', planChangeId: id },
    'Approve the new amount with your wallet',
    'Approve with wallet',
  );
}

export function renderNotFoundPage(): string {
  return frame('Checkout not found', '<h1>Checkout not found</h1><p class="muted">This payment link does not exist.</p>');
}
