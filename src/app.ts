// Builds the Fastify app: plugins, then every resource's routes. Tests build
// it with their own dependencies; src/server.ts only listens.
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import type { Client } from '@temporalio/client';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { registerApiKeyRoutes } from './api-keys/routes.js';
import { registerCheckoutRoutes } from './checkout/routes.js';
import { createCheckoutService } from './checkout/service.js';
import { createApiKeyService, type KeyAuthenticator } from './api-keys/service.js';
import { createDashboardSessions } from './dashboard-sessions/service.js';
import { createDashboardTokenVerifier, refuseDashboardTokens, type DashboardTokenVerifier } from './dashboard-sessions/verifier.js';
import { createEmailDispatcher } from './email/service.js';
import { registerAcceptedChainsRoutes, registerChainPayoutRoutes, registerMerchantRoutes } from './merchants/routes.js';
import { createChainPayoutService } from './merchants/chain-payouts.js';
import { createAcceptedChainsService } from './merchants/accepted-chains.js';
import { registerReceiptPageRoutes, registerReceiptSettingsRoutes } from './receipts/routes.js';
import { createReceiptPageService } from './receipts/service.js';
import { createReceiptSettingsService } from './receipts/settings.js';
import { createMerchantService } from './merchants/service.js';
import { ipRateLimitPlugin, principalRateLimitPlugin } from './plugins/rate-limit.js';
import { createRateLimiter, type RateLimiter } from './rate-limits/service.js';
import { registerSecretScanningRoutes } from './secret-scanning/routes.js';
import { createLeakedKeyService } from './secret-scanning/service.js';
import { createSignatureVerifier } from './secret-scanning/signature.js';
import { createSecretBox } from './security/encryption.js';
import type { Config } from './config.js';
import type { Sql } from './db/client.js';
import { createEventDispatcher } from './events/dispatch.js';
import { responseSerializerCompiler } from './http/serializer.js';
import { ulid } from './ids.js';
import { clientErrorHandler } from './http/client-errors.js';
import authPlugin from './plugins/auth.js';
import errorsPlugin, { sendFrameworkError } from './plugins/errors.js';
import idempotencyPlugin from './plugins/idempotency.js';
import openapiPlugin from './plugins/openapi.js';
import storableTextPlugin from './plugins/storable-text.js';
import requestLogPlugin from './plugins/request-log.js';
import versioningPlugin, { requestedVersionHeaderPlugin } from './plugins/versioning.js';
import browserKeysPlugin from './plugins/browser-keys.js';
import pathIdsPlugin from './plugins/path-ids.js';
import { registerWebhookListenerRoutes, registerWebhookRoutes } from './webhooks/routes.js';
import { createWebhookListenerService } from './webhooks/listeners.js';
import { registerCustomerRoutes } from './customers/routes.js';
import { registerEventRoutes } from './events/routes.js';
import { createEventService } from './events/service.js';
import { createCustomerService } from './customers/service.js';
import { createWebhookService } from './webhooks/service.js';
import { systemResolver, type Resolver } from './webhooks/targets.js';
import { registerRelayRoutes } from './relay/routes.js';
import { createRelayService } from './relay/service.js';
import { registerX402Routes } from './x402/routes.js';
import { createX402Service } from './x402/service.js';
import { registerPlanRoutes } from './subscription-plans/routes.js';
import { registerCouponRoutes } from './coupons/routes.js';
import { registerMeterRoutes } from './billing-meters/routes.js';
import { createMeterService } from './billing-meters/service.js';
import { createCouponService } from './coupons/service.js';
import { registerPromotionCodeRoutes } from './promotion-codes/routes.js';
import { createPromotionCodeService } from './promotion-codes/service.js';
import { registerDiscountRoutes } from './discounts/routes.js';
import { createDiscountService } from './discounts/service.js';
import { registerPlanChangeRoutes } from './subscription-plan-changes/routes.js';
import { registerBillingPortalRoutes } from './billing-portal/routes.js';
import { createBillingPortalService } from './billing-portal/service.js';
import { createPortalSignIn } from './billing-portal/sign-in.js';
import { createPlanChangeService } from './subscription-plan-changes/service.js';
import { createPlanService } from './subscription-plans/service.js';
import { registerTokenRoutes } from './tokens/routes.js';
import { registerPaymentSessionRoutes } from './payment-sessions/routes.js';
import { createPaymentSessionService } from './payment-sessions/service.js';
import { registerInvoiceRoutes } from './invoices/routes.js';
import { createInvoiceService } from './invoices/service.js';
import { registerRefundRoutes } from './refunds/routes.js';
import { registerRefundClaimRoutes } from './refunds/claim-routes.js';
import { createRefundService } from './refunds/service.js';
import { createTokenService } from './tokens/service.js';
import { createChainResolver } from './test-clocks/chain-registry.js';
import { registerSubscriptionChargeRoutes } from './subscription-charges/routes.js';
import { createChargeService } from './subscription-charges/service.js';
import { registerSubscriptionRoutes } from './subscriptions/routes.js';
import { registerStorefrontRoutes } from './storefront/routes.js';
import { createStorefrontService } from './storefront/service.js';
import { createSubscriptionService } from './subscriptions/service.js';
import { registerAgentRoutes } from './agents/routes.js';
import { createAgentService } from './agents/service.js';
import { registerStatsRoutes } from './stats/routes.js';
import { registerBalanceRoutes } from './balances/routes.js';
import { createBalanceService } from './balances/service.js';
import { registerDashboardRoutes } from './dashboard/serve.js';
import { createStatsService } from './stats/service.js';
import { createReadiness } from './health/readiness.js';
import { registerHealthRoutes } from './health/routes.js';
import { registerTestClockRoutes } from './test-clocks/routes.js';
import { createTestClockService } from './test-clocks/service.js';
import { createClockChains } from './test-clocks/clock-chains.js';
import { reforkLiveClockChains } from './test-clocks/refork.js';

export type AppDeps = {
  config: Config;
  sql: Sql;
  /** Absent only in tests that need no workflows; events then wait for the outbox sweep. */
  temporal?: Client;
  keys: KeyAuthenticator;
  logger: FastifyBaseLogger;
  idempotency?: { retentionSeconds?: number; leaseSeconds?: number; waitForOwnerMs?: number };
  /** The dated versions served; defaults to every supported version. */
  apiVersions?: readonly string[];
  /** Defaults to one built from config.oidc (or one refusing every dashboard token). */
  dashboardTokens?: DashboardTokenVerifier;
  /** Defaults to one built from config.rateLimits and closed with the app. */
  rateLimiter?: RateLimiter;
  /** DNS for webhook URL checks (tests inject one); defaults to the system resolver. */
  webhookResolver?: Resolver;
};

/** Routes that must be reachable without an access declaration (documentation). */
const UNDECLARED_ROUTE_PREFIXES = ['/docs', '/openapi.json'];

export async function buildApp(deps: AppDeps) {
  const app = Fastify({
    loggerInstance: deps.logger,
    // src/plugins/request-log.ts writes the one line per request (no URLs with query strings, no headers).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: deps.config.bodyLimitBytes,
    genReqId: () => `req_${ulid()}`,
    requestIdHeader: false,
    // Only the configured proxies may name the client IP; by default X-Forwarded-For is ignored.
    trustProxy: deps.config.trustProxy,
    // Path parameters up to 1024 characters reach validation, which answers invalid_request beyond the
    // length of an id (src/http/schemas.ts, pathId); the router's default (100) answered 414 without the envelope.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1024 },
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- a FastifyReply is thenable; this returns the reply it sent, not a promise
    frameworkErrors: sendFrameworkError,
    // A request Node's parser refuses (headers or URL too large) still gets the error envelope.
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);

  // JSON only. Action endpoints take no body; an empty JSON body is read as {}.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      const error = Object.assign(new Error('Invalid JSON body'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
      done(error, undefined);
    }
  });

  // No route under /v1 exists without a declared access rule.
  app.addHook('onRoute', (route) => {
    if (UNDECLARED_ROUTE_PREFIXES.some((p) => route.url.startsWith(p))) return;
    if (!route.config?.access) throw new Error(`Route ${route.method} ${route.url} declares no access rule`);
  });

  await app.register(errorsPlugin, { unavailableRetryAfterSeconds: deps.config.unavailableRetryAfterSeconds });
  await app.register(requestLogPlugin);
  const rateLimiter =
    deps.rateLimiter ??
    createRateLimiter(deps.sql, {
      flushIntervalMs: deps.config.rateLimits.flushIntervalMs,
      onError: (error) => app.log.warn({ err: error }, 'rate-limit counter flush failed'),
    });
  if (!deps.rateLimiter) app.addHook('onClose', () => rateLimiter.close());
  const rateLimits = {
    limiter: rateLimiter,
    perIpPerMinute: deps.config.rateLimits.perIpPerMinute,
    perKeyPerMinute: deps.config.rateLimits.perKeyPerMinute,
  };
  const tokenVerifier = deps.dashboardTokens ?? (deps.config.oidc ? createDashboardTokenVerifier(deps.config.oidc) : refuseDashboardTokens);

  await app.register(requestedVersionHeaderPlugin, { supported: deps.apiVersions });
  await app.register(ipRateLimitPlugin, rateLimits);
  await app.register(authPlugin, { keys: deps.keys, sessions: createDashboardSessions(deps.sql, tokenVerifier) });
  await app.register(principalRateLimitPlugin, rateLimits);
  await app.register(versioningPlugin, { supported: deps.apiVersions });
  await app.register(browserKeysPlugin);
  await app.register(storableTextPlugin);
  await app.register(pathIdsPlugin);
  await app.register(idempotencyPlugin, { sql: deps.sql, leaseSeconds: deps.config.idempotency.leaseSeconds, ...deps.idempotency });
  await app.register(openapiPlugin, { serverUrl: deps.config.publicBaseUrl });

  const events = createEventDispatcher(deps.temporal, deps.config.temporalTaskQueue, (error, eventId) =>
    app.log.warn({ err: error, eventId }, 'waking the event dispatcher failed; the outbox sweep will wake it'),
  );

  const emails = createEmailDispatcher(deps.temporal, deps.sql, deps.config.temporalTaskQueue, (error, emailId) =>
    app.log.warn({ err: error, emailId }, 'email delivery start failed; the outbox sweep will retry'),
  );
  const secretBox = createSecretBox(deps.config.secretsEncryptionKey);

  // Services that write are built per request on `request.db` (a `ServiceOn`): the request's open
  // transaction when it holds an Idempotency-Key, else the pool. So every query a route makes runs on the
  // handle the route handed down (src/plugins/idempotency.ts); nothing reroutes queries behind its back.
  // Stateful services (listener streams, the token cache) and the public checkout (no key, no
  // transaction) are built once, on the pool.
  registerPlanRoutes(app, (db) => createPlanService({ sql: db, events, chain: deps.config.chain }));
  registerCouponRoutes(app, (db) => createCouponService({ sql: db, events }));
  registerMeterRoutes(app, (db) => createMeterService({ sql: db }));
  registerPromotionCodeRoutes(app, (db) => createPromotionCodeService({ sql: db, events }));
  registerDiscountRoutes(app, (db) => createDiscountService({ sql: db, events }));
  registerPlanChangeRoutes(app, (db) => createPlanChangeService({ sql: db, events, publicBaseUrl: deps.config.publicBaseUrl }));
  registerMerchantRoutes(app, (db) =>
    createMerchantService({
      sql: db,
      secretBox,
      emails,
      defaultRateLimitPerMinute: deps.config.rateLimits.perKeyPerMinute,
      chain: deps.config.chain,
    }),
  );
  registerAcceptedChainsRoutes(app, (db) => createAcceptedChainsService({ sql: db, chain: deps.config.chain }));
  registerChainPayoutRoutes(app, (db) => createChainPayoutService({ sql: db, chain: deps.config.chain }));
  registerReceiptSettingsRoutes(app, (db) => createReceiptSettingsService({ sql: db }));
  registerReceiptPageRoutes(app, createReceiptPageService({ sql: deps.sql }));
  registerApiKeyRoutes(app, (db) => createApiKeyService({ sql: db, secretBox, keys: deps.keys }));
  registerSecretScanningRoutes(
    app,
    (db) => createLeakedKeyService({ sql: db, secretBox, emails, keys: deps.keys }),
    createSignatureVerifier(deps.config.secretScanningKeys),
  );
  registerWebhookRoutes(app, (db) =>
    createWebhookService({
      sql: db,
      temporal: deps.temporal,
      taskQueue: deps.config.temporalTaskQueue,
      encryptionKey: deps.config.webhooks.secretEncryptionKey,
      targets: { resolver: deps.webhookResolver ?? systemResolver, allowPrivateTargets: deps.config.webhooks.allowPrivateTargets },
      onStartError: (error, start) =>
        app.log.warn(
          { err: error, workflowId: start.workflowId },
          'test event delivery start failed after commit; the outbox sweep will retry',
        ),
    }),
  );
  const webhookListeners = createWebhookListenerService({
    sql: deps.sql,
    encryptionKey: deps.config.webhooks.secretEncryptionKey,
    onError: (error) => app.log.warn({ err: error }, 'webhook listener stream error'),
  });
  registerWebhookListenerRoutes(app, webhookListeners);
  registerEventRoutes(app, createEventService({ sql: deps.sql }));
  registerCustomerRoutes(app, createCustomerService({ sql: deps.sql, events }));
  // Open listener streams would hold the server open: end them first.
  app.addHook('preClose', () => webhookListeners.close());
  const tokens = createTokenService({
    chain: deps.config.chain,
    resolveChain: createChainResolver({ sql: deps.sql, config: deps.config.chain }),
  });
  registerTokenRoutes(app, tokens);
  const relayOn = (db: Sql) =>
    createRelayService({ sql: db, chain: deps.config.chain, tokens, temporal: deps.temporal, taskQueue: deps.config.temporalTaskQueue });
  registerRelayRoutes(app, relayOn);
  registerX402Routes(app, (db) =>
    createX402Service({ sql: db, chain: deps.config.chain, temporal: deps.temporal, taskQueue: deps.config.temporalTaskQueue }),
  );
  registerCheckoutRoutes(
    app,
    createCheckoutService({
      sql: deps.sql,
      relay: relayOn(deps.sql),
      chain: deps.config.chain,
      temporal: deps.temporal,
      taskQueue: deps.config.temporalTaskQueue,
    }),
    { distDir: deps.config.dashboard.distDir },
  );
  const subscriptionsOn = (db: Sql) =>
    createSubscriptionService({
      sql: db,
      chain: deps.config.chain,
      events,
      temporal: deps.temporal,
      taskQueue: deps.config.temporalTaskQueue,
      onSignalError: (error, subscriptionId) =>
        app.log.warn({ err: error, subscriptionId }, 'cancel signal failed; the workflow sees the cancel before its next charge'),
    });
  registerSubscriptionRoutes(app, subscriptionsOn);
  registerBillingPortalRoutes(
    app,
    (db) =>
      createBillingPortalService({
        sql: db,
        events,
        publicBaseUrl: deps.config.publicBaseUrl,
        subscriptions: subscriptionsOn(db),
        planChanges: createPlanChangeService({ sql: db, events }),
        discounts: createDiscountService({ sql: db, events }),
      }),
    createPortalSignIn({ sql: deps.sql, events, chain: deps.config.chain, publicBaseUrl: deps.config.publicBaseUrl }),
    { distDir: deps.config.dashboard.distDir },
  );
  registerSubscriptionChargeRoutes(app, createChargeService({ sql: deps.sql, chain: deps.config.chain }));
  const payments = {
    chain: deps.config.chain,
    publicBaseUrl: deps.config.publicBaseUrl,
    temporal: deps.temporal,
    taskQueue: deps.config.temporalTaskQueue,
    onStartError: (error: unknown, start: { workflowId: string; action: string }) =>
      app.log.warn(
        { err: error, workflowId: start.workflowId, action: start.action },
        'workflow start failed after commit; the outbox sweep will retry',
      ),
  };
  const paymentSessionsOn = (db: Sql) => createPaymentSessionService({ ...payments, sql: db });
  registerPaymentSessionRoutes(app, paymentSessionsOn);
  registerStorefrontRoutes(
    app,
    (db) =>
      createStorefrontService({
        sql: db,
        events,
        sessions: paymentSessionsOn(db),
        limiter: rateLimiter,
        publicBaseUrl: deps.config.publicBaseUrl,
      }),
    { distDir: deps.config.dashboard.distDir },
  );
  const invoicesOn = (db: Sql) => createInvoiceService({ ...payments, sql: db, events });
  registerInvoiceRoutes(app, invoicesOn);
  const refundsOn = (db: Sql) => createRefundService({ ...payments, sql: db, events, emails });
  registerRefundRoutes(app, refundsOn);
  await registerRefundClaimRoutes(app, refundsOn);
  registerStatsRoutes(app, createStatsService({ sql: deps.sql }));
  registerBalanceRoutes(app, createBalanceService({ sql: deps.sql, chain: deps.config.chain }));
  registerAgentRoutes(app, (db) =>
    createAgentService({
      sql: db,
      secretBox,
      events,
      temporal: deps.temporal,
      taskQueue: deps.config.temporalTaskQueue,
      onStartError: payments.onStartError,
      chain: deps.config.chain,
    }),
  );

  // The forks of test clocks are this process's children (TEST_CLOCK_CHAINS=fork): stopped with it.
  const clockChains =
    deps.config.testClockChains?.mode === 'fork' ? createClockChains({ stateDir: deps.config.testClockChains.stateDir }) : undefined;
  if (clockChains) app.addHook('onClose', () => clockChains.close());
  // The live clocks' forks died with the previous process: fork them again before serving (issue 39).
  const testChainRpcUrl = deps.config.chain.test?.rpcUrl;
  if (clockChains && testChainRpcUrl)
    app.addHook('onReady', async () => {
      await reforkLiveClockChains({ sql: deps.sql, clockChains, testChainRpcUrl, log: app.log });
    });
  registerTestClockRoutes(app, (db) =>
    createTestClockService({
      clockChains,
      sql: db,
      temporal: deps.temporal,
      taskQueue: deps.config.temporalTaskQueue,
      chain: deps.config.chain,
      invoices: invoicesOn(db),
    }),
  );

  registerDashboardRoutes(app, deps.config);
  registerHealthRoutes(
    app,
    createReadiness({ sql: deps.sql, temporal: deps.temporal, chain: deps.config.chain, timeoutMs: deps.config.readinessCheckTimeoutMs }),
    deps.config.unavailableRetryAfterSeconds,
  );

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
