// The two signatures of a hosted enrolment, asked of the wallet in order: the EIP-2612 permit for the subscription
// manager (at the owner's permit nonce on the offer's chain), then the Enrolment of the offer's terms. Shared by the
// plan page and the plan-change approval page.
import { getJson } from '../shared/http.js';
import { wallet } from '../shared/wallet.js';
import { enrolmentTypedData } from './enrolment-signing.js';
import { permitTypedData } from './typed-data.js';
import type { EnrolmentOffer, TokenInfo } from './types.js';

export async function signPermitAndEnrolment(
  offer: EnrolmentOffer,
  token: TokenInfo,
  account: string,
  signing: { nonce: string; deadline: string; show: (text: string) => void; termsLabel: string },
): Promise<{ permitSignature: string; enrolmentSignature: string }> {
  const permitNonce = await getJson<{ nonce: string }>(
    '/v1/tokens/' +
      encodeURIComponent(offer.terms.token) +
      '/permit-nonce?owner=' +
      account +
      '&mode=' +
      (offer.livemode ? 'live' : 'test') +
      '&chainId=' +
      offer.chainId,
  );
  signing.show('Sign the allowance (1 of 2) in your wallet…');
  const permit = permitTypedData(token.domain!, {
    owner: account,
    spender: offer.subscriptionManager,
    value: offer.permitValue,
    nonce: permitNonce.nonce,
    deadline: signing.deadline,
  });
  const permitSignature = await wallet<string>('eth_signTypedData_v4', [account, JSON.stringify(permit)]);
  signing.show('Sign ' + signing.termsLabel + ' (2 of 2) in your wallet…');
  const enrolment = enrolmentTypedData(offer, account, signing.nonce, signing.deadline);
  const enrolmentSignature = await wallet<string>('eth_signTypedData_v4', [account, JSON.stringify(enrolment)]);
  return { permitSignature, enrolmentSignature };
}
