// The hosted checkout: the page (public, no key) and its same-origin pay route,
// which relays the customer's signed authorization for the session's merchant
// and mode. The merchant's authority stays on the server: the page never holds
// a key, and the relay only accepts an authorization that pays exactly the
// session's amount and token to its payTo.
import type { Sql } from '../db/client.js';
import { NotFoundError } from '../errors.js';
import { isId } from '../ids.js';
import * as sessionRepo from '../payment-sessions/repo.js';
import type { RelayService } from '../relay/service.js';
import { renderCheckoutPage, renderNotFoundPage } from './page.js';
import type { CheckoutPayBody, CheckoutPayment } from './schemas.js';

/** The relay Idempotency-Key of a checkout payment: one submission per session and authorization nonce. */
export function checkoutIdempotencyKey(sessionId: string, nonce: string): string {
  return `checkout_${sessionId}_${nonce.toLowerCase()}`;
}

export type CheckoutServiceDeps = { sql: Sql; relay: RelayService };

export function createCheckoutService({ sql, relay }: CheckoutServiceDeps) {
  return {
    /** The page's HTML; a 404 page for a malformed or unknown session id. */
    async page(id: string): Promise<{ status: 200 | 404; html: string }> {
      const row = isId('paymentSession', id) ? await sessionRepo.findPaymentSessionById(sql, id) : undefined;
      if (!row) return { status: 404, html: renderNotFoundPage() };
      return { status: 200, html: renderCheckoutPage(row.id) };
    },

    async pay(sessionId: string, body: CheckoutPayBody): Promise<CheckoutPayment> {
      const row = await sessionRepo.findPaymentSessionById(sql, sessionId);
      if (!row) throw new NotFoundError(`No such payment session: ${sessionId}.`, { param: 'id' });
      const scope = { merchantId: row.merchantId, livemode: row.livemode };
      const key = checkoutIdempotencyKey(row.id, body.authorization.nonce);
      // The relay answers a retry of this very authorization (same key) from its record and refuses
      // a session that is not open, a wrong amount, token or recipient before anything is sent.
      const submission = await relay.submitPayment(scope, key, { ...body, token: row.token, paymentSessionId: row.id });
      return { object: 'checkout_payment', sessionId: row.id, submissionStatus: submission.status, transactionHash: submission.transactionHash };
    },
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
