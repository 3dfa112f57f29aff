// The checkout page of one payment session: pay with the wallet (EIP-3009,
// relayed by POST /checkout/{id}/pay), or by plain transfer to the session's
// deposit address (the panel kept current by polling), on the network the
// customer picks among the session's accepted chains. The server's page
// (src/checkout/page.ts) holds the elements; this fills and drives them.
import { ApiError, UserMessageError, isUserRejection } from '../shared/errors.js';
import { getJson, postJson, sleep } from '../shared/http.js';
import { formatAmount, formatTokenAmount } from '../shared/money.js';
import { byId, pageControls, setText, somethingWentWrong } from '../shared/page.js';
import { randomNonce } from '../shared/token-calls.js';
import { balanceOf, ensureNetwork, hasWallet, networkTimeMs, refuseAtDoor, requestAccount, wallet } from '../shared/wallet.js';
import {
  MESSAGES,
  amountDue,
  countdown,
  isExpired,
  networkLabel,
  refusalText,
  relayMessage,
  safeRedirectUrl,
  statusMessage,
} from './messages.js';
import { chosenChainOf, networkOptionLabel, offerNetworks } from './network-picker.js';
import { transferTypedData } from './typed-data.js';
import type { CheckoutChain, CheckoutSession, TokenInfo } from './types.js';

export function startSessionPage(sessionId: string): void {
  const ui = pageControls();
  const state: { session: CheckoutSession | null; token: TokenInfo | null; chainId: number | null } = {
    session: null,
    token: null,
    chainId: null,
  };
  const sessionUrl = '/v1/checkout/sessions/' + encodeURIComponent(sessionId);
  const tokens = new Map<number, Promise<TokenInfo>>();

  /** The chains the customer may pay on; an older server names only the session's chain. */
  function chainsOf(session: CheckoutSession): CheckoutChain[] {
    return session.chains?.length
      ? session.chains
      : [{ chainId: session.chainId, network: session.network || 'chain ' + session.chainId, token: session.token, addChain: null }];
  }

  /** The network the customer chose (the session's first until they choose). */
  function chosenChain(session: CheckoutSession): CheckoutChain {
    return chosenChainOf(chainsOf(session), state.chainId);
  }

  /** The token on one chain: its EIP-712 domain names that chain, so each chain is read once on its own. */
  function tokenOn(session: CheckoutSession, chain: CheckoutChain): Promise<TokenInfo> {
    let info = tokens.get(chain.chainId);
    if (!info) {
      const query = '?mode=' + (session.livemode ? 'live' : 'test') + '&chainId=' + chain.chainId;
      info = getJson<TokenInfo>('/v1/tokens/' + encodeURIComponent(chain.token) + query);
      info.catch(() => tokens.delete(chain.chainId));
      tokens.set(chain.chainId, info);
    }
    return info;
  }

  function chosenLabel(session: CheckoutSession): string {
    const chain = chosenChain(session);
    return networkLabel({ network: chain.network, chainId: chain.chainId, livemode: session.livemode });
  }

  /**
   * The session ended (paid, expired or cancelled by the server's word): the server renders what the
   * link shows from now on, a receipt or the ended page, with no address on it. Never on the
   * browser's own clock alone: that only hides the transfer (renderTransfer), so a wrong clock cannot loop.
   */
  const showServerPage = () => window.location.replace(window.location.pathname);

  function succeed(session: CheckoutSession): void {
    ui.setBusy(true, 'Paid');
    renderTransfer(session);
    const target = safeRedirectUrl(session.successUrl);
    ui.show(
      'success',
      target ? 'Payment confirmed. Returning you to ' + (session.merchantName || 'the merchant') + '…' : 'Payment confirmed. Thank you!',
    );
    // Without a success URL the server's receipt replaces this page (src/checkout/final-pages.ts).
    setTimeout(() => (target ? window.location.assign(target) : showServerPage()), 800);
  }

  /** Polls the session; nonce (of the authorization this page posted) names why its payment failed. */
  async function pollUntilDone(nonce?: string): Promise<void> {
    for (;;) {
      const session = await getJson<CheckoutSession>(sessionUrl);
      state.session = session;
      if (session.status === 'completed') return succeed(session);
      if (session.status === 'open' && !isExpired(session)) {
        if (!nonce) {
          // Opened or reloaded while a payment was processing: the session says why it failed.
          ui.setBusy(false, 'Pay with wallet');
          return ui.show('error', refusalText(session.lastPaymentError?.code) || MESSAGES.failedOnChain);
        }
        const payment = await getJson<{ submissionStatus: string; failureCode?: string | null }>(
          '/checkout/' + encodeURIComponent(sessionId) + '/payments/' + nonce,
        );
        if (payment.submissionStatus === 'failed') {
          ui.setBusy(false, 'Pay with wallet');
          return ui.show('error', refusalText(payment.failureCode) || MESSAGES.failedOnChain);
        }
      } else if (session.status !== 'processing') {
        const message = statusMessage(session);
        ui.setBusy(true);
        renderTransfer(session);
        if (message) ui.show(message[0], message[1]);
        if (session.status === 'expired' || session.status === 'cancelled') showServerPage();
        return;
      }
      await sleep(1000);
    }
  }

  async function pay(): Promise<void> {
    const session = state.session;
    if (ui.isBusy() || !session || !state.token) return;
    const chain = chosenChain(session);
    if (!hasWallet()) return ui.show('error', session.deposit ? MESSAGES.noWalletTransfer : MESSAGES.noWallet);
    if (isExpired(session)) return ui.show('error', MESSAGES.expired);
    ui.setBusy(true, 'Waiting for wallet…');
    ui.show('info', 'Connect your wallet…');
    let step = 'connect';
    try {
      const account = await requestAccount();
      step = 'network';
      await ensureNetwork(chain.chainId, chain.addChain ?? undefined);
      const token = await tokenOn(session, chain);
      if (!token.supports?.eip3009 || !token.domain) throw new UserMessageError(MESSAGES.tokenUnsupported);
      step = 'door';
      // The merchant's payout on the chosen chain (a chain may have its own): what the authorization pays.
      const payTo = chain.payTo ?? session.payTo;
      await refuseAtDoor(chain.token, account, payTo);
      step = 'balance';
      const balance = await balanceOf(chain.token, account);
      const due = amountDue(session);
      if (balance < BigInt(due)) {
        throw new UserMessageError(
          'Your balance is too low: you have ' +
            formatTokenAmount(balance, token.decimals, token.symbol) +
            ' and this payment needs ' +
            formatTokenAmount(due, token.decimals, token.symbol) +
            '.',
        );
      }
      step = 'sign';
      await saveEmail();
      ui.show('info', 'Sign the payment in your wallet…');
      // On the time of the chain the payment goes to (the wallet is on it by now), not the device's;
      // a wallet that will not say gets the device's time, as before.
      const data = transferTypedData(
        { ...session, payTo },
        token.domain!,
        account,
        randomNonce(),
        Date.now(),
        await networkTimeMs().catch(() => Date.now()),
      );
      const signature = await wallet<string>('eth_signTypedData_v4', [account, JSON.stringify(data)]);
      step = 'submit';
      ui.setBusy(true, 'Processing…');
      ui.show('info', 'Submitting your payment…');
      await postJson('/checkout/' + encodeURIComponent(sessionId) + '/pay', {
        authorization: data.message,
        signature,
        chainId: chain.chainId,
      });
      ui.show('info', 'Payment submitted. Waiting for confirmation on-chain…');
      await pollUntilDone(data.message.nonce);
    } catch (error) {
      ui.setBusy(false, 'Pay with wallet');
      if (isUserRejection(error)) return ui.show('error', step === 'connect' ? MESSAGES.rejectedConnect : MESSAGES.rejected);
      if (error instanceof UserMessageError) return ui.show('error', error.message);
      if (error instanceof ApiError) return ui.show('error', relayMessage(error.api, error.message));
      ui.show('error', somethingWentWrong(error));
    }
  }

  // ---- The optional email (by wallet or by transfer): saved when the field is left, and before a payment. ----

  let savedEmail = '';
  async function saveEmail(): Promise<void> {
    const input = byId<HTMLInputElement>('email');
    const email = input?.value.trim() ?? '';
    if (!input || !email || email === savedEmail) return;
    if (!input.checkValidity()) return setText('email-message', 'That does not look like an email address.');
    try {
      await postJson('/checkout/' + encodeURIComponent(sessionId) + '/customer-email', { email });
      savedEmail = email;
      setText('email-message', 'Saved.');
    } catch (error) {
      setText('email-message', error instanceof ApiError ? error.message : 'Could not save the email.');
    }
  }

  // ---- Paying by transfer to the session's deposit address (no wallet in this browser needed). ----

  function renderTransfer(session: CheckoutSession): void {
    const panel = byId('transfer');
    const deposit = session.deposit;
    const token = state.token;
    if (!panel || !deposit || !token) return;
    const open = session.status === 'open' && !isExpired(session);
    // Only a session that can take the money shows where to send it: not while a payment is being
    // confirmed, not once paid, expired or cancelled (a second transfer would be a late deposit).
    if (!open) return hideTransfer(panel);
    panel.hidden = false;
    const remaining = formatAmount(deposit.amountRemaining, token.decimals);
    setText('deposit-amount', 'exactly ' + remaining + ' ' + token.symbol);
    // The chosen network's address (the same on every chain paying the same payout), named beside it; the
    // link and QR code (EIP-681 with the chain id) are the chosen network's.
    const chain = chosenChain(session);
    const network = deposit.networks?.find((n) => n.chainId === chain.chainId);
    setText('deposit-network', networkOptionLabel(chain, session.livemode));
    setText('deposit-address', network?.address ?? deposit.address);
    setText('deposit-exact', remaining);
    byId('deposit-link')?.setAttribute('href', network?.paymentUri ?? deposit.paymentUri);
    const img = byId<HTMLImageElement>('deposit-qr');
    const src = '/checkout/' + encodeURIComponent(sessionId) + '/deposit-qr.svg?chainId=' + chain.chainId + '&r=' + deposit.amountRemaining;
    if (img && img.getAttribute('data-src') !== src) {
      img.setAttribute('data-src', src);
      img.onload = () => (img.hidden = false);
      img.onerror = () => (img.hidden = true);
      img.src = src;
    }
    const received =
      deposit.amountReceived !== '0'
        ? 'Received ' +
          formatTokenAmount(deposit.amountReceived, token.decimals, token.symbol) +
          ', ' +
          remaining +
          ' ' +
          token.symbol +
          ' still to send.'
        : 'Waiting for your transfer…';
    setText('deposit-progress', received);
    setText('deposit-countdown', countdown(session.expiresAt));
  }

  function hideTransfer(panel: HTMLElement): void {
    panel.hidden = true;
    for (const id of ['deposit-amount', 'deposit-address', 'deposit-exact', 'deposit-progress', 'deposit-countdown']) setText(id, '');
    byId('deposit-link')?.setAttribute('href', '#');
    const img = byId<HTMLImageElement>('deposit-qr');
    if (img) {
      img.hidden = true;
      img.removeAttribute('src');
      img.removeAttribute('data-src');
    }
  }

  function watchTransfer(): void {
    setInterval(() => {
      if (state.session) renderTransfer(state.session);
    }, 1000);
    const poll = () => {
      getJson<CheckoutSession>(sessionUrl)
        .then((session) => {
          state.session = session;
          renderTransfer(session);
          if (session.status === 'completed') return succeed(session);
          if ((session.status === 'open' && !isExpired(session)) || session.status === 'processing') {
            setTimeout(poll, 3000);
            return;
          }
          const message = statusMessage(session);
          if (message) {
            ui.setBusy(true);
            ui.show(message[0], message[1]);
          }
          if (session.status === 'expired' || session.status === 'cancelled') showServerPage();
        })
        .catch(() => setTimeout(poll, 5000));
    };
    setTimeout(poll, 3000);
    for (const button of Array.from(document.querySelectorAll<HTMLButtonElement>('[data-copy]'))) {
      button.addEventListener('click', () => {
        const source = button.getAttribute('data-copy');
        const value = (source && byId(source)?.textContent) || '';
        const done = () => {
          button.textContent = 'Copied';
          setTimeout(() => (button.textContent = source === 'deposit-address' ? 'Copy' : 'Copy amount'), 1500);
        };
        if (navigator.clipboard?.writeText) navigator.clipboard.writeText(value).then(done, () => {});
      });
    }
  }

  // ---- What the customer pays for: store, product or invoice with its line items, support, links. ----

  function describePurchase(session: CheckoutSession): void {
    // The one merchant name (docs/decisions.md, One merchant name): the store's title is not a second one.
    if (session.merchantName) document.title = 'Pay ' + session.merchantName;
    const logo = byId<HTMLImageElement>('store-logo');
    if (logo && session.logoUrl && /^https:/.test(session.logoUrl)) {
      logo.setAttribute('alt', session.merchantName + ' logo');
      logo.onload = () => (logo.hidden = false);
      logo.src = session.logoUrl;
    }
    const what = session.productName || (session.invoice ? 'Invoice ' + session.invoice.number : '');
    if (what) setText('description', what);
    const items = byId<HTMLTableElement>('items');
    const body = items?.querySelector('tbody');
    if (items && body && session.invoice && session.invoice.lineItems.length) {
      for (const item of session.invoice.lineItems) {
        const row = document.createElement('tr');
        const description = document.createElement('td');
        description.textContent = item.description + (item.quantity > 1 ? ' × ' + item.quantity : '');
        const amount = document.createElement('td');
        amount.className = 'num';
        amount.setAttribute('data-units', String(BigInt(item.unitAmount) * BigInt(item.quantity)));
        row.appendChild(description);
        row.appendChild(amount);
        body.appendChild(row);
      }
      items.hidden = false;
    }
    const cancel = safeRedirectUrl(session.cancelUrl);
    const cancelLink = byId<HTMLAnchorElement>('cancel-link');
    if (cancel && cancelLink && session.status === 'open') {
      cancelLink.href = cancel;
      cancelLink.hidden = false;
    }
    const support = byId<HTMLAnchorElement>('support-link');
    if (support && session.supportEmail) {
      support.href = 'mailto:' + session.supportEmail;
      support.textContent = 'Help: ' + session.supportEmail;
      support.hidden = false;
    }
  }

  function priceItems(token: TokenInfo): void {
    for (const cell of Array.from(document.querySelectorAll('#items td[data-units]'))) {
      cell.textContent = formatTokenAmount(cell.getAttribute('data-units') ?? '0', token.decimals, token.symbol);
    }
  }

  async function load(): Promise<void> {
    try {
      const session = await getJson<CheckoutSession>(sessionUrl);
      state.session = session;
      setText('merchant', session.merchantName || 'Checkout');
      describePurchase(session);
      // No address here: the only address a customer may send to is the session's deposit address
      // below (the merchant's payout address is never matched to this order).
      // A choice re-points the transfer and the token; the wallet is switched when it pays.
      offerNetworks(chainsOf(session), session.livemode, (chain) => {
        state.chainId = chain.chainId;
        if (!state.session) return;
        setText('details', 'On ' + chosenLabel(state.session));
        renderTransfer(state.session);
        void tokenOn(state.session, chain).catch(() => undefined);
      });
      setText('details', 'On ' + chosenLabel(session));
      const token = await tokenOn(session, chainsOf(session)[0]!);
      state.token = token;
      setText('amount', formatTokenAmount(session.amount, token.decimals, token.symbol));
      priceItems(token);
      renderTransfer(session);
      if ((session.status === 'open' && !isExpired(session)) || session.status === 'processing') watchTransfer();
      if (!token.supports?.eip3009 || !token.domain) return ui.show('error', MESSAGES.tokenUnsupported);
      const message = statusMessage(session);
      if (message) {
        ui.show(message[0], message[1]);
        if (session.status === 'processing') {
          ui.setBusy(true, 'Processing…');
          return await pollUntilDone();
        }
        if (session.status === 'completed') return succeed(session);
        // Ended between the server's render and this read: the server's page says so.
        if (session.status === 'expired' || session.status === 'cancelled') showServerPage();
        return;
      }
      ui.setBusy(false, 'Pay with wallet');
      // The latest payment posted for this session failed: say why, and let the payer try again.
      if (session.lastPaymentError) ui.show('error', refusalText(session.lastPaymentError.code) || MESSAGES.failedOnChain);
    } catch (error) {
      const status = error instanceof ApiError ? error.status : undefined;
      ui.show(
        'error',
        status === 404 ? 'This checkout session does not exist.' : 'Could not load the checkout: ' + (error as Error).message,
      );
    }
  }

  ui.button.addEventListener('click', () => void pay());
  byId('email')?.addEventListener('change', () => void saveEmail());
  void load();
}
