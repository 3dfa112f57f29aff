// Paying a payment session through the relay API, as a merchant's integration does: the payer signs
// an EIP-3009 authorization for the session's amount and the merchant posts it to /v1/relay/payments.
import type { Address, PrivateKeyAccount, PublicClient } from 'viem';
import { expect } from 'vitest';
import { type Authorization, randomNonce, readDomain, signAuthorization } from '../../src/chain/typed-data.js';
import type { App } from '../../src/app.js';
import { until } from './until.js';

/** Creates a session for `amount` (or takes `sessionId`), pays it with `payer`'s authorization to `payTo` through the relay, and waits until it completed. */
export async function payRelayedSession(opts: {
  app: App;
  secretKey: string;
  pub: PublicClient;
  token: Address;
  payer: PrivateKeyAccount;
  payTo: Address;
  amount: bigint;
  /** Idempotency-Key prefix of the relay post (the session id follows). */
  keyPrefix: string;
  /** Whose time the authorization's validity is signed from: the chain's (default), or the wall clock's, as most wallets do. */
  signedBy?: 'chain' | 'wall';
  /** Pays this existing session (an invoice's) instead of creating one; `amount` must be its amount. */
  sessionId?: string;
}): Promise<string> {
  const { app, pub, payer, amount } = opts;
  const headers = { authorization: `Bearer ${opts.secretKey}` };
  const session = opts.sessionId
    ? { id: opts.sessionId }
    : (await app.inject({ method: 'POST', url: '/v1/payment-sessions', headers, payload: { amount: amount.toString() } })).json();
  const now = opts.signedBy === 'wall' ? BigInt(Math.floor(Date.now() / 1000)) : (await pub.getBlock()).timestamp;
  const message: Authorization = {
    from: payer.address,
    to: opts.payTo,
    value: amount,
    validAfter: now - 60n,
    validBefore: now + 3600n,
    nonce: randomNonce(),
  };
  const signature = await signAuthorization(payer, await readDomain(pub, opts.token), 'TransferWithAuthorization', message);
  const authorization = {
    ...message,
    value: amount.toString(),
    validAfter: message.validAfter.toString(),
    validBefore: message.validBefore.toString(),
  };
  const paid = await app.inject({
    method: 'POST',
    url: '/v1/relay/payments',
    headers: { ...headers, 'idempotency-key': `${opts.keyPrefix}-${session.id}` },
    payload: { authorization, signature, paymentSessionId: session.id },
  });
  expect(paid.statusCode, paid.body).toBe(200);
  const read = async () => (await app.inject({ method: 'GET', url: `/v1/payment-sessions/${session.id}`, headers })).json();
  await until(read, (s) => s.status === 'completed', 'session completed');
  return session.id;
}
