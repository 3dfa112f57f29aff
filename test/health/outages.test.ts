// Outages of the api's dependencies, on real servers: a Postgres this test owns
// (stopped and started again on the same port), and a Temporal frontend and a
// chain node that nobody listens for. Requests answer 503 service_unavailable
// with Retry-After in the error envelope, well before a client would give up;
// /readyz names the failing dependency; once Postgres is back the same app
// answers 200 without a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../src/db/client.js';
import { ensureDatabase } from '../../src/db/databases.js';
import { migrate } from '../../src/db/migrate.js';
import { freePort } from '../../tools/dev/ports.js';
import { startPostgresProcess } from '../../tools/dev/postgres-process.js';
import type { LocalPostgres } from '../../tools/dev/postgres.js';
import { PROJECT_ROOT } from '../../tools/dev/temporal.js';
import { unavailableDependency } from '../../src/http/unavailable.js';
import { createTestApp, seedMerchant, type TestApp } from '../support/app.js';
import { settingsOf, sharedChain } from '../support/chain.js';

/** What a typical HTTP client waits before giving up: every answer here must come well before. */
const CLIENT_TIMEOUT_MS = 10_000;

let dataDir: string;
let postgres: LocalPostgres;
let port: number;
let sql: Sql;
let testApp: TestApp;
let secretKey: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(PROJECT_ROOT, '.data', 'test-outage-'));
  postgres = await startPostgresProcess({ dataDir, durable: false });
  port = Number(new URL(postgres.url('')).port);
  await ensureDatabase(postgres.url('postgres'), 'stablepay');
  await migrate(postgres.url('stablepay'));
  sql = createSql(postgres.url('stablepay'), { max: 5, timeouts: { connectTimeoutSeconds: 2 } });
  secretKey = (await seedMerchant(sql)).secretKey;
  testApp = await createTestApp(sql);
});
afterAll(async () => {
  await testApp?.close().catch(() => undefined);
  await sql?.end({ timeout: 1 }).catch(() => undefined);
  await postgres?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A request through the app, failing the test if it takes as long as a client's timeout. */
async function request(
  app: TestApp['app'],
  method: 'GET' | 'POST',
  url: string,
  options: { key?: string; body?: object; idempotencyKey?: string } = {},
) {
  const answer = app.inject({
    method,
    url,
    headers: {
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...(options.body ? { 'content-type': 'application/json' } : {}),
      ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
    },
    ...(options.body ? { payload: JSON.stringify(options.body) } : {}),
  });
  const tooSlow = sleep(CLIENT_TIMEOUT_MS).then(() => {
    throw new Error(`${method} ${url} did not answer within ${CLIENT_TIMEOUT_MS} ms`);
  });
  return Promise.race([answer, tooSlow]);
}

function expectUnavailable(response: Awaited<ReturnType<typeof request>>) {
  expect(response.statusCode).toBe(503);
  expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  const body = response.json() as { error: { code: string; message: string; requestId: string } };
  expect(body.error.code).toBe('service_unavailable');
  expect(body.error.requestId).toMatch(/^req_/);
  return body.error;
}

describe('dependency outages', () => {
  it('answers 503 with Retry-After while Postgres is down and 200 again once it is back, without a restart', async () => {
    const { app } = testApp;
    expect((await request(app, 'GET', '/v1/subscription-plans', { key: secretKey })).statusCode).toBe(200);
    const ready = await request(app, 'GET', '/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json().checks.postgres.status).toBe('up');

    await postgres.stop();
    const list = await request(app, 'GET', '/v1/subscription-plans', { key: secretKey });
    expect(expectUnavailable(list).message).toMatch(/database/);
    const create = await request(app, 'POST', '/v1/subscription-plans', {
      key: secretKey,
      idempotencyKey: 'outage-plan',
      body: { name: 'Pro', amount: '10000000', interval: 'monthly' },
    });
    expectUnavailable(create);
    const notReady = await request(app, 'GET', '/readyz');
    expect(notReady.statusCode).toBe(503);
    expect(notReady.headers['retry-after']).toBeDefined();
    expect(notReady.json().status).toBe('unavailable');
    expect(notReady.json().checks.postgres).toMatchObject({ status: 'down' });
    // Alive all along: an orchestrator must not restart the process for a database outage.
    expect((await request(app, 'GET', '/healthz')).json()).toEqual({ status: 'ok' });
    expect(testApp.logs.some((line) => line.includes('dependency unavailable; answered 503'))).toBe(true);
    expect(testApp.logs.some((line) => line.includes('unhandled error'))).toBe(false);

    postgres = await startPostgresProcess({ dataDir, durable: false, port });
    let status = 0;
    for (let i = 0; i < 120 && status !== 200; i++) {
      status = (await request(app, 'GET', '/v1/subscription-plans', { key: secretKey })).statusCode;
      if (status !== 200) await sleep(250);
    }
    expect(status).toBe(200);
    const created = await request(app, 'POST', '/v1/subscription-plans', {
      key: secretKey,
      idempotencyKey: 'outage-plan',
      body: { name: 'Pro', amount: '10000000', interval: 'monthly' },
    });
    expect(created.statusCode).toBe(200);
    expect(created.json().id).toMatch(/^plan_/);
    expect((await request(app, 'GET', '/readyz')).statusCode).toBe(200);
  }, 180_000);

  it('names an unreachable Temporal and chain node in /readyz, and a chain read answers 503', async () => {
    const nobody = `127.0.0.1:${await freePort()}`;
    const temporal = new Client({ connection: Connection.lazy({ address: nobody }) });
    const chain = { test: settingsOf(sharedChain(), { rpcUrl: `http://${nobody}` }) };
    const cutOff = await createTestApp(sql, { temporal, chain });
    try {
      const readiness = await request(cutOff.app, 'GET', '/readyz');
      expect(readiness.statusCode).toBe(503);
      const body = readiness.json();
      const { checks } = body;
      expect(checks.postgres.status).toBe('up');
      expect(checks.temporal.status).toBe('down');
      expect(body.chains).toEqual([expect.objectContaining({ mode: 'test', chainId: sharedChain().chainId, status: 'down' })]);
      expect(body.degraded).toEqual([`test mode chain ${sharedChain().chainId}`]);
      expect(JSON.stringify(body)).not.toContain(nobody); // no address (an RPC URL may carry a key)

      const token = await request(cutOff.app, 'GET', `/v1/tokens/${sharedChain().token}`);
      expect(expectUnavailable(token).message).toMatch(/chain node/);

      // The classification of the Temporal client's own error, as a route that calls Temporal meets it.
      const failure = await temporal.connection
        .withDeadline(Date.now() + 3_000, () => temporal.workflow.getHandle('wf_outage').describe())
        .catch((error: unknown) => error);
      expect(unavailableDependency(failure)).toBe('temporal');
    } finally {
      await cutOff.close();
      await temporal.connection.close().catch(() => undefined);
    }
  }, 120_000);
});
