// Builds the real app against a test database, plus a seeded merchant with
// keys, for route tests through `app.inject`.
import type { Client } from '@temporalio/client';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { buildApp, type App } from '../../src/app.js';
import { createKeyAuthenticator, issueKey } from '../../src/api-keys/service.js';
import { SCOPES, type Scope } from '../../src/api-keys/scopes.js';
import type { ChainConfig } from '../../src/chain/config.js';
import { loadConfig } from '../../src/config.js';
import type { Sql } from '../../src/db/client.js';
import { REDACTED_PATHS } from '../../src/logger.js';
import { createMerchant } from '../../src/merchants/service.js';
import type { RateLimiter } from '../../src/rate-limits/service.js';
import type { Resolver } from '../../src/webhooks/targets.js';

export type TestApp = { app: App; logs: string[]; close: () => Promise<void> };

export async function createTestApp(
  sql: Sql,
  options: {
    temporal?: Client;
    taskQueue?: string;
    apiVersions?: readonly string[];
    idempotency?: { retentionSeconds?: number; leaseSeconds?: number; waitForOwnerMs?: number };
    /** Extra environment for loadConfig (OIDC_*, SECRET_SCANNING_PUBLIC_KEYS, RATE_LIMIT_*...). */
    env?: Record<string, string>;
    rateLimiter?: RateLimiter;
    webhookResolver?: Resolver;
    chain?: ChainConfig;
  } = {},
): Promise<TestApp> {
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const logger = pino({ level: 'info', redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink);
  // Rate limits are out of the way unless a test sets them (test/rate-limits/rate-limits.test.ts).
  const loaded = loadConfig({
    DATABASE_URL: 'postgres://unused',
    PORT: '0',
    RATE_LIMIT_PER_IP_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_KEY_PER_MINUTE: '1000000',
    ...(options.taskQueue ? { TEMPORAL_TASK_QUEUE: options.taskQueue } : {}),
    ...options.env,
  });
  const config = options.chain ? { ...loaded, chain: options.chain } : loaded;
  const keys = createKeyAuthenticator(sql);
  await keys.listenForRevocations();
  const app = await buildApp({
    config,
    sql,
    temporal: options.temporal,
    keys,
    logger,
    idempotency: options.idempotency,
    apiVersions: options.apiVersions,
    rateLimiter: options.rateLimiter,
    webhookResolver: options.webhookResolver,
  });
  await app.ready();
  return {
    app,
    logs,
    close: async () => {
      await app.close();
      await keys.close();
    },
  };
}

export type SeededMerchant = {
  merchantId: string;
  secretKey: string;
  liveSecretKey: string;
  publishableKey: string;
  keyWithScopes: (scopes: readonly Scope[], livemode?: boolean) => Promise<string>;
};

export async function seedMerchant(sql: Sql, name = 'Test merchant'): Promise<SeededMerchant> {
  const merchant = await createMerchant(sql, { name, email: 'owner@example.com' });
  const issue = async (kind: 'secret' | 'publishable', livemode: boolean, scopes: readonly string[]) =>
    (await issueKey(sql, { merchantId: merchant.id, livemode, kind, scopes, actor: 'test' })).secret;
  return {
    merchantId: merchant.id,
    secretKey: await issue('secret', false, SCOPES),
    liveSecretKey: await issue('secret', true, SCOPES),
    publishableKey: await issue('publishable', false, ['payment_sessions_read', 'payment_sessions_write', 'plans_read']),
    keyWithScopes: (scopes, livemode = false) => issue('secret', livemode, scopes),
  };
}
