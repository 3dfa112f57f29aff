// The hosted approval of an upgrade above the cap (docs/decisions.md "Upgrades above the cap"): the offer the page
// shows and asks the subscribing wallet to sign (a new enrolment for the new amount, starting at the subscription's
// next period), and the relay of that signature. Public like the rest of the checkout: the capability is the link's
// token, good for one plan change; an unknown change and a wrong token are the same 404.
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
} from './schemas.js';

/** The relay Idempotency-Key of a reauthorisation from the hosted page: one submission per change and enrolment nonce. */
export const reauthorisationIdempotencyKey = (planChangeId: string, nonce: string): string =>
  `checkout_${planChangeId}_${nonce.toLowerCase()}`;

export type ReauthorisationCheckoutDeps = {
  sql: Sql;
  relay: RelayService;
  /** The hosted enrolment's offer of a plan on a chain to a wallet (service.ts): manager, domain, terms, permit. */
  offerFor: (plan: planRepo.PlanRow, chainId: number, wallet: { address: string; param: string }) => Promise<CheckoutEnrolmentOffer>;
};

export function createReauthorisationCheckout({ sql, relay, offerFor }: ReauthorisationCheckoutDeps) {
  const notFound = () => new NotFoundError('No such approval link: the plan change or its token is unknown.', { param: 'token' });

  async function linkOf(planChangeId: string, token: string) {
    const r = isId('planChange', planChangeId) ? await reauthorisations.findReauthorisationByToken(sql, planChangeId, token) : undefined;
    if (!r) throw notFound();
    const sub = (await subscriptionRepo.findSubscriptionById(sql, r.subscriptionId))!;
    return { r, sub };
  }

  /** The offer, or why it cannot be signed now. */
  async function offer(planChangeId: string, token: string) {
    const { r, sub } = await linkOf(planChangeId, token);
    if (r.status !== 'pending')
      throw new InvalidStateError(`This plan change is ${r.status}: there is nothing to approve.`, { param: 'token' });
    if (sub.status !== 'trialing' && sub.status !== 'active') {
      throw new InvalidStateError(`The subscription is ${sub.status}: an upgrade can be approved only while it is trialing or active.`);
    }
    const pending = sub.pendingPlanChange!;
    const [target, current] = await Promise.all([planRepo.findPlanById(sql, pending.toPlanId), planRepo.findPlanById(sql, sub.planId)]);
    const schedule = { anchor: sub.firstPeriodStart, interval: current!.interval, intervalCount: current!.intervalCount };
    const start = replacementStart({
      schedule,
      periods: sub.periods,
      currentPeriodIndex: sub.currentPeriodIndex,
      now: await businessNow(sql, sub),
    });
    if (!start) throw new InvalidStateError('The subscription is in its last authorised period: there is no next period to upgrade.');
    const base = await offerFor(target!, Number(sub.chainId), { address: sub.subscriberAddress, param: 'token' });
    const offered: CheckoutReauthorisationOffer = {
      ...base,
      object: 'checkout_reauthorisation_offer',
      planChangeId: r.planChangeId,
      subscriptionId: sub.id,
      fromPlanName: current!.name,
      fromAmount: pending.fromAmount,
      subscriber: getAddress(sub.subscriberAddress),
      firstChargeAt: start.start.toISOString(),
      chains: base.chains.filter((c) => c.chainId === base.chainId),
      terms: { ...base.terms, periods: start.periods, trialEnd: String(start.start.getTime() / 1000) },
    };
    return { r, sub, start, offered };
  }

  return {
    async reauthorisationPage(planChangeId: string, token: string | undefined): Promise<{ status: 200 | 404; html: string }> {
      const r =
        token && isId('planChange', planChangeId) ? await reauthorisations.findReauthorisationByToken(sql, planChangeId, token) : undefined;
      if (!r) return { status: 404, html: renderNotFoundPage() };
      return { status: 200, html: renderReauthorisationPage(r.planChangeId) };
    },

    async reauthorisationOffer(planChangeId: string, token: string): Promise<CheckoutReauthorisationOffer> {
      return (await offer(planChangeId, token)).offered;
    },

    /**
     * Binds the signed enrolment to the subscription (the period it starts at and that period's start, which the
     * indexer matches: src/subscription-plan-changes/reauthorisation.ts), then relays it.
     */
    async reauthorise(planChangeId: string, { token, ...body }: CheckoutReauthorisationBody): Promise<CheckoutReauthorisation> {
      const { r, sub, start, offered } = await offer(planChangeId, token);
      if (!isAddressEqual(getAddress(body.subscriber), getAddress(sub.subscriberAddress))) {
        throw new InvalidRequestError(`Only the subscribing wallet ${offered.subscriber} can approve this upgrade.`, {
          param: 'subscriber',
        });
      }
      refuseOtherTerms(body.terms, offered, start);
      await reauthorisations.bindReauthorisation(sql, r.planChangeId, {
        periodIndex: start.periodIndex,
        firstPeriodStart: start.start,
        enrolmentNonce: body.enrolment.nonce,
      });
      const scope = { merchantId: sub.merchantId, livemode: sub.livemode };
      const submission = await relay.submitSubscription(scope, reauthorisationIdempotencyKey(r.planChangeId, body.enrolment.nonce), {
        ...body,
        chainId: offered.chainId,
      });
      return {
        object: 'checkout_reauthorisation',
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
      'The terms must be the offered ones: the new amount, the plan’s period and charge window, the periods left, and trialEnd the next period’s start (GET the offer again: it moves at each period).',
      { param: 'terms' },
    );
  }
}
