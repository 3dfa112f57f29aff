// x402 test pieces: the official facilitator client pointed at a listening test app, and x402 v2
// payments signed by hand (an EOA's signature, or any signature bytes, e.g. a contract wallet's).
import type { AddressInfo } from 'node:net';
import { HTTPFacilitatorClient } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { type Address, type Hex, hashTypedData } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { type Authorization, type ContractDomain, EIP3009_TYPES, randomNonce, signAuthorization } from '../../src/chain/typed-data.js';
import type { TestApp } from './app.js';

/** The official facilitator client against the app's /v1/x402, with `key` on every path (the app must listen). */
export function facilitatorFor(t: TestApp, key: string): HTTPFacilitatorClient {
  const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/x402`;
  return new HTTPFacilitatorClient({
    url,
    createAuthHeaders: async () => {
      const headers = { Authorization: `Bearer ${key}` };
      return { verify: headers, settle: headers, supported: headers };
    },
  });
}

/** What a seller asks for: `amount` of `token` to `payTo` with the exact scheme. */
export function exactRequirements(
  network: string,
  token: Address,
  domain: ContractDomain,
  payTo: Address,
  amount: bigint,
): PaymentRequirements {
  return {
    scheme: 'exact',
    network: network as PaymentRequirements['network'],
    amount: amount.toString(),
    asset: token,
    payTo,
    maxTimeoutSeconds: 300,
    extra: { name: domain.name, version: domain.version },
  };
}

/** The authorization a buyer signs for `requirements`, valid from a minute before the chain's `now` for five minutes. */
export function authorizationFor(
  requirements: PaymentRequirements,
  from: Address,
  now: bigint,
  overrides: Partial<Authorization> = {},
): Authorization {
  return {
    from,
    to: requirements.payTo as Address,
    value: BigInt(requirements.amount),
    validAfter: now - 60n,
    validBefore: now + 300n,
    nonce: randomNonce(),
    ...overrides,
  };
}

/** The EIP-712 digest of an authorization (what a contract wallet's owners sign). */
export const authorizationDigest = (domain: ContractDomain, message: Authorization): Hex =>
  hashTypedData({ domain, types: EIP3009_TYPES, primaryType: 'TransferWithAuthorization', message });

/** The x402 v2 payment payload of `message` with `signature`. */
export function paymentPayload(
  requirements: PaymentRequirements,
  message: Authorization,
  signature: Hex,
  resourceUrl = 'https://seller.example/report',
): PaymentPayload {
  return {
    x402Version: 2,
    resource: { url: resourceUrl, description: 'A paid report', mimeType: 'application/json' },
    accepted: requirements,
    payload: {
      signature,
      authorization: {
        from: message.from,
        to: message.to,
        value: message.value.toString(),
        validAfter: message.validAfter.toString(),
        validBefore: message.validBefore.toString(),
        nonce: message.nonce,
      },
    },
  };
}

/** A payment for `requirements` signed by an EOA buyer. */
export async function signedPayment(
  requirements: PaymentRequirements,
  domain: ContractDomain,
  buyer: PrivateKeyAccount,
  now: bigint,
  overrides: Partial<Authorization> = {},
): Promise<PaymentPayload> {
  const message = authorizationFor(requirements, buyer.address, now, overrides);
  return paymentPayload(requirements, message, await signAuthorization(buyer, domain, 'TransferWithAuthorization', message));
}
