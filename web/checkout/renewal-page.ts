// The renewal page of a subscription's allowance (linked from the renewal
// email, its token in the URL): one EIP-2612 permit, submitted by the server.
import { ApiError, UserMessageError, isUserRejection } from '../shared/errors.js';
import { getJson, postJson, sleep } from '../shared/http.js';
import { formatTokenAmount } from '../shared/money.js';
import { pageControls, setText, somethingWentWrong } from '../shared/page.js';
import { ensureNetwork, hasWallet, refuseAtDoor, requestAccount, wallet } from '../shared/wallet.js';
import { MESSAGES, apiRefusalText, refusalText } from './messages.js';
import { permitTypedData } from './typed-data.js';
import type { RenewalOffer } from './types.js';

type RenewalStatus = { status: string; failureCode?: string | null; failureReason?: string | null };

export function startRenewalPage(subscriptionId: string): void {
  const ui = pageControls();
  const renewalToken = new URLSearchParams(location.search).get('token') || '';
  let offer: RenewalOffer | null = null;
  const renewalUrl = (suffix: string) => '/checkout/subscriptions/' + encodeURIComponent(subscriptionId) + suffix;

  async function pollRenewal(nonce: string): Promise<void> {
    for (;;) {
      const renewal = await getJson<RenewalStatus>(renewalUrl('/renewals/' + nonce + '?token=' + encodeURIComponent(renewalToken)));
      if (renewal.status === 'confirmed') {
        ui.setBusy(true, 'Renewed');
        return ui.show('success', 'Your authorisation is renewed. Your subscription continues.');
      }
      if (renewal.status === 'failed') {
        ui.setBusy(false, 'Renew with wallet');
        const named = refusalText(renewal.failureCode);
        if (named) return ui.show('error', named);
        const reason = renewal.failureReason ? ': ' + renewal.failureReason : '.';
        return ui.show('error', 'The renewal could not be completed on-chain' + reason + ' You can try again.');
      }
      await sleep(1000);
    }
  }

  async function renew(): Promise<void> {
    const current = offer;
    if (ui.isBusy() || !current) return;
    if (!hasWallet()) return ui.show('error', MESSAGES.noWallet);
    ui.setBusy(true, 'Waiting for wallet…');
    ui.show('info', 'Connect your wallet…');
    let step = 'connect';
    const deadline = String(Math.floor(Date.now() / 1000) + 3600);
    try {
      const account = await requestAccount();
      if (account.toLowerCase() !== current.subscriber.toLowerCase()) {
        throw new UserMessageError('Connect the wallet that pays this subscription: ' + current.subscriber + '.');
      }
      step = 'network';
      await ensureNetwork(current.chainId, current.addChain ?? undefined);
      step = 'door';
      await refuseAtDoor(current.token, account, null);
      step = 'sign';
      ui.show('info', 'Sign the allowance in your wallet…');
      const permit = permitTypedData(current.tokenDomain, {
        owner: account,
        spender: current.spender,
        value: current.permitValue,
        nonce: current.permitNonce,
        deadline,
      });
      const signature = await wallet<string>('eth_signTypedData_v4', [account, JSON.stringify(permit)]);
      step = 'submit';
      ui.setBusy(true, 'Processing…');
      ui.show('info', 'Submitting your renewal…');
      const submitted = await postJson<{ permitNonce: string }>(renewalUrl('/renew'), {
        token: renewalToken,
        permit: { value: current.permitValue, deadline, signature },
      });
      ui.show('info', 'Renewal submitted. Waiting for confirmation on-chain…');
      await pollRenewal(submitted.permitNonce);
    } catch (error) {
      ui.setBusy(false, 'Renew with wallet');
      if (isUserRejection(error)) {
        return ui.show(
          'error',
          step === 'connect'
            ? 'You did not connect your wallet. Nothing changed; you can try again.'
            : 'You rejected the signature request in your wallet. Nothing changed; you can try again.',
        );
      }
      if (error instanceof UserMessageError) return ui.show('error', error.message);
      if (error instanceof ApiError) {
        return ui.show('error', apiRefusalText(error.api) || 'The renewal could not be submitted: ' + (error.api.message || error.message));
      }
      ui.show('error', somethingWentWrong(error));
    }
  }

  async function load(): Promise<void> {
    try {
      const loaded = await getJson<RenewalOffer>(renewalUrl('/renewal?token=' + encodeURIComponent(renewalToken)));
      offer = loaded;
      setText('merchant', loaded.merchantName || 'Renew your subscription');
      setText('description', loaded.planName + ': the current authorisation covers ' + loaded.periodsLeft + ' more payment(s).');
      setText('amount', 'Allow ' + formatTokenAmount(loaded.permitValue, 6, 'USDC'));
      setText(
        'details',
        'Allowance for ' +
          loaded.spender +
          ' on chain ' +
          loaded.chainId +
          (loaded.livemode ? '' : ' (test mode)') +
          '. Nothing is paid when you sign.',
      );
      if (loaded.status === 'cancelled' || loaded.status === 'lapsed' || loaded.status === 'completed') {
        return ui.show('error', 'This subscription is ' + loaded.status + '; there is nothing to renew.');
      }
      ui.setBusy(false, 'Renew with wallet');
    } catch (error) {
      const status = error instanceof ApiError ? error.status : undefined;
      ui.show('error', status === 404 ? 'This renewal link is not valid.' : 'Could not load the renewal: ' + (error as Error).message);
    }
  }

  ui.button.addEventListener('click', () => void renew());
  void load();
}
