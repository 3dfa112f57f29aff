// The hosted approval of a replacement enrolment (docs/decisions.md "Upgrades above the cap" and "Re-authorising from
// another wallet"): the offer the page shows and asks the expected wallet to sign (a new enrolment starting at the
// subscription's next period: for an upgrade, the subscribing wallet for the new amount; for a wallet change, the wallet
// the customer named, for the current cap and plan), the relay of that signature, and its status. Public like the rest
// of the checkout: the capability is the link's token, good for one change; an unknown change and a wrong token are
// the same 404.
import { getAddress, isAddressEqual } from 'viem';
import type { Sql } from '../db/client.js';
import { InvalidRequestError, InvalidStateError, NotFoundError } from '../errors.js';
import { isId } from '../ids.js';
import type { RelayService } from '../relay/service.js';
import * as planRepo from '../subscription-plans/repo.js';
import * as subscriptionRepo from '../subscriptions/repo.js';
import * as reauthorisations from '../subscription-plan-changes/reauthorisation-repo.js';
import { replacementStart, type ReplacementStart } from '../subscription-plan-changes/reauthorisation-terms.js';
import { businessNow } from '../test-clocks/business-time.js';
import { renderNotFoundPage, renderReauthorisationPage } from './page.js';
import type {
  CheckoutEnrolmentOffer,
  CheckoutReauthorisation,
  CheckoutReauthorisationBody,
  CheckoutReauthorisationOffer,
  CheckoutReauthorisationStatus,
} from './schemas.js';

/** The relay Idempotency-Key of a reauthorisation from the hosted page: one submission per change and enrolment nonce. */
export const reauthorisationIdempotencyKey = (id: string, nonce: string): string => `checkout_${id}_${nonce.toLowerCase()}`;

/** A plan change's id (an upgrade's link) or a wallet change's. */
const isReauthorisationId = (id: string) => isId('planChange', id) || isId('walletChange', id);

/** The wallet whose signature a replacement needs: the one a wallet change named, else the subscriber. */
export const expectedSigner = (r: reauthorisations.ReauthorisationRow, sub: { subscriberAddress: string }): string =>
  getAddress(r.newSubscriberAddress ?? sub.subscriberAddress);

export type ReauthorisationCheckoutDeps = {
  sql: Sql;
  relay: RelayService;
  /** The hosted enrolment's offer of a plan on a chain to a wallet (service.ts): manager, domain, terms, permit. */
  offerFor: (plan: planRepo.PlanRow, chainId: number, wallet: { address: string; param: string }) => Promise<CheckoutEnrolmentOffer>;
};

export function createReauthorisationCheckout({ sql, relay, offerFor }: ReauthorisationCheckoutDeps) {
  const notFound = () => new NotFoundError('No such approval link: the change or its token is unknown.', { param: 'token' });

  async function linkOf(id: string, token: string) {
    const r = isReauthorisationId(id) ? await reauthorisations.findReauthorisationByToken(sql, id, token) : undefined;
    if (!r) throw notFound();
    const sub = (await subscriptionRepo.findSubscriptionById(sql, r.subscriptionId))!;
    return { r, sub };
  }

  /** The offer, or why it cannot be signed now. */
  async function offer(id: string, token: string) {
    const { r, sub } = await linkOf(id, token);
    const what = r.kind === 'wallet_change' ? 'wallet change' : 'plan change';
    if (r.status !== 'pending')
      throw new InvalidStateError(`This ${what} is ${r.status}: there is nothing to approve.`, { param: 'token' });
    if (sub.status !== 'trialing' && sub.status !== 'active') {
      throw new InvalidStateError(`The subscription is ${sub.status}: a ${what} can be approved only while it is trialing or active.`);
    }
    // An upgrade's enrolment is for the new plan and amount; a wallet change's for the current plan and cap.
    const pending = r.kind === 'plan_change' ? sub.pendingPlanChange! : undefined;
    const [target, current] = await Promise.all([
      planRepo.findPlanById(sql, pending?.toPlanId ?? sub.planId),
      planRepo.findPlanById(sql, sub.planId),
    ]);
    const schedule = { anchor: sub.firstPeriodStart, interval: current!.interval, intervalCount: current!.intervalCount };
    const start = replacementStart({
      schedule,
      periods: sub.periods,
      currentPeriodIndex: sub.currentPeriodIndex,
      now: await businessNow(sql, sub),
    });
    if (!start) throw new InvalidStateError(`The subscription is in its last authorised period: there is no next period for a ${what}.`);
    const signer = expectedSigner(r, sub);
    const base = await offerFor(target!, Number(sub.chainId), { address: signer, param: 'token' });
    // A wallet change keeps the cap the customer authorised (which a downgrade within it may leave above the price).
    const amount = r.kind === 'wallet_change' ? r.amount : base.terms.amount;
    const offered: CheckoutReauthorisationOffer = {
      ...base,
      object: 'checkout_reauthorisation_offer',
      kind: r.kind,
      planChangeId: r.planChangeId,
      walletChangeId: r.kind === 'wallet_change' ? r.id : null,
      subscriptionId: sub.id,
      fromPlanName: current!.name,
      fromAmount: pending?.fromAmount ?? sub.priceAmount ?? sub.amount,
      currentSubscriber: getAddress(sub.subscriberAddress),
      subscriber: signer,
      firstChargeAt: start.start.toISOString(),
      chains: base.chains.filter((c) => c.chainId === base.chainId),
      terms: { ...base.terms, amount, periods: start.periods, trialEnd: String(start.start.getTime() / 1000) },
      permitValue: ((BigInt(base.permitValue) / BigInt(base.terms.amount)) * BigInt(amount)).toString(),
    };
    return { r, sub, start, offered };
  }

  return {
    async reauthorisationPage(id: string, token: string | undefined): Promise<{ status: 200 | 404; html: string }> {
      const r = token && isReauthorisationId(id) ? await reauthorisations.findReauthorisationByToken(sql, id, token) : undefined;
      if (!r) return { status: 404, html: renderNotFoundPage() };
      return { status: 200, html: renderReauthorisationPage(r.id, r.kind) };
    },

    async reauthorisationOffer(id: string, token: string): Promise<CheckoutReauthorisationOffer> {
      return (await offer(id, token)).offered;
    },

    /**
     * Where a change stands for the page that submitted it: `pending` (nothing signed yet, or the signature
     * could not be applied and may be given again), `submitted` (bound and relayed, waiting for the indexer),
     * `applied` or `cancelled`.
     */
    async reauthorisationStatus(id: string, token: string): Promise<CheckoutReauthorisationStatus> {
      const { r, sub } = await linkOf(id, token);
      return {
        object: 'checkout_reauthorisation_status',
        id: r.id,
        kind: r.kind,
        subscriptionId: sub.id,
        status: r.status === 'pending' && r.periodIndex !== null ? 'submitted' : r.status,
        subscriber: r.status === 'applied' && r.kind === 'wallet_change' ? getAddress(r.newSubscriberAddress!) : expectedSigner(r, sub),
        firstChargeAt: r.firstPeriodStart?.toISOString() ?? null,
        appliedAt: r.appliedAt?.toISOString() ?? null,
      };
    },

    /**
     * Binds the signed enrolment to the subscription (the period it starts at and that period's start, which the
     * indexer matches: src/subscription-plan-changes/reauthorisation.ts), then relays it.
     */
    async reauthorise(id: string, { token, ...body }: CheckoutReauthorisationBody): Promise<CheckoutReauthorisation> {
      const { r, sub, start, offered } = await offer(id, token);
      if (!isAddressEqual(getAddress(body.subscriber), getAddress(offered.subscriber))) {
        throw new InvalidRequestError(
          r.kind === 'wallet_change'
            ? `Only the wallet ${offered.subscriber} named for this wallet change can approve it.`
            : `Only the subscribing wallet ${offered.subscriber} can approve this upgrade.`,
          { param: 'subscriber' },
        );
      }
      refuseOtherTerms(body.terms, offered, start);
      await reauthorisations.bindReauthorisation(sql, r.id, {
        periodIndex: start.periodIndex,
        firstPeriodStart: start.start,
        enrolmentNonce: body.enrolment.nonce,
      });
      const scope = { merchantId: sub.merchantId, livemode: sub.livemode };
      const submission = await relay.submitSubscription(scope, reauthorisationIdempotencyKey(r.id, body.enrolment.nonce), {
        ...body,
        chainId: offered.chainId,
      });
      return {
        object: 'checkout_reauthorisation',
        id: r.id,
        planChangeId: r.planChangeId,
        nonce: body.enrolment.nonce.toLowerCase(),
        chainId: offered.chainId,
        firstChargeAt: start.start.toISOString(),
        submissionStatus: submission.status,
        transactionHash: submission.transactionHash,
        failureCode: submission.failureCode,
        failureReason: submission.failureReason,
      };
    },
  };
}

/** The terms signed must be exactly those offered: the new amount, the plan's period and window, the bound start. */
function refuseOtherTerms(t: CheckoutReauthorisationBody['terms'], offered: CheckoutReauthorisationOffer, start: ReplacementStart): void {
  const same = (a: string, b: string) => isAddressEqual(getAddress(a), getAddress(b));
  if (
    !same(t.token, offered.terms.token) ||
    !same(t.merchant, offered.terms.merchant) ||
    (t.operator && !same(t.operator, offered.terms.operator))
  ) {
    throw new InvalidRequestError("The terms must name the plan's token, merchant and operator.", { param: 'terms' });
  }
  if (
    t.amount !== offered.terms.amount ||
    t.period !== offered.terms.period ||
    t.periods !== start.periods ||
    t.chargeWindow !== offered.terms.chargeWindow ||
    t.trialEnd !== offered.terms.trialEnd
  ) {
    throw new InvalidRequestError(
      'The terms must be the offered ones: the offered amount, the plan’s period and charge window, the periods left, and trialEnd the next period’s start (GET the offer again: it moves at each period).',
      { param: 'terms' },
    );
  }
}
