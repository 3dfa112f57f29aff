// HTTP routes of the customer portal: its sessions and configuration in the merchant API (/v1), and the
// portal itself (/billing-portal), authenticated by the portal session's token, never by a merchant key.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceOn } from '../db/client.js';
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import { optionalBody } from '../http/schemas.js';
import type { FastifyZodInstance } from '../http/types.js';
import { registerHostedScriptRoute } from '../hosted-pages/scripts.js';
import { z } from 'zod';
import { PORTAL_SCRIPT_PATH, PORTAL_SECURITY_HEADERS, renderPortalPage } from './page.js';
import {
  createPortalSessionBody,
  portalCancelBody,
  portalChangePlanBody,
  portalConfiguration,
  portalConfigurationPageParams,
  portalInvoices,
  portalPayments,
  portalPromotionCodeBody,
  portalWalletChangeBody,
  portalSession,
  portalState,
  portalSubscription,
  portalSubscriptionParams,
  portalSubscriptions,
  signInBody,
  signInNonce,
  signInNonceBody,
  signedIn,
  updatePortalConfigurationBody,
} from './schemas.js';
import type { PortalSessionRow } from './repo.js';
import type { PortalSignIn } from './sign-in.js';
import { PORTAL_PATH, type BillingPortalService } from './service.js';

const TAG = 'Billing portal';
const PORTAL_TAG = 'Billing portal (customer)';
const API = '/billing-portal/api';
const hiddenRoute = (summary: string) => ({ hide: true, tags: [PORTAL_TAG], summary });

export function registerBillingPortalRoutes(
  app: FastifyZodInstance,
  portal: ServiceOn<BillingPortalService>,
  signIn: PortalSignIn,
  assets: { distDir?: string | undefined } = {},
): void {
  app.route({
    method: 'POST',
    url: '/v1/billing-portal/sessions',
    // A portal session lets the customer change their subscriptions, so it takes the right to change them.
    config: { access: access.scope('subscriptions_write') },
    schema: {
      tags: [TAG],
      summary: 'Create a customer portal session',
      description:
        'A link (`url`) for one customer of this merchant and mode to a hosted page where they see their subscriptions (next charge amount and date, discount, pending plan change), payments and invoices, and cancel, undo a cancel at period end, switch plan or apply a promotion code as the portal configuration allows. The link works for one hour (`expiresAt`); only a hash of its token is kept, so the `url` is returned only here. An unknown customer, or another merchant’s or mode’s, is `invalid_request` (param `customerId`); `returnUrl` must be https (http only for localhost in test mode), else `invalid_request` (param `returnUrl`).',
      operationId: 'createBillingPortalSession',
      body: createPortalSessionBody,
      response: { 200: portalSession },
    },
    handler: (request) => portal(request.db).createSession(requestScope(request), request.body),
  });

  app.route({
    method: 'GET',
    url: '/v1/billing-portal/configuration',
    config: { access: access.scope('subscriptions_read') },
    schema: {
      tags: [TAG],
      summary: 'Retrieve the portal configuration',
      description:
        'What the customer portal offers in this mode. Until it is changed: cancel at the end of the period with every reason offered, no plan switching, no promotion codes (`id` null).',
      response: { 200: portalConfiguration },
    },
    handler: (request) => portal(request.db).getConfiguration(requestScope(request)),
  });

  app.route({
    method: 'POST',
    url: '/v1/billing-portal/configuration',
    config: { access: access.scope('subscriptions_write') },
    schema: {
      tags: [TAG],
      summary: 'Update the portal configuration',
      description:
        'Changes only the keys sent. `planSwitching.planIds`: plans of this merchant and mode, not archived (else `invalid_request`, param `planSwitching.planIds.<index>`); a customer may switch between them when their subscription is on one of them, under the rules of `POST /v1/subscriptions/{id}/change-plan`. An empty list turns switching off.',
      operationId: 'updateBillingPortalConfiguration',
      body: updatePortalConfigurationBody,
      response: { 200: portalConfiguration },
    },
    handler: (request) => portal(request.db).updateConfiguration(requestScope(request), request.body),
  });

  // The portal page and its script (public; the token is in the link's fragment).
  registerHostedScriptRoute(app, {
    url: PORTAL_SCRIPT_PATH,
    name: 'portal.js',
    headers: PORTAL_SECURITY_HEADERS,
    tag: PORTAL_TAG,
    summary: 'The customer portal script',
    distDir: assets.distDir,
  });

  app.route({
    method: 'GET',
    url: PORTAL_PATH,
    config: { access: access.public() },
    schema: { hide: true, tags: [PORTAL_TAG], summary: 'The customer portal page' },
    handler: (_request, reply) =>
      (reply as FastifyReply).headers(PORTAL_SECURITY_HEADERS).type('text/html; charset=utf-8').send(renderPortalPage()),
  });

  // The merchant's public portal page: the customer signs in with their wallet (Sign-In with Ethereum).
  app.route({
    method: 'GET',
    url: '/billing-portal/c/:configurationId',
    config: { access: access.public() },
    schema: {
      hide: true,
      tags: [PORTAL_TAG],
      summary: "The merchant's portal page (wallet sign-in)",
      params: portalConfigurationPageParams,
    },
    handler: (_request, reply) =>
      (reply as FastifyReply).headers(PORTAL_SECURITY_HEADERS).type('text/html; charset=utf-8').send(renderPortalPage()),
  });

  app.route({
    method: 'POST',
    url: `${API}/sign-in/nonce`,
    config: { access: access.public() },
    schema: { ...hiddenRoute('A nonce for Sign-In with Ethereum'), body: signInNonceBody, response: { 200: signInNonce } },
    handler: (request, reply) => {
      reply.headers({ 'cache-control': 'no-store' });
      return signIn.nonce(request.body.configurationId);
    },
  });

  app.route({
    method: 'POST',
    url: `${API}/sign-in`,
    config: { access: access.public() },
    schema: { ...hiddenRoute('Sign in with the subscribing wallet'), body: signInBody, response: { 200: signedIn } },
    handler: (request, reply) => {
      reply.headers({ 'cache-control': 'no-store' });
      return signIn.signIn(request.body);
    },
  });

  // The portal's JSON routes: public to the auth plugin (no merchant key), authenticated by the portal token
  // in their own first hook, so a caller without a live session learns nothing from validation or lookups.
  const sessions = new WeakMap<object, PortalSessionRow>();
  const onRequest = async (request: FastifyRequest) => {
    sessions.set(request, await portal(request.db).authenticate(request.headers.authorization));
  };
  const session = (request: object) => sessions.get(request)!;
  const noStore = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

  app.route({
    method: 'GET',
    url: `${API}/session`,
    config: { access: access.public() },
    onRequest,
    schema: { ...hiddenRoute('The portal session: merchant, customer, configuration'), response: { 200: portalState } },
    handler: (request, reply) => {
      reply.headers(noStore);
      return portal(request.db).state(session(request));
    },
  });

  app.route({
    method: 'GET',
    url: `${API}/subscriptions`,
    config: { access: access.public() },
    onRequest,
    schema: { ...hiddenRoute("The customer's subscriptions"), response: { 200: portalSubscriptions } },
    handler: (request, reply) => {
      reply.headers(noStore);
      return portal(request.db).subscriptions(session(request));
    },
  });

  app.route({
    method: 'GET',
    url: `${API}/payments`,
    config: { access: access.public() },
    onRequest,
    schema: { ...hiddenRoute("The customer's subscription charges"), response: { 200: portalPayments } },
    handler: (request, reply) => {
      reply.headers(noStore);
      return portal(request.db).payments(session(request));
    },
  });

  app.route({
    method: 'GET',
    url: `${API}/invoices`,
    config: { access: access.public() },
    onRequest,
    schema: { ...hiddenRoute("The customer's invoices"), response: { 200: portalInvoices } },
    handler: (request, reply) => {
      reply.headers(noStore);
      return portal(request.db).invoices(session(request));
    },
  });

  app.route({
    method: 'POST',
    url: `${API}/subscriptions/:id/cancel`,
    config: { access: access.public() },
    onRequest,
    schema: {
      ...hiddenRoute('Cancel a subscription'),
      params: portalSubscriptionParams,
      body: portalCancelBody,
      response: { 200: portalSubscription },
    },
    handler: (request, reply) => {
      reply.headers(noStore);
      return portal(request.db).cancel(session(request), request.params.id, request.body);
    },
  });

  app.route({
    method: 'POST',
    url: `${API}/subscriptions/:id/uncancel`,
    config: { access: access.public() },
    onRequest,
    schema: {
      ...hiddenRoute('Undo a cancel at period end'),
      params: portalSubscriptionParams,
      body: optionalBody(z.object({}).strict()),
      response: { 200: portalSubscription },
    },
    handler: (request, reply) => {
      reply.headers(noStore);
      return portal(request.db).uncancel(session(request), request.params.id);
    },
  });

  app.route({
    method: 'POST',
    url: `${API}/subscriptions/:id/change-plan`,
    config: { access: access.public() },
    onRequest,
    schema: {
      ...hiddenRoute('Switch plan'),
      params: portalSubscriptionParams,
      body: portalChangePlanBody,
      response: { 200: portalSubscription },
    },
    handler: (request, reply) => {
      reply.headers(noStore);
      return portal(request.db).changePlan(session(request), request.params.id, request.body.planId);
    },
  });

  app.route({
    method: 'POST',
    url: `${API}/subscriptions/:id/promotion-code`,
    config: { access: access.public() },
    onRequest,
    schema: {
      ...hiddenRoute('Apply a promotion code'),
      params: portalSubscriptionParams,
      body: portalPromotionCodeBody,
      response: { 200: portalSubscription },
    },
    handler: (request, reply) => {
      reply.headers(noStore);
      return portal(request.db).applyPromotionCode(session(request), request.params.id, request.body.code);
    },
  });

  app.route({
    method: 'POST',
    url: `${API}/subscriptions/:id/wallet-change`,
    config: { access: access.public() },
    onRequest,
    schema: {
      ...hiddenRoute('Move a subscription to another wallet'),
      params: portalSubscriptionParams,
      body: portalWalletChangeBody,
      response: { 200: portalSubscription },
    },
    handler: (request, reply) => {
      reply.headers(noStore);
      return portal(request.db).startWalletChange(session(request), request.params.id, request.body.walletAddress);
    },
  });

  app.route({
    method: 'POST',
    url: `${API}/subscriptions/:id/wallet-change/cancel`,
    config: { access: access.public() },
    onRequest,
    schema: {
      ...hiddenRoute('Withdraw a move to another wallet'),
      params: portalSubscriptionParams,
      body: optionalBody(z.object({}).strict()),
      response: { 200: portalSubscription },
    },
    handler: (request, reply) => {
      reply.headers(noStore);
      return portal(request.db).cancelWalletChange(session(request), request.params.id);
    },
  });
}
