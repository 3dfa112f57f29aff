// Builds the Fastify app: plugins, then every resource's routes. Tests build
// it with their own dependencies; src/server.ts only listens.
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { Client } from '@temporalio/client';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { KeyAuthenticator } from './api-keys/service.js';
import type { Config } from './config.js';
import type { Sql } from './db/client.js';
import { createEventDispatcher } from './events/dispatch.js';
import { responseSerializerCompiler } from './http/serializer.js';
import { ulid } from './ids.js';
import authPlugin from './plugins/auth.js';
import errorsPlugin from './plugins/errors.js';
import idempotencyPlugin from './plugins/idempotency.js';
import openapiPlugin from './plugins/openapi.js';
import requestLogPlugin from './plugins/request-log.js';
import versioningPlugin from './plugins/versioning.js';
import { registerPlanRoutes } from './subscription-plans/routes.js';
import { createPlanService } from './subscription-plans/service.js';
import { registerSubscriptionChargeRoutes } from './subscription-charges/routes.js';
import { createChargeService } from './subscription-charges/service.js';
import { registerSubscriptionRoutes } from './subscriptions/routes.js';
import { createSubscriptionService } from './subscriptions/service.js';

export type AppDeps = {
  config: Config;
  sql: Sql;
  /** Absent only in tests that need no workflows; events then wait for the outbox sweep. */
  temporal?: Client;
  keys: KeyAuthenticator;
  logger: FastifyBaseLogger;
  idempotency?: { retentionSeconds?: number; staleAfterSeconds?: number };
  /** The dated versions served; defaults to every supported version. */
  apiVersions?: readonly string[];
};

/** Routes that must be reachable without an access declaration (documentation). */
const UNDECLARED_ROUTE_PREFIXES = ['/docs', '/openapi.json'];

export async function buildApp(deps: AppDeps) {
  const app = Fastify({
    loggerInstance: deps.logger,
    disableRequestLogging: true,
    bodyLimit: deps.config.bodyLimitBytes,
    genReqId: () => `req_${ulid()}`,
    requestIdHeader: false,
    trustProxy: true,
    routerOptions: { ignoreTrailingSlash: true },
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

  await app.register(errorsPlugin);
  await app.register(requestLogPlugin);
  await app.register(authPlugin, { keys: deps.keys });
  await app.register(versioningPlugin, { supported: deps.apiVersions });
  await app.register(idempotencyPlugin, { sql: deps.sql, ...deps.idempotency });
  await app.register(openapiPlugin, { serverUrl: deps.config.publicBaseUrl });

  const events = createEventDispatcher(deps.temporal, deps.config.temporalTaskQueue, (error, eventId) =>
    app.log.warn({ err: error, eventId }, 'event dispatch start failed; the outbox sweep will retry'),
  );

  registerPlanRoutes(app, createPlanService({ sql: deps.sql, events }));
  registerSubscriptionRoutes(
    app,
    createSubscriptionService({
      sql: deps.sql,
      events,
      temporal: deps.temporal,
      onSignalError: (error, subscriptionId) =>
        app.log.warn({ err: error, subscriptionId }, 'cancel signal failed; the workflow sees the cancel before its next charge'),
    }),
  );
  registerSubscriptionChargeRoutes(app, createChargeService({ sql: deps.sql }));

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
