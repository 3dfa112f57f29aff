// Sign-In with Ethereum (EIP-4361) on a merchant's public portal page, /billing-portal/c/{configurationId}:
// a customer without a merchant link proves they hold a subscribing wallet and gets a portal session of
// the customer that wallet is at that merchant, in that mode. We issue the nonce (single use, ten
// minutes); the message must name this host as its domain, a URI on this origin and one of the mode's
// chain ids. The signature is checked by viem against that chain: an EOA's by recovery, a smart-contract
// wallet's through ERC-1271 (and ERC-6492 for one not yet deployed). docs/decisions.md, "Customer portal".
import { randomBytes } from 'node:crypto';
import { getAddress, type Hex } from 'viem';
import { parseSiweMessage } from 'viem/siwe';
import { chainsOf, type ChainConfig } from '../chain/config.js';
import { publicClientFor } from '../chain/clients.js';
import type { Sql } from '../db/client.js';
import { commitWithEvents } from '../events/commit.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { AuthenticationError, InvalidRequestError, NotFoundError } from '../errors.js';
import type { MerchantScope } from '../http/principal.js';
import { findMerchantDisplay } from '../payment-sessions/repo.js';
import * as repo from './repo.js';
import type { SignInBody, SignInNonce } from './schemas.js';
import { openPortalSession } from './service.js';

const NONCE_SECONDS = 10 * 60;
/** A wallet's clock may run a little ahead of ours. */
const CLOCK_SKEW_MS = 5 * 60_000;

export type PortalSignInDeps = { sql: Sql; events: EventDispatcher; chain: ChainConfig; publicBaseUrl: string };

export function createPortalSignIn({ sql, events, chain, publicBaseUrl }: PortalSignInDeps) {
  const origin = new URL(publicBaseUrl);
  const refuse = (message: string) => new InvalidRequestError(message, { param: 'message' });

  const configurationOf = async (configurationId: string) => {
    const configuration = await repo.findConfigurationById(sql, configurationId);
    if (!configuration) throw new NotFoundError('No such portal.', { param: 'configurationId' });
    return configuration;
  };

  return {
    async nonce(configurationId: string): Promise<SignInNonce> {
      const configuration = await configurationOf(configurationId);
      const nonce = randomBytes(16).toString('hex');
      const expiresAt = new Date(Date.now() + NONCE_SECONDS * 1000);
      await repo.insertSignInNonce(sql, { nonce, configurationId, expiresAt });
      // The one customer-facing merchant name (docs/decisions.md), as on every hosted page.
      const merchant = await findMerchantDisplay(sql, { merchantId: configuration.merchantId, livemode: configuration.livemode });
      return {
        nonce,
        domain: origin.host,
        uri: `${origin.origin}/billing-portal/c/${configurationId}`,
        chainIds: chainsOf(chain, configuration.livemode).map((c) => c.chainId),
        merchantName: merchant?.name ?? 'the merchant',
        expiresAt: expiresAt.toISOString(),
      };
    },

    /** A portal session for the wallet's customer, once the message and its signature hold. */
    async signIn(input: SignInBody): Promise<{ token: string; expiresAt: string }> {
      const configuration = await configurationOf(input.configurationId);
      const scope: MerchantScope = { merchantId: configuration.merchantId, livemode: configuration.livemode };
      let fields: ReturnType<typeof parseSiweMessage>;
      try {
        fields = parseSiweMessage(input.message);
      } catch {
        throw refuse('The message is not an EIP-4361 (Sign-In with Ethereum) message.');
      }
      const { address, domain, uri, chainId, nonce, version, issuedAt, expirationTime, notBefore } = fields;
      if (!address || !domain || !uri || !chainId || !nonce || version !== '1' || !issuedAt) {
        throw refuse('The message lacks a field EIP-4361 requires (address, domain, uri, version 1, chain id, nonce, issued at).');
      }
      if (domain !== origin.host) throw refuse(`The message is for ${domain}, not ${origin.host}.`);
      if (!uri.startsWith(`${origin.origin}/`)) throw refuse(`The message's URI is not on ${origin.origin}.`);
      const settings = chainsOf(chain, configuration.livemode).find((c) => c.chainId === chainId);
      if (!settings) throw refuse(`Chain ${chainId} is not a chain of this portal's mode.`);
      const now = Date.now();
      if (issuedAt.getTime() > now + CLOCK_SKEW_MS) throw refuse('The message is issued in the future.');
      if (expirationTime && expirationTime.getTime() <= now) throw refuse('The message has expired.');
      if (notBefore && notBefore.getTime() > now + CLOCK_SKEW_MS) throw refuse('The message is not valid yet.');
      // Used up before the signature is checked: a nonce is good for one attempt, right or wrong.
      if (!(await repo.consumeSignInNonce(sql, nonce, configuration.id))) {
        throw refuse('The nonce is unknown, used or expired: ask for a new one.');
      }
      let valid: boolean;
      try {
        valid = await publicClientFor(settings).verifyMessage({
          address: getAddress(address),
          message: input.message,
          signature: input.signature as Hex,
        });
      } catch {
        valid = false;
      }
      if (!valid) throw new AuthenticationError("The signature is not the wallet's.");
      const customerId = await repo.findCustomerIdByWallet(sql, scope, address);
      if (!customerId) throw new NotFoundError('This wallet has no subscription with this merchant.');
      const { row, token } = await commitWithEvents(sql, events, (tx, record) => openPortalSession(tx, record, scope, customerId, null));
      return { token, expiresAt: row.expiresAt.toISOString() };
    },
  };
}

export type PortalSignIn = ReturnType<typeof createPortalSignIn>;
