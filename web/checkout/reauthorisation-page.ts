// The approval page of a replacement enrolment (the change's hostedUrl): for an upgrade above what the customer
// authorised, the subscribing wallet signs a new Enrolment for the new amount; for a move to another wallet (started in
// the customer portal), the new wallet signs one for the current amount. Either way an EIP-2612 permit and an
// Enrolment whose period 0 is the subscription's next period (./enrolment-signing.ts, as the plan page does), relayed
// by POST .../reauthorise. The page then follows the change's status route until it is applied.
import { ApiError, UserMessageError, isUserRejection } from '../shared/errors.js';
import { getJson, postJson, sleep } from '../shared/http.js';
import { formatTokenAmount } from '../shared/money.js';
import { pageControls, setText, somethingWentWrong } from '../shared/page.js';
import { randomNonce } from '../shared/token-calls.js';
import { ensureNetwork, hasWallet, networkTimeMs, refuseAtDoor, requestAccount } from '../shared/wallet.js';
import { enrolmentBody } from './enrolment-signing.js';
import { signPermitAndEnrolment } from './enrolment-wallet.js';
import { MESSAGES, apiRefusalText, networkLabel, refusalText } from './messages.js';
import type { ReauthorisationOffer, TokenInfo } from './types.js';

type Submission = { submissionStatus: string; failureCode?: string | null; failureReason?: string | null };
type Status = { status: 'pending' | 'submitted' | 'applied' | 'cancelled' };

const BUTTON = 'Approve with wallet';

/** `plan-changes`: an upgrade above the cap; `wallet-changes`: a move to another wallet. */
export function startReauthorisationPage(id: string, kind: 'plan-changes' | 'wallet-changes' = 'plan-changes'): void {
  const ui = pageControls();
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const url = (suffix: string) => '/checkout/' + kind + '/' + encodeURIComponent(id) + suffix;
  const walletChange = kind === 'wallet-changes';
  const state: { offer: ReauthorisationOffer | null; token: TokenInfo | null } = { offer: null, token: null };

  /** Until the indexer applied the change (the status route), or it was withdrawn or refused meanwhile. */
  async function waitForApplied(): Promise<void> {
    for (;;) {
      await sleep(1500);
      const { status } = await getJson<Status>(url('/status?token=' + encodeURIComponent(token)));
      if (status === 'applied') {
        ui.setBusy(true, 'Approved');
        return ui.show(
          'success',
          walletChange
            ? 'Done. From your next period the subscription is charged to this wallet; the previous wallet’s authorisation is cancelled.'
            : 'Approved. Your new plan starts with your next period; your previous authorisation is cancelled.',
        );
      }
      if (status === 'cancelled')
        throw new UserMessageError('This change was cancelled meanwhile: nothing will be charged under your signature.');
      if (status === 'pending') {
        throw new UserMessageError(
          'Your signature could not be applied (the subscription could not take it now): it is cancelled; you can try again.',
        );
      }
    }
  }

  async function approve(): Promise<void> {
    const offer = state.offer;
    const info = state.token;
    if (ui.isBusy() || !offer || !info) return;
    if (!hasWallet()) return ui.show('error', MESSAGES.noWallet);
    ui.setBusy(true, 'Waiting for wallet…');
    ui.show('info', 'Connect your wallet…');
    let step = 'connect';
    const nonce = randomNonce();
    try {
      const account = await requestAccount();
      if (account.toLowerCase() !== offer.subscriber.toLowerCase()) {
        throw new UserMessageError(
          walletChange
            ? 'Connect the new wallet you named (' + offer.subscriber + ') to approve the move.'
            : 'Connect the wallet that pays this subscription (' + offer.subscriber + ') to approve it.',
        );
      }
      step = 'network';
      await ensureNetwork(offer.chainId, offer.chains?.[0]?.addChain ?? undefined);
      const signedAt = Math.max(Date.now(), await networkTimeMs().catch(() => Date.now()));
      const deadline = String(Math.floor(signedAt / 1000) + 3600);
      await refuseAtDoor(offer.terms.token, account, offer.terms.merchant);
      step = 'sign';
      const { permitSignature, enrolmentSignature } = await signPermitAndEnrolment(offer, info, account, {
        nonce,
        deadline,
        show: (text) => ui.show('info', text),
        termsLabel: 'the new terms',
      });
      step = 'submit';
      ui.setBusy(true, 'Processing…');
      ui.show('info', 'Submitting your approval…');
      const submitted = await postJson<Submission>(url('/reauthorise'), {
        token,
        chainId: offer.chainId,
        subscriber: account,
        terms: offer.terms,
        permit: { value: offer.permitValue, deadline, signature: permitSignature },
        enrolment: enrolmentBody(nonce, deadline, enrolmentSignature),
      });
      if (submitted.submissionStatus === 'failed') {
        throw new UserMessageError(
          refusalText(submitted.failureCode) || 'The approval could not be submitted: ' + (submitted.failureReason ?? ''),
        );
      }
      ui.show('info', 'Approval submitted. Waiting for confirmation on-chain…');
      await waitForApplied();
    } catch (error) {
      ui.setBusy(false, BUTTON);
      if (isUserRejection(error)) {
        return ui.show(
          'error',
          step === 'connect' ? MESSAGES.rejectedConnect : 'You rejected the signature request. Nothing changed; you can try again.',
        );
      }
      if (error instanceof UserMessageError) return ui.show('error', error.message);
      if (error instanceof ApiError) {
        return ui.show(
          'error',
          apiRefusalText(error.api) || 'The approval could not be submitted: ' + (error.api.message || error.message),
        );
      }
      ui.show('error', somethingWentWrong(error));
    }
  }

  async function load(): Promise<void> {
    try {
      const offer = await getJson<ReauthorisationOffer>(url('/reauthorisation?token=' + encodeURIComponent(token)));
      const info = await getJson<TokenInfo>(
        '/v1/tokens/' + encodeURIComponent(offer.terms.token) + '?mode=' + (offer.livemode ? 'live' : 'test') + '&chainId=' + offer.chainId,
      );
      const price = (units: string) => formatTokenAmount(units, info.decimals, info.symbol);
      const chain = offer.chains?.[0];
      setText('merchant', offer.merchantName || 'Approve your new plan');
      setText(
        'description',
        walletChange
          ? 'Move ' + offer.planName + ' from ' + offer.currentSubscriber + ' to this wallet'
          : 'Change from ' + offer.fromPlanName + ' (' + price(offer.fromAmount) + ') to ' + offer.planName,
      );
      setText('amount', price(offer.terms.amount) + ' per period');
      setText(
        'details',
        (walletChange ? 'First charged to this wallet on ' : 'First charged at the new amount on ') +
          new Date(offer.firstChargeAt).toUTCString() +
          '; the current period stays as paid. On ' +
          networkLabel({ network: chain?.network ?? 'chain ' + offer.chainId, chainId: offer.chainId, livemode: offer.livemode }) +
          ', from ' +
          offer.subscriber +
          '.',
      );
      if (!info.supports?.eip2612 || !info.domain)
        return ui.show('error', 'This token cannot be approved by signature (EIP-2612) on this network.');
      state.offer = offer;
      state.token = info;
      ui.setBusy(false, BUTTON);
    } catch (error) {
      const status = error instanceof ApiError ? error.status : undefined;
      ui.show(
        'error',
        status === 404
          ? 'This approval link does not exist.'
          : status === 403
            ? 'This plan change no longer waits for your approval.'
            : 'Could not load the plan change: ' + (error as Error).message,
      );
    }
  }

  ui.button.addEventListener('click', () => void approve());
  void load();
}
