// The hosted checkout page: static HTML plus one same-origin script (no CDN, no
// bundler). The script talks to the customer's wallet through EIP-1193
// (window.ethereum.request) and to this host's public routes only:
// GET /v1/checkout/sessions/{id}, GET /v1/tokens/{address} and
// POST /checkout/{id}/pay. The page carries no key of any kind.
import { toFunctionSelector } from 'viem';
import { payerRefusalMessages } from '../chain/refusals.js';
import { EIP3009_TYPES, EIP712_DOMAIN_TYPE, PERMIT_TYPES } from '../chain/token-typed-data.js';

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
  #deposit-qr { display: block; width: 200px; max-width: 100%; height: auto; margin: 12px auto; }
  #deposit-progress { font-weight: 600; }
  #transfer .muted, #description { word-break: normal; overflow-wrap: anywhere; }
  #store-logo { display: block; max-height: 48px; max-width: 160px; margin-bottom: 8px; }
  #items { width: 100%; border-collapse: collapse; margin: 8px 0; font-size: .9rem; }
  #items td { padding: 4px 0; border-bottom: 1px solid #eef0f4; vertical-align: top; }
  #items td.num { text-align: right; white-space: nowrap; padding-left: 8px; }
  #links { margin-top: 12px; display: flex; flex-wrap: wrap; gap: 12px; font-size: .85rem; }
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

/** The one page body both modes share; the script reads everything else from the public routes. */
function checkoutPage(title: string, target: string, description: string, button: string, extra = ''): string {
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
<script src="${CHECKOUT_SCRIPT_PATH}"></script>`,
  );
}

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

/** The page of one payment session. */
export function renderCheckoutPage(sessionId: string): string {
  return frame(
    'Checkout',
    `<div id="checkout" data-session-id="${escapeHtml(sessionId)}">
  <img id="store-logo" alt="" hidden>
  <h1 id="merchant">Loading…</h1>
  <div class="muted" id="description">Pay with your wallet</div>
  <table id="items" hidden><tbody></tbody></table>
  <div class="amount" id="amount">&nbsp;</div>
  <button id="pay" type="button" disabled>Pay with wallet</button>
  <div id="message" role="status" aria-live="polite"></div>
  <div class="muted" id="details"></div>${TRANSFER_PANEL}
  <div id="links"><a id="cancel-link" href="#" hidden>Cancel and return to the shop</a><a id="support-link" href="#" hidden></a></div>
</div>
<script src="${CHECKOUT_SCRIPT_PATH}"></script>`,
  );
}

/** The enrolment page of a subscription plan: the same frame and script, plan mode. */
export function renderPlanPage(planId: string): string {
  // Optional: where the "renew your authorisation" email goes when the permitted allowance runs low.
  const email = `
  <p><label class="muted" for="email">Email for renewal reminders (optional)</label><br>
  <input id="email" type="email" maxlength="254" autocomplete="email" style="width:100%;padding:8px;box-sizing:border-box"></p>`;
  return checkoutPage('Subscribe', `data-plan-id="${escapeHtml(planId)}"`, 'Subscribe with your wallet', 'Subscribe with wallet', email);
}

/** The renewal page of a subscription's allowance (linked from the renewal email; the token stays in the URL). */
export function renderRenewalPage(subscriptionId: string): string {
  return checkoutPage(
    'Renew your subscription',
    `data-renewal-id="${escapeHtml(subscriptionId)}"`,
    'Renew the authorisation with your wallet',
    'Renew with wallet',
  );
}

export function renderNotFoundPage(): string {
  return frame('Checkout not found', '<h1>Checkout not found</h1><p class="muted">This payment link does not exist.</p>');
}

/**
 * The checkout script. Plain ES2020 for any current browser; written as a string so that it is
 * served byte for byte as reviewed here (no transpiler in between).
 */
export const CHECKOUT_SCRIPT = String.raw`'use strict';
(function () {
  var root = document.getElementById('checkout');
  if (!root) return;
  var sessionId = root.getAttribute('data-session-id');
  var planId = root.getAttribute('data-plan-id');
  var renewalId = root.getAttribute('data-renewal-id');
  var renewalToken = new URLSearchParams(location.search).get('token') || '';
  var payButton = document.getElementById('pay');
  var messageEl = document.getElementById('message');
  var state = { session: null, token: null, offer: null, busy: false };

  // The payer's sentence per token refusal code (src/chain/refusals.ts, the one place they are written).
  var REFUSALS = ${JSON.stringify(payerRefusalMessages())};
  // The token's EIP-712 message types (src/chain/token-typed-data.ts, shared with the server and the dashboard).
  var DOMAIN_TYPE = ${JSON.stringify(EIP712_DOMAIN_TYPE)};
  var TRANSFER_FIELDS = ${JSON.stringify(EIP3009_TYPES.TransferWithAuthorization)};
  var PERMIT_FIELDS = ${JSON.stringify(PERMIT_TYPES.Permit)};
  var SELECTORS = { paused: '${toFunctionSelector('paused()')}', isBlacklisted: '${toFunctionSelector('isBlacklisted(address)')}' };

  var MESSAGES = {
    noWallet: 'No wallet found. Install or open an Ethereum wallet (EIP-1193) in this browser and reload the page.',
    noWalletTransfer: 'No wallet in this browser. Send the transfer below from any wallet or exchange instead.',
    rejected: 'You rejected the signature request in your wallet. Nothing was paid; you can try again.',
    rejectedConnect: 'You did not connect your wallet. Nothing was paid; you can try again.',
    expired: 'This checkout session has expired. Return to the merchant to start a new payment.',
    cancelled: 'This checkout session was cancelled by the merchant.',
    completed: 'This checkout session is already paid.',
    processing: 'A payment for this session is being confirmed…',
    failedOnChain: 'The payment could not be completed on-chain. Nothing was taken; you can try again.',
    tokenUnsupported: 'This token cannot be paid by signature (EIP-3009) on this network.'
  };

  function show(kind, text) {
    messageEl.setAttribute('data-kind', kind);
    messageEl.textContent = text;
  }

  function setBusy(busy, label) {
    state.busy = busy;
    payButton.disabled = busy;
    if (label) payButton.textContent = label;
  }

  function formatUnits(value, decimals) {
    var s = BigInt(value).toString();
    if (decimals === 0) return s;
    while (s.length <= decimals) s = '0' + s;
    var whole = s.slice(0, s.length - decimals);
    var frac = s.slice(s.length - decimals).replace(/0+$/, '');
    if (frac.length < 2) frac = (frac + '00').slice(0, 2);
    return whole + '.' + frac;
  }

  function getJson(url) {
    return fetch(url, { headers: { accept: 'application/json' }, credentials: 'omit', cache: 'no-store' }).then(function (r) {
      return r.json().then(function (body) {
        if (!r.ok) throw apiError(body, r.status);
        return body;
      });
    });
  }

  function apiError(body, status) {
    var e = new Error((body && body.error && body.error.message) || ('Request failed (' + status + ')'));
    e.api = (body && body.error) || { code: 'api_error' };
    e.status = status;
    return e;
  }

  function randomNonce() {
    var bytes = new Uint8Array(32);
    crypto.getRandomValues(bytes);
    var hex = '0x';
    for (var i = 0; i < bytes.length; i++) hex += bytes[i].toString(16).padStart(2, '0');
    return hex;
  }

  function isExpired(session) {
    return session.status === 'expired' || (session.status === 'open' && Date.parse(session.expiresAt) <= Date.now());
  }

  function statusMessage(session) {
    if (isExpired(session)) return ['error', MESSAGES.expired];
    if (session.status === 'cancelled') return ['error', MESSAGES.cancelled];
    if (session.status === 'completed') return ['success', MESSAGES.completed];
    if (session.status === 'processing') return ['info', MESSAGES.processing];
    return null;
  }

  function safeRedirectUrl(url) {
    if (!url) return null;
    try {
      var u = new URL(url);
      return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
    } catch (e) {
      return null;
    }
  }

  function succeed(session) {
    setBusy(true, 'Paid');
    renderTransfer(session);
    var target = safeRedirectUrl(session.successUrl);
    show('success', target ? 'Payment confirmed. Returning you to ' + (session.merchantName || 'the merchant') + '…' : 'Payment confirmed. Thank you!');
    // Without a success URL the server's receipt replaces this page (src/checkout/final-pages.ts).
    setTimeout(function () { if (target) window.location.assign(target); else showServerPage(); }, 800);
  }

  /**
   * The session ended (paid, expired or cancelled by the server's word): the server renders what the
   * link shows from now on, a receipt or the ended page, with no address on it. Never on the
   * browser's own clock alone: that only hides the transfer (renderTransfer), so a wrong clock cannot loop.
   */
  function showServerPage() {
    window.location.replace(window.location.pathname);
  }

  /** Polls the session; nonce (of the authorization this page posted) names why its payment failed. */
  function pollUntilDone(nonce) {
    return getJson('/v1/checkout/sessions/' + encodeURIComponent(sessionId)).then(function (session) {
      state.session = session;
      if (session.status === 'completed') return succeed(session);
      if (session.status === 'open' && !isExpired(session)) {
        if (!nonce) {
          // Opened or reloaded while a payment was processing: the session says why it failed.
          setBusy(false, 'Pay with wallet');
          var failure = session.lastPaymentError;
          return show('error', (failure && refusalText(failure.code)) || MESSAGES.failedOnChain);
        }
        return getJson('/checkout/' + encodeURIComponent(sessionId) + '/payments/' + nonce).then(function (payment) {
          if (payment.submissionStatus !== 'failed') {
            return new Promise(function (resolve) { setTimeout(resolve, 1000); }).then(function () { return pollUntilDone(nonce); });
          }
          setBusy(false, 'Pay with wallet');
          return show('error', refusalText(payment.failureCode) || MESSAGES.failedOnChain);
        });
      }
      if (session.status !== 'processing') {
        var m = statusMessage(session);
        setBusy(true);
        renderTransfer(session);
        show(m[0], m[1]);
        if (session.status === 'expired' || session.status === 'cancelled') showServerPage();
        return;
      }
      return new Promise(function (resolve) { setTimeout(resolve, 1000); }).then(function () { return pollUntilDone(nonce); });
    });
  }

  function wallet(method, params) {
    return window.ethereum.request(params === undefined ? { method: method } : { method: method, params: params });
  }

  function balanceOf(token, owner) {
    var data = '0x70a08231' + owner.slice(2).toLowerCase().padStart(64, '0');
    return wallet('eth_call', [{ to: token, data: data }, 'latest']).then(function (hex) {
      return BigInt(hex && hex !== '0x' ? hex : '0x0');
    });
  }

  function ensureNetwork(expected) {
    return wallet('eth_chainId').then(function (hex) {
      var current = Number(BigInt(hex));
      if (current === expected) return;
      var wanted = '0x' + expected.toString(16);
      return wallet('wallet_switchEthereumChain', [{ chainId: wanted }]).then(
        function () {
          return wallet('eth_chainId').then(function (after) {
            if (Number(BigInt(after)) !== expected) throw wrongNetwork(current, expected);
          });
        },
        function () { throw wrongNetwork(current, expected); }
      );
    });
  }

  function wrongNetwork(current, expected) {
    var e = new Error('Your wallet is on the wrong network (chain ' + current + '). Switch your wallet to chain ' + expected + ' and try again.');
    e.userMessage = true;
    return e;
  }

  /** What the wallet pays: the amount, less what transfers to the deposit address already paid. */
  function amountDue(session) {
    return session.deposit ? session.deposit.amountRemaining : session.amount;
  }

  function typedData(session, token, account) {
    var now = Math.floor(Date.now() / 1000);
    var expiry = Math.floor(Date.parse(session.expiresAt) / 1000);
    var validBefore = Math.min(expiry, now + 3600);
    var message = {
      from: account,
      to: session.payTo,
      value: amountDue(session),
      validAfter: String(now - 60),
      validBefore: String(validBefore),
      nonce: randomNonce()
    };
    return {
      types: {
        EIP712Domain: DOMAIN_TYPE,
        TransferWithAuthorization: TRANSFER_FIELDS
      },
      primaryType: 'TransferWithAuthorization',
      domain: token.domain,
      message: message
    };
  }

  /** The payer's sentence for a refusal code; null for anything else (a contract error name, no code). */
  function refusalText(code) {
    return typeof code === 'string' && Object.prototype.hasOwnProperty.call(REFUSALS, code) ? REFUSALS[code] : null;
  }

  /** An API error's named refusal (details.refusalCode, docs/decisions.md "Token refusals are named"), if any. */
  function apiRefusalText(error) {
    var api = (error && error.api) || {};
    return refusalText(api.details && api.details.refusalCode);
  }

  /**
   * The door, before anything is signed: what USDC would refuse whatever the wallet signs (the payer or the
   * payee blacklisted, the token paused), read through the wallet's own node. The server checks the same
   * again; this only spares the payer a signature that cannot succeed. A token without these functions
   * (not a FiatToken) reads as neither.
   */
  function refuseAtDoor(token, payer, payee) {
    var read = function (data) {
      return wallet('eth_call', [{ to: token, data: data }, 'latest']).then(
        function (hex) { return !!hex && hex !== '0x' && BigInt(hex) !== BigInt(0); },
        function () { return false; }
      );
    };
    var blacklisted = function (who) { return read(SELECTORS.isBlacklisted + who.slice(2).toLowerCase().padStart(64, '0')); };
    return Promise.all([blacklisted(payer), payee ? blacklisted(payee) : false, read(SELECTORS.paused)]).then(function (r) {
      var code = r[0] ? 'payer_blacklisted' : r[1] ? 'merchant_blacklisted' : r[2] ? 'token_paused' : null;
      if (!code) return;
      var e = new Error(REFUSALS[code]);
      e.userMessage = true;
      e.refusalCode = code;
      throw e;
    });
  }

  function relayMessage(error) {
    var api = error.api || {};
    if (api.code === 'session_invalid_state') return 'This checkout session can no longer be paid (already paid, expired or cancelled).';
    var named = apiRefusalText(error);
    if (named) return named;
    if (api.param === 'authorization.value' && /balance/i.test(api.message || '')) return REFUSALS.insufficient_funds;
    if (api.param === 'authorization.validBefore' || api.param === 'authorization.validAfter') return 'Your device clock looks wrong: the signature is outside its valid time window. Check the clock and try again.';
    if (api.param === 'signature') return 'The wallet signature could not be verified. Try again, or use another wallet.';
    return 'The payment could not be submitted: ' + (api.message || error.message);
  }

  function pay() {
    if (state.busy || !state.session || !state.token) return;
    var session = state.session;
    var token = state.token;
    if (!window.ethereum || typeof window.ethereum.request !== 'function') return show('error', session.deposit ? MESSAGES.noWalletTransfer : MESSAGES.noWallet);
    if (isExpired(session)) return show('error', MESSAGES.expired);
    setBusy(true, 'Waiting for wallet…');
    show('info', 'Connect your wallet…');
    var account;
    var step = 'connect';
    wallet('eth_requestAccounts')
      .then(function (accounts) {
        if (!accounts || !accounts.length) throw Object.assign(new Error('no account'), { code: 4001 });
        account = accounts[0];
        step = 'network';
        return ensureNetwork(session.chainId);
      })
      .then(function () {
        step = 'door';
        return refuseAtDoor(session.token, account, session.payTo);
      })
      .then(function () {
        step = 'balance';
        return balanceOf(session.token, account);
      })
      .then(function (balance) {
        if (balance < BigInt(amountDue(session))) {
          var e = new Error('Your balance is too low: you have ' + formatUnits(balance, token.decimals) + ' ' + token.symbol +
            ' and this payment needs ' + formatUnits(amountDue(session), token.decimals) + ' ' + token.symbol + '.');
          e.userMessage = true;
          throw e;
        }
        step = 'sign';
        show('info', 'Sign the payment in your wallet…');
        var data = typedData(session, token, account);
        return wallet('eth_signTypedData_v4', [account, JSON.stringify(data)]).then(function (signature) {
          return { authorization: data.message, signature: signature };
        });
      })
      .then(function (signed) {
        step = 'submit';
        state.paymentNonce = signed.authorization.nonce;
        setBusy(true, 'Processing…');
        show('info', 'Submitting your payment…');
        return fetch('/checkout/' + encodeURIComponent(sessionId) + '/pay', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          credentials: 'omit',
          body: JSON.stringify(signed)
        }).then(function (r) {
          return r.json().then(function (body) {
            if (!r.ok) throw apiError(body, r.status);
            return body;
          });
        });
      })
      .then(function () {
        show('info', 'Payment submitted. Waiting for confirmation on-chain…');
        return pollUntilDone(state.paymentNonce);
      })
      .catch(function (error) {
        setBusy(false, 'Pay with wallet');
        if (error && error.code === 4001) return show('error', step === 'connect' ? MESSAGES.rejectedConnect : MESSAGES.rejected);
        if (error && error.userMessage) return show('error', error.message);
        if (error && error.api) return show('error', relayMessage(error));
        show('error', 'Something went wrong: ' + ((error && error.message) || String(error)));
      });
  }

  // ---- Paying by transfer to the session's deposit address (no wallet in this browser needed). ----

  function text(id, value) { var el = document.getElementById(id); if (el) el.textContent = value; }

  function countdown(session) {
    var left = Math.max(0, Date.parse(session.expiresAt) - Date.now());
    var minutes = Math.floor(left / 60000);
    var seconds = Math.floor((left % 60000) / 1000);
    return left > 0 ? 'Expires in ' + minutes + ':' + String(seconds).padStart(2, '0') : 'Expired';
  }

  function renderTransfer(session) {
    var panel = document.getElementById('transfer');
    var deposit = session.deposit;
    if (!panel || !deposit || !state.token) return;
    var open = session.status === 'open' && !isExpired(session);
    // Only a session that can take the money shows where to send it: not while a payment is being
    // confirmed, not once paid, expired or cancelled (a second transfer would be a late deposit).
    if (!open) return hideTransfer(panel);
    panel.hidden = false;
    var remaining = formatUnits(deposit.amountRemaining, state.token.decimals);
    text('deposit-amount', 'exactly ' + remaining + ' ' + state.token.symbol);
    text('deposit-network', session.network + (session.livemode ? '' : ' (test mode)'));
    text('deposit-address', deposit.address);
    text('deposit-exact', remaining);
    var link = document.getElementById('deposit-link');
    if (link) link.setAttribute('href', deposit.paymentUri);
    var img = document.getElementById('deposit-qr');
    var src = '/checkout/' + encodeURIComponent(sessionId) + '/deposit-qr.svg?r=' + deposit.amountRemaining;
    if (img && open && img.getAttribute('data-src') !== src) {
      img.setAttribute('data-src', src);
      img.onload = function () { img.hidden = false; };
      img.onerror = function () { img.hidden = true; };
      img.src = src;
    }
    if (img && !open) img.hidden = true;
    var progress = '';
    if (session.status === 'completed') progress = 'Payment received and confirmed.' + (deposit.amountExcess !== '0' ? ' You sent ' + formatUnits(deposit.amountExcess, state.token.decimals) + ' ' + state.token.symbol + ' more than the amount: the merchant can refund it.' : '');
    else if (deposit.amountReceived !== '0') progress = 'Received ' + formatUnits(deposit.amountReceived, state.token.decimals) + ' ' + state.token.symbol + ', ' + remaining + ' ' + state.token.symbol + ' still to send.';
    else if (open) progress = 'Waiting for your transfer…';
    text('deposit-progress', progress);
    text('deposit-countdown', open ? countdown(session) : '');
  }

  function hideTransfer(panel) {
    panel.hidden = true;
    ['deposit-amount', 'deposit-address', 'deposit-exact', 'deposit-progress', 'deposit-countdown'].forEach(function (id) { text(id, ''); });
    var link = document.getElementById('deposit-link');
    if (link) link.setAttribute('href', '#');
    var img = document.getElementById('deposit-qr');
    if (img) { img.hidden = true; img.removeAttribute('src'); img.removeAttribute('data-src'); }
  }

  function watchTransfer() {
    if (!sessionId) return;
    setInterval(function () { if (state.session) renderTransfer(state.session); }, 1000);
    var poll = function () {
      getJson('/v1/checkout/sessions/' + encodeURIComponent(sessionId))
        .then(function (session) {
          state.session = session;
          renderTransfer(session);
          if (session.status === 'completed') return succeed(session);
          if (session.status === 'open' && !isExpired(session)) setTimeout(poll, 3000);
          else if (session.status === 'processing') setTimeout(poll, 3000);
          else {
            var m = statusMessage(session);
            if (m) { setBusy(true); show(m[0], m[1]); }
            if (session.status === 'expired' || session.status === 'cancelled') showServerPage();
          }
        })
        .catch(function () { setTimeout(poll, 5000); });
    };
    setTimeout(poll, 3000);
    Array.prototype.forEach.call(document.querySelectorAll('[data-copy]'), function (button) {
      button.addEventListener('click', function () {
        var value = (document.getElementById(button.getAttribute('data-copy')) || {}).textContent || '';
        var done = function () { button.textContent = 'Copied'; setTimeout(function () { button.textContent = button.getAttribute('data-copy') === 'deposit-address' ? 'Copy' : 'Copy amount'; }, 1500); };
        if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(value).then(done, function () {});
      });
    });
  }

  // ---- What the customer pays for: store, product or invoice with its line items, support, links. ----

  function describePurchase(session) {
    if (session.storeName || session.merchantName) document.title = 'Pay ' + (session.storeName || session.merchantName);
    var logo = document.getElementById('store-logo');
    if (logo && session.logoUrl && /^https:/.test(session.logoUrl)) {
      logo.setAttribute('alt', (session.storeName || session.merchantName) + ' logo');
      logo.onload = function () { logo.hidden = false; };
      logo.src = session.logoUrl;
    }
    var what = session.productName || (session.invoice ? 'Invoice ' + session.invoice.number : '');
    if (what) text('description', what + (session.storeName && session.merchantName && session.storeName !== session.merchantName ? ' from ' + session.merchantName : ''));
    var items = document.getElementById('items');
    if (items && session.invoice && session.invoice.lineItems.length) {
      var body = items.querySelector('tbody');
      session.invoice.lineItems.forEach(function (item) {
        var tr = document.createElement('tr');
        var d = document.createElement('td');
        d.textContent = item.description + (item.quantity > 1 ? ' × ' + item.quantity : '');
        var a = document.createElement('td');
        a.className = 'num';
        a.setAttribute('data-units', String(BigInt(item.unitAmount) * BigInt(item.quantity)));
        tr.appendChild(d);
        tr.appendChild(a);
        body.appendChild(tr);
      });
      items.hidden = false;
    }
    var cancel = safeRedirectUrl(session.cancelUrl);
    var cancelLink = document.getElementById('cancel-link');
    if (cancel && cancelLink && session.status === 'open') { cancelLink.href = cancel; cancelLink.hidden = false; }
    var support = document.getElementById('support-link');
    if (support && session.supportEmail) {
      support.href = 'mailto:' + session.supportEmail;
      support.textContent = 'Help: ' + session.supportEmail;
      support.hidden = false;
    }
  }

  function priceItems(token) {
    Array.prototype.forEach.call(document.querySelectorAll('#items td[data-units]'), function (cell) {
      cell.textContent = formatUnits(cell.getAttribute('data-units'), token.decimals) + ' ' + token.symbol;
    });
  }

  function load() {
    Promise.all([getJson('/v1/checkout/sessions/' + encodeURIComponent(sessionId))])
      .then(function (results) {
        var session = results[0];
        state.session = session;
        document.getElementById('merchant').textContent = session.storeName || session.merchantName || 'Checkout';
        describePurchase(session);
        // No address here: the only address a customer may send to is the session's deposit address
        // below (the merchant's payout address is never matched to this order).
        document.getElementById('details').textContent = 'On ' + (session.network || 'chain ' + session.chainId) + (session.livemode ? '' : ' (test mode)');
        return getJson('/v1/tokens/' + encodeURIComponent(session.token) + '?mode=' + (session.livemode ? 'live' : 'test')).then(function (token) {
          state.token = token;
          document.getElementById('amount').textContent = formatUnits(session.amount, token.decimals) + ' ' + token.symbol;
          priceItems(token);
          renderTransfer(session);
          if ((session.status === 'open' && !isExpired(session)) || session.status === 'processing') watchTransfer();
          if (!token.supports || !token.supports.eip3009 || !token.domain) return show('error', MESSAGES.tokenUnsupported);
          var m = statusMessage(session);
          if (m) {
            show(m[0], m[1]);
            if (session.status === 'processing') { setBusy(true, 'Processing…'); return pollUntilDone(); }
            if (session.status === 'completed') return succeed(session);
            // Ended between the server's render and this read: the server's page says so.
            if (session.status === 'expired' || session.status === 'cancelled') showServerPage();
            return;
          }
          setBusy(false, 'Pay with wallet');
          // The latest payment posted for this session failed: say why, and let the payer try again.
          if (session.lastPaymentError) show('error', refusalText(session.lastPaymentError.code) || MESSAGES.failedOnChain);
        });
      })
      .catch(function (error) {
        show('error', error.status === 404 ? 'This checkout session does not exist.' : 'Could not load the checkout: ' + error.message);
      });
  }

  // ---- Subscription enrolment for a plan: EIP-2612 permit + Enrolment, relayed by the server. ----

  var INTERVAL_WORDS = { daily: 'day', weekly: 'week', monthly: 'month', quarterly: 'quarter', yearly: 'year' };

  function postJson(url, body) {
    return fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      credentials: 'omit',
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (b) {
        if (!r.ok) throw apiError(b, r.status);
        return b;
      });
    });
  }

  function pollEnrolment(nonce) {
    return getJson('/checkout/plans/' + encodeURIComponent(planId) + '/enrolments/' + nonce).then(function (e) {
      if (e.submissionStatus === 'confirmed') {
        setBusy(true, 'Subscribed');
        return show('success', 'You are subscribed. Thank you!');
      }
      if (e.submissionStatus === 'failed') {
        setBusy(false, 'Subscribe with wallet');
        var named = refusalText(e.failureCode);
        if (named) return show('error', named);
        return show('error', 'The subscription could not be created on-chain' + (e.failureReason ? ': ' + e.failureReason : '.') + ' Nothing was charged; you can try again.');
      }
      return new Promise(function (resolve) { setTimeout(resolve, 1000); }).then(function () { return pollEnrolment(nonce); });
    });
  }

  function subscribe() {
    if (state.busy || !state.offer || !state.token) return;
    var offer = state.offer;
    var token = state.token;
    if (!window.ethereum || typeof window.ethereum.request !== 'function') return show('error', MESSAGES.noWallet);
    setBusy(true, 'Waiting for wallet…');
    show('info', 'Connect your wallet…');
    var account;
    var step = 'connect';
    var now = Math.floor(Date.now() / 1000);
    var deadline = String(now + 3600);
    var nonce = randomNonce();
    var signed = {};
    wallet('eth_requestAccounts')
      .then(function (accounts) {
        if (!accounts || !accounts.length) throw Object.assign(new Error('no account'), { code: 4001 });
        account = accounts[0];
        step = 'network';
        return ensureNetwork(offer.chainId);
      })
      .then(function () {
        step = 'door';
        return refuseAtDoor(offer.terms.token, account, offer.terms.merchant);
      })
      .then(function () {
        step = 'balance';
        return balanceOf(offer.terms.token, account);
      })
      .then(function (balance) {
        if (offer.terms.trialEnd === '0' && balance < BigInt(offer.terms.amount)) {
          var e = new Error('Your balance is too low: you have ' + formatUnits(balance, token.decimals) + ' ' + token.symbol +
            ' and the first period costs ' + formatUnits(offer.terms.amount, token.decimals) + ' ' + token.symbol + '.');
          e.userMessage = true;
          throw e;
        }
        return getJson('/v1/tokens/' + encodeURIComponent(offer.terms.token) + '/permit-nonce?owner=' + account + '&mode=' + (offer.livemode ? 'live' : 'test'));
      })
      .then(function (permitNonce) {
        step = 'sign';
        show('info', 'Sign the allowance (1 of 2) in your wallet…');
        var permit = permitTypedData(token.domain, { owner: account, spender: offer.subscriptionManager, value: offer.permitValue, nonce: permitNonce.nonce, deadline: deadline });
        return wallet('eth_signTypedData_v4', [account, permit]);
      })
      .then(function (permitSignature) {
        signed.permit = { value: offer.permitValue, deadline: deadline, signature: permitSignature };
        show('info', 'Sign the subscription terms (2 of 2) in your wallet…');
        var t = offer.terms;
        var enrolment = {
          types: {
            EIP712Domain: DOMAIN_TYPE,
            Enrolment: [
              { name: 'subscriber', type: 'address' },
              { name: 'token', type: 'address' },
              { name: 'merchant', type: 'address' },
              { name: 'operator', type: 'address' },
              { name: 'amount', type: 'uint256' },
              { name: 'period', type: 'uint64' },
              { name: 'periods', type: 'uint32' },
              { name: 'trialEnd', type: 'uint64' },
              { name: 'nonce', type: 'bytes32' },
              { name: 'deadline', type: 'uint256' }
            ]
          },
          primaryType: 'Enrolment',
          domain: offer.managerDomain,
          message: {
            subscriber: account, token: t.token, merchant: t.merchant, operator: t.operator, amount: t.amount,
            period: t.period, periods: String(t.periods), trialEnd: t.trialEnd, nonce: nonce, deadline: deadline
          }
        };
        return wallet('eth_signTypedData_v4', [account, JSON.stringify(enrolment)]);
      })
      .then(function (enrolmentSignature) {
        step = 'submit';
        setBusy(true, 'Processing…');
        show('info', 'Submitting your subscription…');
        var body = {
          subscriber: account,
          terms: offer.terms,
          permit: signed.permit,
          enrolment: { nonce: nonce, deadline: deadline, signature: enrolmentSignature }
        };
        var emailInput = document.getElementById('email');
        if (emailInput && emailInput.value.trim()) body.customerEmail = emailInput.value.trim();
        return postJson('/checkout/plans/' + encodeURIComponent(planId) + '/enrol', body);
      })
      .then(function () {
        show('info', 'Subscription submitted. Waiting for confirmation on-chain…');
        return pollEnrolment(nonce);
      })
      .catch(function (error) {
        setBusy(false, 'Subscribe with wallet');
        if (error && error.code === 4001) return show('error', step === 'connect' ? MESSAGES.rejectedConnect : 'You rejected the signature request in your wallet. Nothing was signed up or charged; you can try again.');
        if (error && error.userMessage) return show('error', error.message);
        if (error && error.api) return show('error', apiRefusalText(error) || 'The subscription could not be submitted: ' + (error.api.message || error.message));
        show('error', 'Something went wrong: ' + ((error && error.message) || String(error)));
      });
  }

  /** EIP-2612 Permit typed data, as JSON for eth_signTypedData_v4 (enrolment and renewal sign the same shape). */
  function permitTypedData(domain, message) {
    return JSON.stringify({
      types: {
        EIP712Domain: DOMAIN_TYPE,
        Permit: PERMIT_FIELDS
      },
      primaryType: 'Permit',
      domain: domain,
      message: message
    });
  }

  function loadPlan() {
    getJson('/checkout/plans/' + encodeURIComponent(planId) + '/enrolment')
      .then(function (offer) {
        state.offer = offer;
        document.getElementById('merchant').textContent = offer.merchantName || 'Subscribe';
        document.getElementById('description').textContent = offer.planName;
        document.getElementById('details').textContent = 'Paid to ' + offer.terms.merchant + ' on chain ' + offer.chainId + (offer.livemode ? '' : ' (test mode)');
        return Promise.all([
          getJson('/v1/tokens/' + encodeURIComponent(offer.terms.token) + '?mode=' + (offer.livemode ? 'live' : 'test')),
          getJson('/v1/checkout/plans/' + encodeURIComponent(planId))
        ]).then(function (results) {
          var token = results[0];
          var plan = results[1];
          state.token = token;
          var every = plan.intervalCount > 1 ? ' every ' + plan.intervalCount + ' ' + INTERVAL_WORDS[plan.interval] + 's' : ' per ' + INTERVAL_WORDS[plan.interval];
          document.getElementById('amount').textContent = formatUnits(offer.terms.amount, token.decimals) + ' ' + token.symbol + every;
          if (plan.trialPeriodDays > 0) document.getElementById('description').textContent = offer.planName + ' (' + plan.trialPeriodDays + '-day free trial)';
          if (!token.supports || !token.supports.eip2612 || !token.domain) return show('error', 'This token cannot be approved by signature (EIP-2612) on this network.');
          setBusy(false, 'Subscribe with wallet');
        });
      })
      .catch(function (error) {
        show('error', error.status === 404 ? 'This subscription plan does not exist.' : 'Could not load the plan: ' + error.message);
      });
  }

  // ---- Renewal of a subscription's allowance: one EIP-2612 permit, submitted by the server. ----
  function renewalUrl(suffix) {
    return '/checkout/subscriptions/' + encodeURIComponent(renewalId) + suffix;
  }

  function pollRenewal(nonce) {
    return getJson(renewalUrl('/renewals/' + nonce + '?token=' + encodeURIComponent(renewalToken))).then(function (r) {
      if (r.status === 'confirmed') {
        setBusy(true, 'Renewed');
        return show('success', 'Your authorisation is renewed. Your subscription continues.');
      }
      if (r.status === 'failed') {
        setBusy(false, 'Renew with wallet');
        var named = refusalText(r.failureCode);
        if (named) return show('error', named);
        return show('error', 'The renewal could not be completed on-chain' + (r.failureReason ? ': ' + r.failureReason : '.') + ' You can try again.');
      }
      return new Promise(function (resolve) { setTimeout(resolve, 1000); }).then(function () { return pollRenewal(nonce); });
    });
  }

  function renew() {
    if (state.busy || !state.offer) return;
    var offer = state.offer;
    if (!window.ethereum || typeof window.ethereum.request !== 'function') return show('error', MESSAGES.noWallet);
    setBusy(true, 'Waiting for wallet…');
    show('info', 'Connect your wallet…');
    var step = 'connect';
    var deadline = String(Math.floor(Date.now() / 1000) + 3600);
    var account;
    wallet('eth_requestAccounts')
      .then(function (accounts) {
        if (!accounts || !accounts.length) throw Object.assign(new Error('no account'), { code: 4001 });
        account = accounts[0];
        if (account.toLowerCase() !== offer.subscriber.toLowerCase()) {
          var e = new Error('Connect the wallet that pays this subscription: ' + offer.subscriber + '.');
          e.userMessage = true;
          throw e;
        }
        step = 'network';
        return ensureNetwork(offer.chainId);
      })
      .then(function () {
        step = 'door';
        return refuseAtDoor(offer.token, account, null);
      })
      .then(function () {
        step = 'sign';
        show('info', 'Sign the allowance in your wallet…');
        var permit = permitTypedData(offer.tokenDomain, { owner: account, spender: offer.spender, value: offer.permitValue, nonce: offer.permitNonce, deadline: deadline });
        return wallet('eth_signTypedData_v4', [account, permit]);
      })
      .then(function (signature) {
        step = 'submit';
        setBusy(true, 'Processing…');
        show('info', 'Submitting your renewal…');
        return postJson(renewalUrl('/renew'), { token: renewalToken, permit: { value: offer.permitValue, deadline: deadline, signature: signature } });
      })
      .then(function (r) {
        show('info', 'Renewal submitted. Waiting for confirmation on-chain…');
        return pollRenewal(r.permitNonce);
      })
      .catch(function (error) {
        setBusy(false, 'Renew with wallet');
        if (error && error.code === 4001) return show('error', step === 'connect' ? 'You did not connect your wallet. Nothing changed; you can try again.' : 'You rejected the signature request in your wallet. Nothing changed; you can try again.');
        if (error && error.userMessage) return show('error', error.message);
        if (error && error.api) return show('error', apiRefusalText(error) || 'The renewal could not be submitted: ' + (error.api.message || error.message));
        show('error', 'Something went wrong: ' + ((error && error.message) || String(error)));
      });
  }

  function loadRenewal() {
    getJson(renewalUrl('/renewal?token=' + encodeURIComponent(renewalToken)))
      .then(function (offer) {
        state.offer = offer;
        document.getElementById('merchant').textContent = offer.merchantName || 'Renew your subscription';
        document.getElementById('description').textContent = offer.planName + ': the current authorisation covers ' + offer.periodsLeft + ' more payment(s).';
        document.getElementById('amount').textContent = 'Allow ' + formatUnits(offer.permitValue, 6) + ' USDC';
        document.getElementById('details').textContent = 'Allowance for ' + offer.spender + ' on chain ' + offer.chainId + (offer.livemode ? '' : ' (test mode)') + '. Nothing is paid when you sign.';
        if (offer.status === 'cancelled' || offer.status === 'lapsed' || offer.status === 'completed') return show('error', 'This subscription is ' + offer.status + '; there is nothing to renew.');
        setBusy(false, 'Renew with wallet');
      })
      .catch(function (error) {
        show('error', error.status === 404 ? 'This renewal link is not valid.' : 'Could not load the renewal: ' + error.message);
      });
  }

  if (renewalId) {
    payButton.addEventListener('click', renew);
    loadRenewal();
  } else if (planId) {
    payButton.addEventListener('click', subscribe);
    loadPlan();
  } else {
    payButton.addEventListener('click', pay);
    load();
  }
})();
`;
