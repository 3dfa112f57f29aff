// Sign-In with Ethereum (EIP-4361) on the merchant's public portal page: the wallet signs a message
// naming this host, this page, its chain and our nonce; the server checks it and answers a portal token.
import { getAddress, stringToHex } from 'viem';
import { createSiweMessage } from 'viem/siwe';
import { postJson } from '../shared/http.js';
import { UserMessageError } from '../shared/errors.js';
import { ensureNetwork, requestAccount, wallet } from '../shared/wallet.js';

type Nonce = { nonce: string; domain: string; uri: string; chainIds: number[]; merchantName: string; expiresAt: string };

/** The portal page's configuration id, when this is a merchant's public portal page. */
export function configurationIdOf(pathname: string): string | null {
  const match = /^\/billing-portal\/c\/([^/]+)\/?$/.exec(pathname);
  return match ? decodeURIComponent(match[1]!) : null;
}

/** Asks the wallet to sign in; answers the portal token. */
export async function signInWithWallet(configurationId: string): Promise<string> {
  if (typeof window.ethereum?.request !== 'function') throw new UserMessageError('No wallet found in this browser.');
  const account = getAddress(await requestAccount());
  const offer = await postJson<Nonce>('/billing-portal/api/sign-in/nonce', { configurationId });
  let chainId = Number(BigInt(await wallet<string>('eth_chainId')));
  if (!offer.chainIds.includes(chainId)) {
    await ensureNetwork(offer.chainIds[0]!);
    chainId = offer.chainIds[0]!;
  }
  const message = createSiweMessage({
    domain: offer.domain,
    address: account,
    statement: `Sign in to manage your subscriptions with ${offer.merchantName}.`,
    uri: offer.uri,
    version: '1',
    chainId,
    nonce: offer.nonce,
    issuedAt: new Date(),
    expirationTime: new Date(offer.expiresAt),
  });
  const signature = await wallet<string>('personal_sign', [stringToHex(message), account]);
  const { token } = await postJson<{ token: string }>('/billing-portal/api/sign-in', { configurationId, message, signature });
  return token;
}
