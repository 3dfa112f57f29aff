// The hosted checkout: the page (public, no key) and its same-origin pay route,
// which relays the customer's signed authorization for the session's merchant
// and mode. The merchant's authority stays on the server: the page never holds
// a key, and the relay only accepts an authorization that pays exactly the
// session's amount and token to its payTo.
import type { Client } from '@temporalio/client';
import { getAddress, isAddressEqual } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { subscriptionManagerV2Of, type ChainConfig, type ChainSettings } from '../chain/config.js';
import { publicClientFor } from '../chain/clients.js';
import { readDomain } from '../chain/typed-data.js';
import type { Sql } from '../db/client.js';
import { InvalidRequestError, InvalidStateError, NotFoundError } from '../errors.js';
import { isId, newId } from '../ids.js';
import { findPayoutAddressOn } from '../merchants/repo.js';
import * as sessionRepo from '../payment-sessions/repo.js';
import type { RelayService } from '../relay/service.js';
import * as planRepo from '../subscription-plans/repo.js';
import { chosenPlanChain, offeredChainsOf } from '../subscription-plans/offered-chains.js';
import { chargeWindowSeconds, onChainPeriodSecondsV2 } from '../subscriptions/periods.js';
import { recordEnrolmentEmail } from '../subscriptions/renewal-repo.js';
import { enrolmentPromotionCode, previewEnrolmentPromotionCode } from '../discounts/enrolment.js';
import { recordEnrolmentPromotionCode } from '../discounts/repo.js';
import { PERMIT_PERIODS } from '../subscriptions/renewals.js';
import { createRenewalService } from './renewal.js';
import { createReauthorisationCheckout } from './reauthorisation.js';
import { createChainResolver } from '../test-clocks/chain-registry.js';
import { clockChainOfWallet } from '../test-clocks/repo.js';
import { qrSvg } from './deposit-qr.js';
import { checkoutChainOf, networkName, renderDeposit, successUrlFor } from '../payment-sessions/api-shape.js';
import { renderEndedPage, renderReceiptPage } from './final-pages.js';
import { checkoutPageState, showsDepositAddress } from './page-state.js';
import { TRIAL_SLACK_SECONDS } from '../subscriptions/enrolment-match.js';
import { authorisedAmountOf } from '../subscription-plans/metered-prices.js';
import { renderCheckoutPage, renderNotFoundPage, renderPlanPage } from './page.js';
import type {
  CheckoutCustomerEmail,
  CheckoutEnrolBody,
  CheckoutEnrolment,
  CheckoutEnrolmentOffer,
  CheckoutPayBody,
  CheckoutPayment,
} from './schemas.js';

/** Periods of allowance the enrolment page (and each renewal) asks the subscriber to permit. */
export { PERMIT_PERIODS };

/** The relay Idempotency-Key of a checkout payment: one submission per session and authorization nonce. */
export function checkoutIdempotencyKey(sessionId: string, nonce: string): string {
  return `checkout_${sessionId}_${nonce.toLowerCase()}`;
}

/** The relay Idempotency-Key of a plan enrolment from the hosted page: one submission per plan and enrolment nonce. */
export function enrolmentIdempotencyKey(planId: string, nonce: string): string {
  return `checkout_${planId}_${nonce.toLowerCase()}`;
}

/** What the hosted pages show of a relay submission. */
type SubmissionOutcome = {
  chainId: number;
  status: CheckoutPayment['submissionStatus'];
  transactionHash: string | null;
  failureCode: string | null;
  failureReason: string | null;
};

function renderEnrolment(planId: string, nonce: string, submission: SubmissionOutcome): CheckoutEnrolment {
  return {
    object: 'checkout_enrolment',
    planId,
    nonce: nonce.toLowerCase(),
    chainId: submission.chainId,
    submissionStatus: submission.status,
    transactionHash: submission.transactionHash,
    failureCode: submission.failureCode,
    failureReason: submission.failureReason,
  };
}

function renderPayment(sessionId: string, submission: SubmissionOutcome): CheckoutPayment {
  return {
    object: 'checkout_payment',
    sessionId,
    submissionStatus: submission.status,
    transactionHash: submission.transactionHash,
    failureCode: submission.failureCode,
    failureReason: submission.failureReason,
  };
}

export type CheckoutServiceDeps = { sql: Sql; relay: RelayService; chain: ChainConfig; temporal?: Client; taskQueue?: string };

export function createCheckoutService({ sql, relay, chain, temporal, taskQueue }: CheckoutServiceDeps) {
  async function planOf(planId: string): Promise<planRepo.PlanRow> {
    const plan = await planRepo.findPlanById(sql, planId);
    if (!plan) throw new NotFoundError(`No such subscription plan: ${planId}.`, { param: 'planId' });
    if (plan.archivedAt) throw new InvalidStateError('This plan no longer takes new subscribers.', { param: 'planId' });
    return plan;
  }

  const chainOf = createChainResolver({ sql, config: chain });

  /**
   * The chains a plan is offered on to `wallet` (issue 39): a wallet attached to a test clock with a chain of its own
   * (TEST_CLOCK_CHAINS=fork) enrols on the clock's chain only, whose time the clock moves and where its charges go;
   * any other wallet, or none yet, gets the plan's chains. `param` names the wallet in the request.
   */
  async function offeredTo(
    plan: planRepo.PlanRow,
    wallet: { address?: string; param: string },
  ): Promise<{ offered: ChainSettings[]; onClock: boolean }> {
    const offered = offeredChainsOf(chain, plan);
    if (plan.livemode || !wallet.address) return { offered, onClock: false };
    const clockChainId = await clockChainOfWallet(sql, plan.merchantId, wallet.address);
    if (clockChainId === undefined) return { offered, onClock: false };
    // The indexer records an enrolment only for a plan offered on its chain; a clock's fork is none of the named ones.
    if (plan.chainIds !== null) {
      throw new InvalidRequestError(
        `This wallet is attached to a test clock with a chain of its own (${clockChainId}), and this plan is offered only on chains ${plan.chainIds.join(', ')}: enrol it from a wallet off the clock, or use a plan offered on every chain.`,
        { param: wallet.param },
      );
    }
    return { offered: [await chainOf(false, clockChainId)], onClock: true };
  }

  /** What the enrolment page asks the subscriber to sign for a plan on `chainId` (one it is offered on; default its first). */
  async function offerFor(
    plan: planRepo.PlanRow,
    chainId: number | undefined,
    wallet: { address?: string; param: string },
  ): Promise<CheckoutEnrolmentOffer> {
    const { offered, onClock } = await offeredTo(plan, wallet);
    const settings = chosenPlanChain(offered, chainId);
    const merchant = await sessionRepo.findMerchantDisplay(sql, plan);
    // The terms name the merchant's payout on the enrolment's chain (its own there, else the account's).
    const payout = await findPayoutAddressOn(sql, plan, settings.chainId);
    if (!merchant || !payout)
      throw new InvalidRequestError('The merchant cannot take subscriptions yet (no payout address).', { param: 'planId' });
    const operator = settings.operator ?? (settings.operatorKey ? privateKeyToAccount(settings.operatorKey).address : undefined);
    if (!operator)
      throw new InvalidRequestError(`Subscriptions are not configured for ${settings.mode} mode on this deployment.`, { param: 'planId' });
    // New enrolments go to SubscriptionManagerV2; v1 keeps charging what enrolled on it.
    const manager = subscriptionManagerV2Of(settings);
    const managerDomain = await readDomain(publicClientFor(settings), manager);
    // A trial runs from the enrolment's time: on a clock's fork that is the clock's (its chain's), which can be
    // months ahead of the wall clock; a trial end computed from wall time would already have passed there.
    const wallNow = Math.floor(Date.now() / 1000);
    const now = onClock ? Math.max(wallNow, Number((await publicClientFor(settings).getBlock()).timestamp)) : wallNow;
    return {
      object: 'checkout_enrolment_offer',
      planId: plan.id,
      planName: plan.name,
      merchantName: merchant.name,
      livemode: plan.livemode,
      chainId: settings.chainId,
      chains: offered.map((s) => checkoutChainOf({ chainId: s.chainId, token: s.token })),
      subscriptionManager: manager,
      managerDomain: { ...managerDomain, chainId: Number(managerDomain.chainId) },
      terms: {
        token: settings.token,
        merchant: getAddress(payout),
        operator,
        // A metered plan's subscriber authorises its cap per period (usage is billed in arrears up to it).
        amount: authorisedAmountOf(plan),
        period: String(onChainPeriodSecondsV2(plan.interval, plan.intervalCount)),
        periods: 0,
        trialEnd: plan.trialPeriodDays > 0 ? String(now + plan.trialPeriodDays * 86_400) : '0',
        chargeWindow: String(chargeWindowSeconds(plan.interval, plan.intervalCount)),
      },
      permitValue: (BigInt(authorisedAmountOf(plan)) * PERMIT_PERIODS).toString(),
      discount: null,
    };
  }

  return {
    ...createRenewalService({ sql, chain, ...(temporal ? { temporal } : {}), ...(taskQueue ? { taskQueue } : {}) }),
    // An upgrade above the cap: the subscriber's wallet signs the plan's enrolment offer on the subscription's chain.
    ...createReauthorisationCheckout({ sql, relay, offerFor: (plan, chainId, wallet) => offerFor(plan, chainId, wallet) }),

    async planPage(planId: string): Promise<{ status: 200 | 404; html: string }> {
      const plan = isId('plan', planId) ? await planRepo.findPlanById(sql, planId) : undefined;
      if (!plan) return { status: 404, html: renderNotFoundPage() };
      return { status: 200, html: renderPlanPage(plan.id) };
    },

    /** What the enrolment page asks the subscriber to sign for a plan, on the chain chosen (default: the plan's first). */
    async enrolmentOffer(planId: string, chainId?: number, promotionCode?: string, wallet?: string): Promise<CheckoutEnrolmentOffer> {
      const plan = await planOf(planId);
      const offer = await offerFor(plan, chainId, { address: wallet, param: 'wallet' });
      if (promotionCode === undefined) return offer;
      const scope = { merchantId: plan.merchantId, livemode: plan.livemode };
      return { ...offer, discount: await previewEnrolmentPromotionCode(sql, scope, plan, promotionCode) };
    },

    /**
     * Relays a signed permit + enrolment for the plan's merchant and mode on the chain the subscriber chose
     * (one the plan is offered on); the terms must be the plan's there.
     */
    async enrol(planId: string, { customerEmail, promotionCode, ...body }: CheckoutEnrolBody): Promise<CheckoutEnrolment> {
      const plan = await planOf(planId);
      const offer = await offerFor(plan, body.chainId, { address: body.subscriber, param: 'subscriber' });
      const t = body.terms;
      const same = (a: string, b: string) => isAddressEqual(getAddress(a), getAddress(b));
      if (
        !same(t.token, offer.terms.token) ||
        !same(t.merchant, offer.terms.merchant) ||
        (t.operator && !same(t.operator, offer.terms.operator))
      ) {
        throw new InvalidRequestError("The terms must name the plan's token, merchant and operator.", { param: 'terms' });
      }
      if (
        t.amount !== offer.terms.amount ||
        t.period !== offer.terms.period ||
        t.periods !== offer.terms.periods ||
        t.chargeWindow !== offer.terms.chargeWindow
      ) {
        throw new InvalidRequestError("The terms must be the plan's amount, period, periods and charge window.", { param: 'terms' });
      }
      if (BigInt(t.trialEnd) > BigInt(offer.terms.trialEnd) + (offer.terms.trialEnd === '0' ? 0n : BigInt(TRIAL_SLACK_SECONDS))) {
        throw new InvalidRequestError("terms.trialEnd is later than the plan's trial allows.", { param: 'terms.trialEnd' });
      }
      const scope = { merchantId: plan.merchantId, livemode: plan.livemode };
      // A code that cannot be redeemed is refused before anything is relayed; it is redeemed when the
      // indexer projects the subscription (src/subscriptions/chain-events.ts).
      const code = promotionCode === undefined ? undefined : await enrolmentPromotionCode(sql, scope, plan, body.subscriber, promotionCode);
      // The relay checks both signatures against this chain's domains: signed for another chain, they are refused.
      const submission = await relay.submitSubscription(scope, enrolmentIdempotencyKey(plan.id, body.enrolment.nonce), {
        ...body,
        chainId: offer.chainId,
      });
      if (code) {
        await recordEnrolmentPromotionCode(sql, { ...scope, planId: plan.id, subscriberAddress: body.subscriber, promotionCodeId: code });
      }
      // Only once the relay accepted the subscriber's signatures: the email is kept on the wallet's
      // customer, where the subscription the indexer projects finds it (renewal notices).
      if (customerEmail)
        await recordEnrolmentEmail(sql, { id: newId('customer'), ...scope, walletAddress: body.subscriber, email: customerEmail });
      return renderEnrolment(plan.id, body.enrolment.nonce, submission);
    },

    async enrolmentStatus(planId: string, nonce: string): Promise<CheckoutEnrolment> {
      const plan = await planOf(planId);
      const submission = await relay.get({ merchantId: plan.merchantId, livemode: plan.livemode }, enrolmentIdempotencyKey(plan.id, nonce));
      return renderEnrolment(plan.id, nonce, submission);
    },

    /**
     * The page's HTML; a 404 page for a malformed or unknown session id. Only a session that can still
     * be paid gets the paying page; a paid one gets its receipt, an ended one says so (page-state.ts).
     */
    async page(id: string): Promise<{ status: 200 | 404; html: string }> {
      const row = isId('paymentSession', id) ? await sessionRepo.findPaymentSessionById(sql, id) : undefined;
      if (!row) return { status: 404, html: renderNotFoundPage() };
      const state = checkoutPageState(row);
      if (state === 'payable' || state === 'processing') return { status: 200, html: renderCheckoutPage(row.id) };
      const [merchant, context] = await Promise.all([sessionRepo.findMerchantDisplay(sql, row), sessionRepo.findCheckoutContext(sql, row)]);
      const seller = {
        // The one merchant name (merchantDisplayNameSql: the store's name first), as on invoices and emails.
        name: merchant?.name || 'the merchant',
        supportEmail: context.supportEmail,
        purchase: row.productName ?? (context.invoiceNumber ? `Invoice ${context.invoiceNumber}` : null),
      };
      if (state === 'paid') {
        return {
          status: 200,
          html: renderReceiptPage({
            seller,
            amount: row.amount,
            currency: row.currency,
            excess: row.amountExcess,
            paidAt: row.completedAt,
            transactionHash: row.transactionHash,
            network: networkName(Number(row.chainId)),
            livemode: row.livemode,
            returnUrl: successUrlFor(row.successUrl, row.id),
          }),
        };
      }
      return {
        status: 200,
        html: renderEndedPage({
          seller,
          reason: state,
          expiresAt: row.expiresAt,
          received: row.amountReceived,
          currency: row.currency,
          shopUrl: row.cancelUrl,
        }),
      };
    },

    /** The QR code of what is left to pay by transfer (undefined: no such session, no deposit address, or it cannot be paid any more). */
    async depositQr(id: string, chainId?: number): Promise<string | undefined> {
      const row = isId('paymentSession', id) ? await sessionRepo.findPaymentSessionById(sql, id) : undefined;
      const deposit = row && showsDepositAddress(checkoutPageState(row)) && renderDeposit(row);
      if (!deposit) return undefined;
      // One QR per accepted network: the same address, that chain's token and id (EIP-681 `@chainId`).
      const uri = chainId === undefined ? deposit.paymentUri : deposit.networks.find((n) => n.chainId === chainId)?.paymentUri;
      return uri ? qrSvg(uri) : undefined;
    },

    /**
     * The email typed on the payment page, while the session can still be paid. Unverified (anyone with the link can
     * type one): a label of the payment and, at completion, of a customer that has none; never how a customer is found.
     */
    async setCustomerEmail(sessionId: string, email: string): Promise<CheckoutCustomerEmail> {
      const row = await sessionRepo.findPaymentSessionById(sql, sessionId);
      if (!row) throw new NotFoundError(`No such payment session: ${sessionId}.`, { param: 'id' });
      if (!(await sessionRepo.setCustomerEmail(sql, row.id, email)))
        throw new InvalidStateError(`The payment session is ${row.status}: its email can no longer change.`);
      return { object: 'checkout_customer_email', sessionId: row.id, email };
    },

    async pay(sessionId: string, body: CheckoutPayBody): Promise<CheckoutPayment> {
      const row = await sessionRepo.findPaymentSessionById(sql, sessionId);
      if (!row) throw new NotFoundError(`No such payment session: ${sessionId}.`, { param: 'id' });
      const scope = { merchantId: row.merchantId, livemode: row.livemode };
      const key = checkoutIdempotencyKey(row.id, body.authorization.nonce);
      // The chain the customer chose on the page, with the session's token there (USDC has an address per chain).
      const accepted = sessionRepo.acceptedChainsOf(row);
      const chosen = body.chainId === undefined ? accepted[0]! : accepted.find((c) => c.chainId === body.chainId);
      if (!chosen) {
        throw new InvalidRequestError(
          `This checkout is not paid on chain ${body.chainId}; it accepts ${accepted.map((c) => c.chainId).join(', ')}.`,
          { param: 'chainId' },
        );
      }
      // The relay answers a retry of this very authorization (same key) from its record and refuses
      // a session that is not open, a wrong amount, token or recipient before anything is sent.
      const submission = await relay.submitPayment(scope, key, {
        ...body,
        chainId: chosen.chainId,
        token: chosen.token,
        paymentSessionId: row.id,
      });
      return renderPayment(row.id, submission);
    },

    /** The submission of the authorization with `nonce` for this session: why it failed, when it did. */
    async paymentStatus(sessionId: string, nonce: string): Promise<CheckoutPayment> {
      const row = await sessionRepo.findPaymentSessionById(sql, sessionId);
      if (!row) throw new NotFoundError(`No such payment session: ${sessionId}.`, { param: 'id' });
      const submission = await relay
        .get({ merchantId: row.merchantId, livemode: row.livemode }, checkoutIdempotencyKey(row.id, nonce))
        .catch((error: unknown) => {
          if (error instanceof NotFoundError)
            throw new NotFoundError(`No payment with authorization nonce ${nonce} was posted for this session.`, { param: 'nonce' });
          throw error;
        });
      return renderPayment(row.id, submission);
    },
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
