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

export type TestApp = { app: App; logs: string[]; close: () => Promise<void> };

export async function createTestApp(
  sql: Sql,
  options: { temporal?: Client; taskQueue?: string; idempotency?: { retentionSeconds?: number; staleAfterSeconds?: number }; chain?: ChainConfig } = {},
): Promise<TestApp> {
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const logger = pino({ level: 'info', redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink);
  const config = { ...loadConfig({ DATABASE_URL: 'postgres://unused', PORT: '0', ...(options.taskQueue ? { TEMPORAL_TASK_QUEUE: options.taskQueue } : {}) }), ...(options.chain ? { chain: options.chain } : {}) };
  const keys = createKeyAuthenticator(sql);
  await keys.listenForRevocations();
  const app = await buildApp({ config, sql, temporal: options.temporal, keys, logger, idempotency: options.idempotency });
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
