// The customer portal's page: a static shell plus one same-origin script built from web/portal/
// (src/hosted-pages/scripts.ts serves it). The session token is in the link's fragment, which the
// browser never sends: the script reads it and calls /billing-portal/api/* with it as a bearer token.
// Nothing merchant- or customer-provided is in this HTML; the script writes it as text.
import { CHECKOUT_SECURITY_HEADERS } from '../checkout/page.js';

/** The hosted checkout's: scripts and requests only from this origin, no framing, no referrer, no cache. */
export const PORTAL_SECURITY_HEADERS: Record<string, string> = CHECKOUT_SECURITY_HEADERS;

export const PORTAL_SCRIPT_PATH = '/billing-portal/assets/portal.js';

const STYLE = `
  * { box-sizing: border-box; }
  body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #f5f6f8; margin: 0; color: #15181d; line-height: 1.45; }
  main { max-width: 720px; margin: 32px auto; padding: 0 16px; }
  header { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: baseline; gap: 8px; margin-bottom: 16px; }
  h1 { font-size: 1.3rem; margin: 0; overflow-wrap: anywhere; }
  h2 { font-size: 1.05rem; margin: 24px 0 8px; }
  .card { background: #fff; border-radius: 12px; padding: 16px; margin-bottom: 12px; box-shadow: 0 1px 6px rgba(0,0,0,.07); }
  .row { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 4px 12px; }
  .muted { color: #5d6673; font-size: .88rem; overflow-wrap: anywhere; }
  .status { font-size: .8rem; padding: 2px 8px; border-radius: 999px; background: #e8edf8; color: #2b59c3; }
  .amount { font-size: 1.2rem; font-weight: 600; }
  .actions { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 12px; }
  button { padding: 10px 14px; font-size: .95rem; border: 0; border-radius: 8px; background: #2b59c3; color: #fff; cursor: pointer; }
  button.secondary { background: #e8edf8; color: #2b59c3; }
  button.danger { background: #b00020; }
  button:disabled { opacity: .6; cursor: default; }
  select, input { width: 100%; padding: 8px; font-size: 1rem; border: 1px solid #ccd2dd; border-radius: 8px; background: #fff; margin: 4px 0 8px; }
  form.panel { margin-top: 12px; border-top: 1px solid #eef0f4; padding-top: 12px; }
  label { font-size: .88rem; color: #5d6673; }
  table { width: 100%; border-collapse: collapse; font-size: .9rem; }
  td { padding: 6px 0; border-bottom: 1px solid #eef0f4; vertical-align: top; }
  td.num { text-align: right; white-space: nowrap; padding-left: 8px; }
  #message { min-height: 1.2em; margin: 8px 0; }
  #message[data-kind=error] { color: #b00020; }
  #message[data-kind=success] { color: #0a7a3a; }
  @media (max-width: 480px) { main { margin: 16px auto; padding: 0 12px; } .actions button { flex: 1 1 100%; } }
`;

/** The portal page: everything inside <main> is written by the script. */
export function renderPortalPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Manage your subscription</title>
<style>${STYLE}</style>
</head>
<body>
<main id="portal">
  <header><h1 id="merchant">Loading…</h1><a id="return-link" href="#" hidden></a></header>
  <button id="sign-in" type="button" hidden>Sign in with your wallet</button>
  <div id="message" role="status" aria-live="polite"></div>
  <section aria-labelledby="subscriptions-title"><h2 id="subscriptions-title">Subscriptions</h2><div id="subscriptions"></div></section>
  <section aria-labelledby="payments-title"><h2 id="payments-title">Payments</h2><div class="card"><table id="payments"><tbody></tbody></table></div></section>
  <section aria-labelledby="invoices-title"><h2 id="invoices-title">Invoices</h2><div class="card"><table id="invoices"><tbody></tbody></table></div></section>
</main>
<script src="${PORTAL_SCRIPT_PATH}"></script>
</body>
</html>
`;
}
