// Entry of the customer portal script (built to /billing-portal/assets/portal.js). The session token comes
// in the link's fragment (never sent to a server), or from signing in with the wallet on the merchant's
// public portal page (./sign-in.ts); it is kept in this tab's sessionStorage, taken out of the address bar,
// and sent as a bearer token to /billing-portal/api/*. Every value is written as text.
import { ApiError, UserMessageError, apiError, isUserRejection } from '../shared/errors.js';
import { byId } from '../shared/page.js';
import { safeRedirectUrl } from '../checkout/messages.js';
import { configurationIdOf, signInWithWallet } from './sign-in.js';
import {
  REASON_LABELS,
  day,
  discountLine,
  nextChargeLine,
  paymentLabel,
  per,
  planChangeLine,
  statusLabel,
  usdc,
  walletChangeLine,
  walletRefusalText,
} from './text.js';
import type { PortalInvoice, PortalPayment, PortalState, PortalSubscription } from './types.js';

const TOKEN_KEY = 'billing-portal-token';
const API = '/billing-portal/api';

function takeToken(): string | null {
  const fromLink = location.hash.slice(1);
  if (fromLink) {
    sessionStorage.setItem(TOKEN_KEY, fromLink);
    history.replaceState(null, '', location.pathname);
    return fromLink;
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

async function call<T>(token: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(API + path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    credentials: 'omit',
    cache: 'no-store',
    body: body === undefined ? null : JSON.stringify(body),
  });
  const parsed: unknown = await response.json();
  if (!response.ok) throw apiError(parsed, response.status);
  return parsed as T;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (text !== undefined) element.textContent = text;
  if (className) element.className = className;
  return element;
}

function start(token: string): void {
  const message = byId('message')!;
  const show = (kind: 'info' | 'error' | 'success', text: string) => {
    message.setAttribute('data-kind', kind);
    message.textContent = text;
  };
  let state: PortalState;

  const act = async (button: HTMLButtonElement, path: string, body: unknown, done: string) => {
    button.disabled = true;
    try {
      await call<PortalSubscription>(token, 'POST', path, body);
      // Redrawn first, so what the confirmation says is what the page shows.
      await load();
      show('success', done);
    } catch (error) {
      show('error', error instanceof ApiError ? error.message : 'Something went wrong: ' + String(error));
      button.disabled = false;
    }
  };

  const cancelPanel = (item: PortalSubscription): HTMLFormElement => {
    const form = el('form', undefined, 'panel');
    form.hidden = true;
    const atPeriodEnd = state.configuration.cancel.mode === 'at_period_end';
    const when = atPeriodEnd && item.subscription.nextChargeAt ? ` on ${day(item.subscription.nextChargeAt)}` : ' now';
    form.append(el('p', `Your subscription will end${when}${atPeriodEnd ? ', and nothing more is charged' : ''}.`, 'muted'));
    const reasons = state.configuration.cancel.reasons;
    const select = el('select');
    select.name = 'feedback';
    if (reasons.length > 0) {
      const label = el('label', 'Why are you cancelling?');
      label.htmlFor = select.id = `reason-${item.subscription.id}`;
      select.append(el('option', 'Choose a reason (optional)'));
      select.options[0]!.value = '';
      for (const reason of reasons) {
        const option = el('option', REASON_LABELS[reason] ?? reason);
        option.value = reason;
        select.append(option);
      }
      form.append(label, select);
    }
    const comment = el('input');
    comment.name = 'reason';
    comment.maxLength = 500;
    const commentLabel = el('label', 'Anything else you’d like to tell us? (optional)');
    commentLabel.htmlFor = comment.id = `comment-${item.subscription.id}`;
    const confirm = el('button', 'Confirm cancellation', 'danger');
    confirm.type = 'submit';
    confirm.setAttribute('data-action', 'confirm-cancel');
    form.append(commentLabel, comment, confirm);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const body = {
        atPeriodEnd,
        ...(select.value ? { feedback: select.value } : {}),
        ...(comment.value.trim() ? { reason: comment.value.trim() } : {}),
      };
      const done = atPeriodEnd ? `Your subscription ends${when}; nothing more is charged.` : 'Your subscription is cancelled.';
      void act(confirm, `/subscriptions/${item.subscription.id}/cancel`, body, done);
    });
    return form;
  };

  const switchPanel = (item: PortalSubscription): HTMLFormElement | null => {
    const others = state.plans.filter((p) => p.id !== item.subscription.planId);
    if (others.length === 0 || !state.plans.some((p) => p.id === item.subscription.planId)) return null;
    const form = el('form', undefined, 'panel');
    const select = el('select');
    select.name = 'planId';
    const label = el('label', 'Switch to');
    label.htmlFor = select.id = `plan-${item.subscription.id}`;
    for (const plan of others) {
      const option = el('option', `${plan.name}: ${usdc(plan.amount)} ${per(plan)}`);
      option.value = plan.id;
      select.append(option);
    }
    const submit = el('button', 'Switch plan', 'secondary');
    submit.type = 'submit';
    submit.setAttribute('data-action', 'switch-plan');
    form.append(label, select, submit);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void act(submit, `/subscriptions/${item.subscription.id}/change-plan`, { planId: select.value }, 'Your plan change is recorded.');
    });
    return form;
  };

  /** Move to another wallet: the customer names it here, and that wallet approves on the change's link. */
  const walletPanel = (item: PortalSubscription): HTMLFormElement => {
    const form = el('form', undefined, 'panel');
    const input = el('input');
    input.name = 'walletAddress';
    input.maxLength = 64;
    input.placeholder = '0x…';
    input.autocomplete = 'off';
    const label = el('label', 'Pay from another wallet');
    label.htmlFor = input.id = `wallet-${item.subscription.id}`;
    const submit = el('button', 'Move to this wallet', 'secondary');
    submit.type = 'submit';
    submit.setAttribute('data-action', 'wallet-change');
    form.append(
      label,
      input,
      el('p', 'The new wallet approves the same amount on the next page; your current wallet pays until then.', 'muted'),
      submit,
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const body = { walletAddress: input.value.trim() };
      void act(
        submit,
        `/subscriptions/${item.subscription.id}/wallet-change`,
        body,
        'Now approve with the new wallet: open the link below.',
      );
    });
    return form;
  };

  const promotionPanel = (item: PortalSubscription): HTMLFormElement => {
    const form = el('form', undefined, 'panel');
    const input = el('input');
    input.name = 'code';
    input.maxLength = 64;
    const label = el('label', 'Promotion code');
    label.htmlFor = input.id = `code-${item.subscription.id}`;
    const submit = el('button', 'Apply', 'secondary');
    submit.type = 'submit';
    submit.setAttribute('data-action', 'apply-code');
    form.append(label, input, submit);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void act(submit, `/subscriptions/${item.subscription.id}/promotion-code`, { code: input.value.trim() }, 'The code is applied.');
    });
    return form;
  };

  const card = (item: PortalSubscription): HTMLElement => {
    const s = item.subscription;
    const box = el('article', undefined, 'card');
    box.setAttribute('data-subscription-id', s.id);
    const head = el('div', undefined, 'row');
    head.append(el('strong', item.plan?.name ?? 'Subscription'), el('span', statusLabel(s.status), 'status'));
    box.append(head, el('div', `${usdc(s.planAmount)} ${item.plan ? per(item.plan) : ''}`.trim(), 'amount'));
    const next = el('div', nextChargeLine(item), 'muted');
    next.setAttribute('data-field', 'next-charge');
    box.append(next);
    const discount = discountLine(item);
    if (discount) box.append(el('div', discount, 'muted'));
    const change = planChangeLine(item, state.plans);
    if (change) {
      const line = el('div', change, 'muted');
      line.setAttribute('data-field', 'plan-change');
      box.append(line);
      if (item.planChangeUrl && safeRedirectUrl(item.planChangeUrl)) {
        const link = el('a', 'Approve the new amount');
        link.href = safeRedirectUrl(item.planChangeUrl)!;
        box.append(link);
      }
    }
    const moving = walletChangeLine(item);
    if (moving) {
      const line = el('div', moving, 'muted');
      line.setAttribute('data-field', 'wallet-change');
      box.append(line);
    }
    const actions = el('div', undefined, 'actions');
    const open = s.status === 'trialing' || s.status === 'active';
    const waitingMove = item.walletChange?.status === 'pending' ? item.walletChange : null;
    if (waitingMove?.hostedUrl && safeRedirectUrl(waitingMove.hostedUrl)) {
      const link = el('a', 'Approve with the new wallet');
      link.href = safeRedirectUrl(waitingMove.hostedUrl)!;
      link.setAttribute('data-action', 'approve-wallet-change');
      box.append(link);
      const withdraw = el('button', 'Keep my current wallet', 'secondary');
      withdraw.setAttribute('data-action', 'cancel-wallet-change');
      withdraw.addEventListener(
        'click',
        () =>
          void act(withdraw, `/subscriptions/${s.id}/wallet-change/cancel`, {}, 'The move is withdrawn; your current wallet keeps paying.'),
      );
      actions.append(withdraw);
    }
    if (open && s.cancelAtPeriodEnd) {
      const undo = el('button', 'Don’t cancel', 'secondary');
      undo.setAttribute('data-action', 'uncancel');
      undo.addEventListener(
        'click',
        () => void act(undo, `/subscriptions/${s.id}/uncancel`, {}, 'Your subscription will renew as before.'),
      );
      actions.append(undo);
    }
    const panels: HTMLElement[] = [];
    if (open && !s.cancelAtPeriodEnd && state.configuration.cancel.mode !== 'off') {
      const panel = cancelPanel(item);
      const cancel = el('button', 'Cancel subscription', 'secondary');
      cancel.setAttribute('data-action', 'cancel');
      cancel.addEventListener('click', () => {
        panel.hidden = !panel.hidden;
      });
      actions.append(cancel);
      panels.push(panel);
    }
    if (open) {
      const change = switchPanel(item);
      if (change) panels.push(change);
      if (state.configuration.promotionCodes) panels.push(promotionPanel(item));
      if (!waitingMove && state.configuration.walletChanges) panels.push(walletPanel(item));
    }
    if (actions.childElementCount > 0) box.append(actions);
    box.append(...panels);
    return box;
  };

  const table = (id: string, rows: string[][], empty: string) => {
    const body = byId(id)!.querySelector('tbody')!;
    body.replaceChildren();
    if (rows.length === 0) {
      const tr = el('tr');
      tr.append(el('td', empty, 'muted'));
      body.append(tr);
    }
    for (const cells of rows) {
      const tr = el('tr');
      cells.forEach((text, index) => tr.append(el('td', text, index === cells.length - 1 ? 'num' : undefined)));
      body.append(tr);
    }
  };

  const load = async () => {
    state = await call<PortalState>(token, 'GET', '/session');
    const [subscriptions, payments, invoices] = await Promise.all([
      call<{ data: PortalSubscription[] }>(token, 'GET', '/subscriptions'),
      call<{ data: PortalPayment[] }>(token, 'GET', '/payments'),
      call<{ data: PortalInvoice[] }>(token, 'GET', '/invoices'),
    ]);
    byId('merchant')!.textContent = state.merchantName;
    const back = byId<HTMLAnchorElement>('return-link')!;
    const returnUrl = state.returnUrl ? safeRedirectUrl(state.returnUrl) : null;
    if (returnUrl) {
      back.href = returnUrl;
      back.textContent = `Return to ${state.merchantName}`;
      back.hidden = false;
    }
    const list = byId('subscriptions')!;
    list.replaceChildren(...subscriptions.data.map(card));
    if (subscriptions.data.length === 0) list.append(el('p', 'No subscriptions.', 'muted'));
    table(
      'payments',
      payments.data.map((p) => [day(p.settledAt ?? p.createdAt), paymentLabel(p.status), usdc(p.amount)]),
      'No payments yet.',
    );
    const invoiceBody = byId('invoices')!.querySelector('tbody')!;
    table(
      'invoices',
      invoices.data.map((i) => [day(i.createdAt), `${i.number} (${i.status})`, usdc(i.total)]),
      'No invoices.',
    );
    invoices.data.forEach((invoice, index) => {
      if (!invoice.pdfUrl) return;
      const link = el('a', 'PDF');
      link.href = invoice.pdfUrl;
      invoiceBody.rows[index]?.cells[1]?.append(' ', link);
    });
  };

  load().catch((error: unknown) => {
    // An expired session: forget it, so the next visit to a portal page asks to sign in again.
    if (error instanceof ApiError && error.status === 401) sessionStorage.removeItem(TOKEN_KEY);
    byId('merchant')!.textContent = 'Customer portal';
    show('error', error instanceof ApiError ? error.message : 'Something went wrong: ' + String(error));
  });
}

/** The merchant's public portal page: one button, Sign-In with Ethereum, then the portal. */
function offerSignIn(configurationId: string): void {
  byId('merchant')!.textContent = 'Manage your subscription';
  const message = byId('message')!;
  const button = byId<HTMLButtonElement>('sign-in')!;
  button.hidden = false;
  button.addEventListener('click', () => {
    button.disabled = true;
    message.removeAttribute('data-kind');
    message.textContent = 'Check your wallet…';
    signInWithWallet(configurationId)
      .then((token) => {
        sessionStorage.setItem(TOKEN_KEY, token);
        button.hidden = true;
        message.textContent = '';
        start(token);
      })
      .catch((error: unknown) => {
        button.disabled = false;
        message.setAttribute('data-kind', 'error');
        // A wallet's refusal (declined, wrong chain, method not supported) is said as such, not as a failure of ours.
        message.textContent = isUserRejection(error)
          ? 'You did not sign in: the wallet request was declined.'
          : error instanceof ApiError || error instanceof UserMessageError
            ? error.message
            : (walletRefusalText(error) ?? 'Something went wrong: ' + String(error));
      });
  });
}

const token = takeToken();
const configurationId = configurationIdOf(location.pathname);
if (token) start(token);
else if (configurationId) offerSignIn(configurationId);
else {
  byId('merchant')!.textContent = 'Customer portal';
  const message = byId('message')!;
  message.setAttribute('data-kind', 'error');
  message.textContent = 'This page needs the link the merchant sent you.';
}
