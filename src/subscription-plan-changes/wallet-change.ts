// A move of a subscription to another wallet, started by the customer in the portal (docs/decisions.md "Re-authorising
// from another wallet"). The customer names the new wallet; that wallet signs a replacement enrolment for the same
// plan and cap on the hosted approval page (/checkout/wallet-changes/{id}, the upgrade's page and relay), and the
// indexer binds it only when its subscriber is the wallet named here (reauthorisation.ts applies it).
import { randomBytes } from 'node:crypto';
import { getAddress, isAddress, isAddressEqual } from 'viem';
import type { Sql } from '../db/client.js';
import { InvalidRequestError, InvalidStateError } from '../errors.js';
import { newId } from '../ids.js';
import type { MerchantScope } from '../http/principal.js';
import type { SubscriptionRow } from '../subscriptions/repo.js';
import { findClockOfWallet } from '../test-clocks/repo.js';
import * as reauthorisations from './reauthorisation-repo.js';

export const walletChangePagePath = (id: string, token: string): string => `/checkout/wallet-changes/${id}?token=${token}`;

export type WalletChange = {
  id: string;
  status: 'pending' | 'submitted' | 'applied' | 'cancelled';
  fromWalletAddress: string;
  walletAddress: string;
  /** The approval page the new wallet signs on; null once the change no longer waits. */
  hostedUrl: string | null;
  /** The period the signed enrolment is first charged in (null before a signature). */
  firstChargeAt: string | null;
  createdAt: string;
};

export function renderWalletChange(r: reauthorisations.ReauthorisationRow, sub: Pick<SubscriptionRow, 'subscriberAddress'>): WalletChange {
  return {
    id: r.id,
    status: r.status === 'pending' && r.periodIndex !== null ? 'submitted' : r.status,
    fromWalletAddress: getAddress(r.previousSubscriberAddress ?? sub.subscriberAddress),
    walletAddress: getAddress(r.newSubscriberAddress!),
    hostedUrl: r.status === 'pending' ? r.hostedUrl : null,
    firstChargeAt: r.firstPeriodStart?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  };
}

/**
 * Records the wallet the customer named for `sub` (an earlier waiting move is cancelled). Refused: a subscription
 * not trialing or active, an upgrade waiting for the subscriber's signature, the wallet it already charges, another customer's wallet at this merchant (a wallet is one
 * customer), or a wallet on another test clock than the subscriber's (the run's time would change).
 */
export async function startWalletChange(
  sql: Sql,
  scope: MerchantScope,
  sub: SubscriptionRow,
  walletAddress: string,
  deps: { publicBaseUrl: string; otherCustomerOf: (wallet: string) => Promise<string | undefined> },
): Promise<reauthorisations.ReauthorisationRow> {
  const refuse = (message: string) => new InvalidRequestError(message, { param: 'walletAddress' });
  if (!isAddress(walletAddress, { strict: false })) throw refuse('Not a wallet address.');
  const wallet = getAddress(walletAddress);
  if (sub.status !== 'trialing' && sub.status !== 'active') {
    throw new InvalidStateError(`The subscription is ${sub.status}: it can move to another wallet only while it is trialing or active.`);
  }
  if (isAddressEqual(wallet, getAddress(sub.subscriberAddress))) throw refuse('The subscription is already charged to this wallet.');
  // One replacement at a time: an upgrade waiting for the subscriber's signature is signed by the current wallet.
  if (sub.pendingPlanChange?.status === 'requires_customer_action') {
    throw new InvalidStateError('A plan change waits for your approval: approve it or ask the merchant to cancel it first.');
  }
  const owner = await deps.otherCustomerOf(wallet);
  if (owner !== undefined && owner !== sub.customerId) {
    throw refuse('This wallet is another customer’s at this merchant: ask the merchant to help.');
  }
  const [clockOfNew, clockOfOld] = await Promise.all([
    findClockOfWallet(sql, scope.merchantId, wallet),
    findClockOfWallet(sql, scope.merchantId, sub.subscriberAddress),
  ]);
  if (clockOfNew !== clockOfOld) throw refuse('The new wallet must be on the same test clock as the subscribing wallet.');
  const id = newId('walletChange');
  const token = randomBytes(32).toString('hex');
  return sql.begin((tx) =>
    reauthorisations.insertWalletChange(tx, {
      id,
      merchantId: scope.merchantId,
      livemode: scope.livemode,
      subscriptionId: sub.id,
      newSubscriberAddress: wallet,
      token,
      hostedUrl: `${deps.publicBaseUrl.replace(/\/+$/, '')}${walletChangePagePath(id, token)}`,
      amount: sub.amount,
    }),
  );
}
