// The enrolment page of a subscription plan: an EIP-2612 permit for the
// subscription manager, then the Enrolment terms (./enrolment-signing.ts), both
// relayed by POST /checkout/plans/{id}/enrol on the chain the customer picked
// among the plan's (./network-picker.ts); then polls the enrolment. An optional promotion code is
// previewed by the offer route (`?promotionCode=`) and sent with the enrolment; a refusal of it is
// shown under its field.
import { ApiError, UserMessageError, fieldRefusal, isUserRejection } from '../shared/errors.js';
import { getJson, postJson, sleep } from '../shared/http.js';
import { formatTokenAmount } from '../shared/money.js';
import { byId, pageControls, setText, somethingWentWrong } from '../shared/page.js';
import { randomNonce } from '../shared/token-calls.js';
import { balanceOf, ensureNetwork, hasWallet, networkTimeMs, refuseAtDoor, requestAccount } from '../shared/wallet.js';
import { enrolmentBody } from './enrolment-signing.js';
import { signPermitAndEnrolment } from './enrolment-wallet.js';
import { MESSAGES, apiRefusalText, discountLine, networkLabel, planPeriod, refusalText } from './messages.js';
import { chosenChainOf, lockNetworks, offerNetworks } from './network-picker.js';
import type { CheckoutChain, EnrolmentOffer, TokenInfo } from './types.js';
import { meteredPlanNote, type MeteredPriceView } from './metered-pricing.js';

type EnrolmentStatus = { submissionStatus: string; failureCode?: string | null; failureReason?: string | null };
type Plan = {
  interval: string;
  intervalCount: number;
  trialPeriodDays: number;
  amount: string;
  /** A metered plan's usage prices and the cap its enrolment authorises (null: a fixed plan). */
  meteredPrices: MeteredPriceView[] | null;
  usageCap: string | null;
};

export function startPlanPage(planId: string): void {
  const ui = pageControls();
  const state: {
    offer: EnrolmentOffer | null;
    token: TokenInfo | null;
    chains: CheckoutChain[];
    plan: Plan | null;
    /** The promotion code the offer was last previewed with (what the enrolment sends). */
    promotionCode: string | null;
  } = {
    offer: null,
    token: null,
    chains: [],
    plan: null,
    promotionCode: null,
  };
  const codeInput = byId<HTMLInputElement>('promotion-code');
  const codeMessage = byId('promotion-code-message');
  const showCodeMessage = (kind: 'info' | 'error', text: string) => {
    codeMessage?.setAttribute('data-kind', kind);
    if (codeMessage) codeMessage.textContent = text;
  };
  const planUrl = (suffix: string) => '/checkout/plans/' + encodeURIComponent(planId) + suffix;
  /** Each choice of network loads its offer; only the latest choice's may fill the page. */
  let loads = 0;

  /** The chains the plan is offered on; an older server names only the offer's chain. */
  function chainsOf(offer: EnrolmentOffer): CheckoutChain[] {
    return offer.chains?.length
      ? offer.chains
      : [{ chainId: offer.chainId, network: 'chain ' + offer.chainId, token: offer.terms.token, addChain: null }];
  }

  async function pollEnrolment(nonce: string): Promise<void> {
    for (;;) {
      const enrolment = await getJson<EnrolmentStatus>(planUrl('/enrolments/' + nonce));
      if (enrolment.submissionStatus === 'confirmed') {
        ui.setBusy(true, 'Subscribed');
        return ui.show('success', 'You are subscribed. Thank you!');
      }
      if (enrolment.submissionStatus === 'failed') {
        ui.setBusy(false, 'Subscribe with wallet');
        lockNetworks(false);
        const named = refusalText(enrolment.failureCode);
        if (named) return ui.show('error', named);
        const reason = enrolment.failureReason ? ': ' + enrolment.failureReason : '.';
        return ui.show('error', 'The subscription could not be created on-chain' + reason + ' Nothing was charged; you can try again.');
      }
      await sleep(1000);
    }
  }

  async function subscribe(): Promise<void> {
    if (ui.isBusy() || !state.offer || !state.token) return;
    // A code typed but not applied is previewed first, so a refusal comes before any signature.
    if (!(await applyTypedCode())) return;
    let offer = state.offer;
    let token = state.token;
    if (!offer || !token) return;
    if (!hasWallet()) return ui.show('error', MESSAGES.noWallet);
    ui.setBusy(true, 'Waiting for wallet…');
    // The chain stays the one being signed for until this try ends.
    lockNetworks(true);
    ui.show('info', 'Connect your wallet…');
    let step = 'connect';
    const nonce = randomNonce();
    try {
      const account = await requestAccount();
      step = 'offer';
      const walletOffer = await offerForWallet(account, offer);
      if (walletOffer) {
        ({ offer, token } = walletOffer);
        ui.setBusy(true, 'Waiting for wallet…');
      }
      step = 'network';
      await ensureNetwork(offer.chainId, chosenChainOf(state.chains, offer.chainId).addChain ?? undefined);
      // An hour on the later of the device's time and the chain's (the wallet is on it by now): a test clock's
      // chain runs ahead of the device (issue 39); a wallet that will not say gets the device's time, as before.
      const signedAt = Math.max(Date.now(), await networkTimeMs().catch(() => Date.now()));
      const deadline = String(Math.floor(signedAt / 1000) + 3600);
      step = 'door';
      await refuseAtDoor(offer.terms.token, account, offer.terms.merchant);
      step = 'balance';
      const balance = await balanceOf(offer.terms.token, account);
      // Under a promotion code the first period pulls the discounted amount.
      // A metered plan's terms authorise its cap; its first period pulls the fixed amount only.
      const firstCharge = offer.discount?.discountedAmount ?? (state.plan?.usageCap ? state.plan.amount : offer.terms.amount);
      if (offer.terms.trialEnd === '0' && balance < BigInt(firstCharge)) {
        throw new UserMessageError(
          'Your balance is too low: you have ' +
            formatTokenAmount(balance, token.decimals, token.symbol) +
            ' and the first period costs ' +
            formatTokenAmount(firstCharge, token.decimals, token.symbol) +
            '.',
        );
      }
      step = 'sign';
      const { permitSignature, enrolmentSignature } = await signPermitAndEnrolment(offer, token, account, {
        nonce,
        deadline,
        show: (text) => ui.show('info', text),
        termsLabel: 'the subscription terms',
      });
      step = 'submit';
      ui.setBusy(true, 'Processing…');
      ui.show('info', 'Submitting your subscription…');
      const body: Record<string, unknown> = {
        chainId: offer.chainId,
        subscriber: account,
        terms: offer.terms,
        permit: { value: offer.permitValue, deadline, signature: permitSignature },
        enrolment: enrolmentBody(nonce, deadline, enrolmentSignature),
      };
      const email = byId<HTMLInputElement>('email')?.value.trim();
      if (email) body.customerEmail = email;
      if (state.promotionCode) body.promotionCode = state.promotionCode;
      await postJson(planUrl('/enrol'), body);
      ui.show('info', 'Subscription submitted. Waiting for confirmation on-chain…');
      await pollEnrolment(nonce);
    } catch (error) {
      ui.setBusy(false, 'Subscribe with wallet');
      lockNetworks(false);
      if (isUserRejection(error)) {
        return ui.show(
          'error',
          step === 'connect'
            ? MESSAGES.rejectedConnect
            : 'You rejected the signature request in your wallet. Nothing was signed up or charged; you can try again.',
        );
      }
      if (error instanceof UserMessageError) return ui.show('error', error.message);
      // A code refused at enrolment (first-time customers only, used up meanwhile): said under its field.
      const codeRefused = fieldRefusal(error, 'promotionCode');
      if (codeRefused) {
        showCodeMessage('error', codeRefused);
        return ui.show(
          'error',
          'The promotion code was refused. Nothing was signed up or charged; remove or change the code and try again.',
        );
      }
      if (error instanceof ApiError) {
        return ui.show(
          'error',
          apiRefusalText(error.api) || 'The subscription could not be submitted: ' + (error.api.message || error.message),
        );
      }
      ui.show('error', somethingWentWrong(error));
    }
  }

  /**
   * The offer for the connected wallet, when it is not the page's: a wallet attached to a test clock with a chain of
   * its own is offered the clock's chain only (issue 39). Undefined when the page's offer stands.
   */
  async function offerForWallet(account: string, shown: EnrolmentOffer): Promise<{ offer: EnrolmentOffer; token: TokenInfo } | undefined> {
    const codeQuery = state.promotionCode ? '&promotionCode=' + encodeURIComponent(state.promotionCode) : '';
    const offer = await getJson<EnrolmentOffer>(planUrl('/enrolment?wallet=' + encodeURIComponent(account) + codeQuery));
    const chains = chainsOf(offer);
    if (chains.some((chain) => chain.chainId === shown.chainId)) return undefined;
    state.chains = chains;
    await showOffer(offer.chainId, offer);
    if (!state.offer || !state.token) throw new UserMessageError('This plan cannot be subscribed to from this wallet on its network.');
    return { offer: state.offer, token: state.token };
  }

  /** The offer on `chainId` (read here unless `known` is it) and the token there fill the page. */
  async function showOffer(chainId: number, known?: EnrolmentOffer): Promise<void> {
    const load = ++loads;
    state.offer = null;
    ui.setBusy(true);
    const codeQuery = state.promotionCode ? '&promotionCode=' + encodeURIComponent(state.promotionCode) : '';
    const offer = known ?? (await getJson<EnrolmentOffer>(planUrl('/enrolment?chainId=' + chainId + codeQuery)));
    // The token on the offer's chain: its EIP-712 domain names that chain.
    const token = await getJson<TokenInfo>(
      '/v1/tokens/' + encodeURIComponent(offer.terms.token) + '?mode=' + (offer.livemode ? 'live' : 'test') + '&chainId=' + offer.chainId,
    );
    if (load !== loads) return;
    const chain = chosenChainOf(chainsOf(offer), offer.chainId);
    setText('merchant', offer.merchantName || 'Subscribe');
    setText('description', offer.planName);
    setText(
      'details',
      'Paid to ' +
        offer.terms.merchant +
        ' on ' +
        networkLabel({ network: chain.network, chainId: chain.chainId, livemode: offer.livemode }),
    );
    const plan = state.plan;
    const price = (units: string) => formatTokenAmount(units, token.decimals, token.symbol);
    const discount = offer.discount ?? null;
    const discountNote = byId('discount');
    if (plan) {
      // Under a promotion code: the discounted price per period, and for how many periods under it.
      const fixed = plan.usageCap ? plan.amount : offer.terms.amount;
      setText('amount', price(discount ? discount.discountedAmount : fixed) + planPeriod(plan.interval, plan.intervalCount));
      const metered = byId('metered');
      if (metered) {
        metered.hidden = !(plan.meteredPrices && plan.usageCap);
        metered.textContent =
          plan.meteredPrices && plan.usageCap
            ? meteredPlanNote({ meteredPrices: plan.meteredPrices, usageCap: plan.usageCap }, token.decimals, token.symbol)
            : '';
      }
      if (plan.trialPeriodDays > 0) setText('description', offer.planName + ' (' + plan.trialPeriodDays + '-day free trial)');
      if (discountNote) {
        discountNote.hidden = !discount;
        discountNote.textContent = discount ? discountLine(discount, plan, offer.terms.amount, price) : '';
      }
    }
    if (!token.supports?.eip2612 || !token.domain) {
      return ui.show('error', 'This token cannot be approved by signature (EIP-2612) on this network.');
    }
    state.offer = offer;
    state.token = token;
    ui.show('info', '');
    ui.setBusy(false, 'Subscribe with wallet');
  }

  /**
   * Previews the code in the field (if it changed since the last preview) on the chosen network's offer.
   * False when the route refused it: its message is under the field and the offer stays without it.
   */
  async function applyTypedCode(): Promise<boolean> {
    const typed = codeInput?.value.trim() ?? '';
    if (typed === (state.promotionCode ?? '') || !state.offer) return true;
    const chainId = state.offer.chainId;
    const previous = state.promotionCode;
    state.promotionCode = typed || null;
    showCodeMessage('info', '');
    try {
      await showOffer(chainId);
      if (typed) showCodeMessage('info', state.offer?.discount ? 'Applied.' : '');
      return true;
    } catch (error) {
      const refused = fieldRefusal(error, 'promotionCode');
      if (!refused) {
        state.promotionCode = previous;
        throw error;
      }
      showCodeMessage('error', refused);
      state.promotionCode = null;
      await showOffer(chainId);
      return false;
    }
  }

  const loadFailed = (error: unknown) => {
    const status = error instanceof ApiError ? error.status : undefined;
    ui.show('error', status === 404 ? 'This subscription plan does not exist.' : 'Could not load the plan: ' + (error as Error).message);
  };

  async function load(): Promise<void> {
    try {
      const [offer, plan] = await Promise.all([
        getJson<EnrolmentOffer>(planUrl('/enrolment')),
        getJson<Plan>('/v1/checkout/plans/' + encodeURIComponent(planId)),
      ]);
      state.plan = plan;
      state.chains = chainsOf(offer);
      // A choice loads that chain's offer (its manager, token and domains); the wallet is switched when it signs.
      offerNetworks(state.chains, offer.livemode, (chain) => void showOffer(chain.chainId).catch(loadFailed));
      await showOffer(offer.chainId, offer);
    } catch (error) {
      loadFailed(error);
    }
  }

  ui.button.addEventListener('click', () => void subscribe().catch(loadFailed));
  byId('apply-code')?.addEventListener('click', () => {
    if (!ui.isBusy()) void applyTypedCode().catch(loadFailed);
  });
  codeInput?.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !ui.isBusy()) void applyTypedCode().catch(loadFailed);
  });
  void load();
}
