// Builds the API's OpenAPI document in-process, as GET /openapi.json serves it, without a database,
// Temporal or a listening socket: the app is built with inert dependencies that building it never calls
// (only requests would), then asked for `app.swagger()`. Used by `npm run api:generate` and its freshness test.
import { pino } from 'pino';
import postgres from 'postgres';
import { buildApp } from '../../src/app.js';
import type { KeyAuthenticator } from '../../src/api-keys/service.js';
import { loadConfig } from '../../src/config.js';
import type { RateLimiter } from '../../src/rate-limits/service.js';

const neverCalled = (what: string) => () => {
  throw new Error(`${what} is not available while building the OpenAPI document`);
};

/** The OpenAPI 3.1 document the app serves at /openapi.json (default configuration, every API version). */
export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  // The same fixed environment every time, never this process's: the document must not depend on who generates it.
  const config = loadConfig({ DATABASE_URL: 'postgres://unused', PUBLIC_BASE_URL: 'http://localhost:3000' });
  // porsager/postgres connects on the first query only; building the app runs none, so this never connects.
  const sql = postgres('postgres://unused@127.0.0.1:1/unused', { max: 1, connect_timeout: 1 });
  const keys: KeyAuthenticator = {
    authenticate: neverCalled('API key authentication'),
    listenForRevocations: neverCalled('API key revocations'),
    forget: neverCalled('API key cache'),
    close: async () => {},
  };
  const rateLimiter: RateLimiter = { hit: neverCalled('rate limiting'), flush: neverCalled('rate limiting'), close: async () => {} };
  const app = await buildApp({ config, sql, keys, rateLimiter, logger: pino({ level: 'silent' }) });
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
    await sql.end({ timeout: 0 });
  }
}
