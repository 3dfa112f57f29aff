// Routes of the merchant account: first-login sync, the merchant, the three
// live-mode checks and account settings. The merchant and its eligibility are
// readable with any secret key of the merchant too; the rest is dashboard only,
// except the accepted chains of a mode (payment-session scopes: a checkout setting) and the payout address
// per chain, which secret keys may read.
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
import { access } from '../http/access.js';
import { optionalBody } from '../http/schemas.js';
import { dashboardIdentity, dashboardMerchantId, requestScope } from '../http/principal.js';
import type { AcceptedChainsService } from './accepted-chains.js';
import type { ChainPayoutService } from './chain-payouts.js';
import {
  acceptedChains,
  acceptedChainsBody,
  allowedOriginsBody,
  apiVersionBody,
  businessProfileBody,
  chainPayoutBody,
  chainPayoutList,
  chainPayoutParams,
  confirmCodeBody,
  eligibility,
  emailVerificationStarted,
  merchant,
  startEmailVerificationBody,
  syncBody,
  twoFactorEnrolment,
} from './schemas.js';
import type { MerchantService } from './service.js';

const tags = ['Merchant account'];

export function registerMerchantRoutes(app: FastifyZodInstance, merchants: ServiceOn<MerchantService>): void {
  app.route({
    method: 'POST',
    url: '/v1/auth/sync',
    config: { access: access.dashboardIdentity() },
    schema: {
      operationId: 'syncMerchant',
      tags,
      summary: 'Create the merchant of a dashboard user (idempotent)',
      description:
        "Call after a request answered `merchant_not_synced`. Creates the merchant for the token's user (`sub`), taking " +
        "email and name from the token's claims; a second call returns the same merchant.",
      body: optionalBody(syncBody),
      response: { 200: merchant },
    },
    handler: (request) => merchants(request.db).sync(dashboardIdentity(request), request.body),
  });

  app.route({
    method: 'GET',
    url: '/v1/merchants/me',
    config: { access: access.merchant() },
    schema: {
      operationId: 'getMerchant',
      tags,
      summary: 'The merchant',
      description: 'The merchant of the dashboard session, or the merchant the secret key belongs to.',
      response: { 200: merchant },
    },
    handler: (request) => merchants(request.db).me(requestScope(request).merchantId),
  });

  app.route({
    method: 'GET',
    url: '/v1/merchants/me/live-mode-eligibility',
    config: { access: access.merchant() },
    schema: {
      operationId: 'getLiveModeEligibility',
      tags,
      summary: 'Live-mode eligibility with a reason per unmet check',
      response: { 200: eligibility },
    },
    handler: (request) => merchants(request.db).eligibility(requestScope(request).merchantId),
  });

  app.route({
    method: 'POST',
    url: '/v1/merchants/me/email-verification',
    config: { access: access.dashboard() },
    schema: {
      operationId: 'startEmailVerification',
      tags,
      summary: 'Email a verification code to the owner',
      body: optionalBody(startEmailVerificationBody),
      response: { 200: emailVerificationStarted },
    },
    handler: (request) => merchants(request.db).startEmailVerification(dashboardMerchantId(request), request.body),
  });

  app.route({
    method: 'POST',
    url: '/v1/merchants/me/email-verification/confirm',
    config: { access: access.dashboard() },
    schema: {
      operationId: 'confirmEmailVerification',
      tags,
      summary: 'Confirm the emailed code',
      body: confirmCodeBody,
      response: { 200: merchant },
    },
    handler: (request) => merchants(request.db).confirmEmail(dashboardMerchantId(request), request.body.code),
  });

  app.route({
    method: 'POST',
    url: '/v1/merchants/me/two-factor',
    config: { access: access.dashboard() },
    schema: {
      operationId: 'startTwoFactorEnrolment',
      tags,
      summary: 'Start TOTP enrolment',
      description: 'Returns a new secret and otpauth URI; two-factor is enabled once confirmed with a valid code.',
      response: { 200: twoFactorEnrolment },
    },
    handler: (request) => merchants(request.db).enrolTwoFactor(dashboardMerchantId(request)),
  });

  app.route({
    method: 'POST',
    url: '/v1/merchants/me/two-factor/confirm',
    config: { access: access.dashboard() },
    schema: {
      operationId: 'confirmTwoFactorEnrolment',
      tags,
      summary: 'Confirm TOTP enrolment with a current code',
      body: confirmCodeBody,
      response: { 200: merchant },
    },
    handler: (request) => merchants(request.db).confirmTwoFactor(dashboardMerchantId(request), request.body.code),
  });

  app.route({
    method: 'PUT',
    url: '/v1/merchants/me/api-version',
    config: { access: access.dashboard() },
    schema: {
      operationId: 'pinApiVersion',
      tags,
      summary: 'Pin the API version',
      description:
        "The dated version used for this merchant's requests that send no `Service-Version` header (spec: the version is chosen by the header or pinned in the dashboard). API keys pick up a new pin within 30 seconds.",
      body: apiVersionBody,
      response: { 200: merchant },
    },
    handler: (request) => merchants(request.db).pinApiVersion(dashboardMerchantId(request), request.body.apiVersion),
  });

  app.route({
    method: 'PUT',
    url: '/v1/merchants/me/allowed-origins',
    config: { access: access.dashboard() },
    schema: {
      operationId: 'setAllowedOrigins',
      tags,
      summary: 'Set the origins allowed to use publishable keys',
      description:
        "Web pages on these origins may call the API with this merchant's publishable keys (CORS). A publishable-key " +
        'request from any other origin is refused with `permission_denied`. `["*"]` allows every origin. Keys pick up a ' +
        'change within 30 seconds.',
      body: allowedOriginsBody,
      response: { 200: merchant },
    },
    handler: (request) => merchants(request.db).setAllowedOrigins(dashboardMerchantId(request), request.body.allowedOrigins),
  });

  app.route({
    method: 'PUT',
    url: '/v1/merchants/me/business-profile',
    config: { access: access.dashboard() },
    schema: {
      operationId: 'submitBusinessProfile',
      tags,
      summary: 'Submit the business onboarding form',
      description: 'Self-attested: business name, sector, country (ISO 3166-1 alpha-2) and payout address (EVM).',
      body: businessProfileBody,
      response: { 200: merchant },
    },
    handler: (request) => merchants(request.db).submitBusinessProfile(dashboardMerchantId(request), request.body),
  });
}

/** The chains new payment sessions of the request's mode accept by default (issue 39). */
export function registerAcceptedChainsRoutes(app: FastifyZodInstance, service: ServiceOn<AcceptedChainsService>): void {
  app.route({
    method: 'GET',
    url: '/v1/merchants/me/accepted-chains',
    config: { access: access.scope('payment_sessions_read') },
    schema: {
      operationId: 'getAcceptedChains',
      tags,
      summary: 'The chains new payment sessions accept by default',
      description:
        "For the request's mode: the account's default of the chains a payment session accepts when its request names none, and every chain configured for the mode.",
      response: { 200: acceptedChains },
    },
    handler: (request) => service(request.db).get(requestScope(request)),
  });

  app.route({
    method: 'PUT',
    url: '/v1/merchants/me/accepted-chains',
    config: { access: access.scope('payment_sessions_write') },
    schema: {
      operationId: 'setAcceptedChains',
      tags,
      summary: 'Set the chains new payment sessions accept by default',
      description:
        "Replaces the request's mode's setting (the other mode's is untouched). Every chain must be one of the mode's configured chains, else `invalid_request` naming it (`param: acceptedChainIds.<i>`). `null` accepts every chain of the mode. Sessions created before keep their chains; a session's own `acceptedChainIds` must be among these.",
      body: acceptedChainsBody,
      response: { 200: acceptedChains },
    },
    handler: (request) => service(request.db).set(requestScope(request), request.body.acceptedChainIds),
  });
}

/**
 * The payout address per chain (issue 39, item 4). Read like the merchant (any secret key or the dashboard);
 * changed from the dashboard only, like the account's payout address: where money goes is account security.
 */
export function registerChainPayoutRoutes(app: FastifyZodInstance, service: ServiceOn<ChainPayoutService>): void {
  app.route({
    method: 'GET',
    url: '/v1/merchants/me/payout-addresses',
    config: { access: access.merchant() },
    schema: {
      operationId: 'listChainPayouts',
      tags,
      summary: 'The payout address on each chain of the mode',
      description:
        "For the request's mode: every configured chain with the address the merchant is paid at there (the address set for the chain, else the account's payout address).",
      response: { 200: chainPayoutList },
    },
    handler: (request) => service(request.db).list(requestScope(request)),
  });

  app.route({
    method: 'PUT',
    url: '/v1/merchants/me/payout-addresses/:chainId',
    config: { access: access.dashboard() },
    schema: {
      operationId: 'setChainPayout',
      tags,
      summary: 'Set or clear the payout address of one chain',
      description:
        "Sets the address that receives the merchant's payments on one configured chain of the request's mode (relayed checkout payments, deposit sweeps, x402, subscription terms and the refund allowance there). `null` returns the chain to the account's payout address. A chain the mode lacks is `invalid_request` (`param: chainId`); an address that is not valid EIP-55, or is another merchant's, a platform contract or deposit address, or blacklisted by USDC on that chain, is `invalid_request` (`param: payoutAddress`). Payment sessions created before keep the addresses they were created with. Dashboard only.",
      params: chainPayoutParams,
      body: chainPayoutBody,
      response: { 200: chainPayoutList },
    },
    handler: (request) => service(request.db).set(requestScope(request), request.params.chainId, request.body.payoutAddress),
  });
}
