// The worker's limits: its workflow cache is capped (memory flat in the number of open
// subscriptions, docs/decisions.md) and never below the workflow tasks it runs at once; its
// sandbox deadlock timeout is long enough that a loaded machine never trips it.
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createSql, type Sql } from '../../src/db/client.js';
import { createWorker, DEFAULT_MAX_CACHED_WORKFLOWS, WORKFLOW_SANDBOX_TIMEOUT_MS } from '../../src/temporal/worker.js';
import { workflowBundle } from '../support/temporal.js';

let connection: NativeConnection;
let client: Client;
// Never queried: building a worker opens no database connection.
let sql: Sql;

beforeAll(async () => {
  connection = await NativeConnection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
  sql = createSql('postgres://unused@127.0.0.1:1/unused');
});
afterAll(async () => {
  await sql?.end({ timeout: 1 });
  await client?.connection.close();
  await connection?.close();
});

/** The compiled options of a worker built with `maxCachedWorkflows`; the worker runs briefly and stops, releasing the connection. */
async function optionsOf(maxCachedWorkflows?: number) {
  const worker = await createWorker({
    connection,
    namespace: 'default',
    sql,
    temporal: client,
    taskQueue: `options-${randomBytes(4).toString('hex')}`,
    workflowBundle: await workflowBundle(),
    ...(maxCachedWorkflows === undefined ? {} : { maxCachedWorkflows }),
  });
  await worker.runUntil(Promise.resolve());
  return worker.options;
}
const cacheOf = async (maxCachedWorkflows?: number) => (await optionsOf(maxCachedWorkflows)).maxCachedWorkflows;

describe('worker options', () => {
  it('caps the workflow cache at 1,000 by default, takes a larger cap, and never goes below the 500 concurrent workflow tasks', async () => {
    expect(DEFAULT_MAX_CACHED_WORKFLOWS).toBe(1000);
    expect(await cacheOf()).toBe(1000);
    expect(await cacheOf(5000)).toBe(5000);
    // Below the concurrent tasks the SDK would shrink the task slots instead; the cap is raised to them.
    expect(await cacheOf(10)).toBe(500);
  });

  it('gives a call into the workflow sandbox 60 s before the deadlock detector stops it, not the SDK default of 5 s', async () => {
    // The SDK takes the value from its options although it is not in their type: if an upgrade drops that, this fails.
    expect(WORKFLOW_SANDBOX_TIMEOUT_MS).toBe(60_000);
    expect((await optionsOf()).isolateExecutionTimeoutMs).toBe(60_000);
  });

  it('reads the cap from TEMPORAL_WORKER_MAX_CACHED_WORKFLOWS and refuses one below 500', () => {
    const base = { DATABASE_URL: 'postgres://x' };
    expect(loadConfig(base).workerMaxCachedWorkflows).toBeUndefined();
    expect(loadConfig({ ...base, TEMPORAL_WORKER_MAX_CACHED_WORKFLOWS: '2000' }).workerMaxCachedWorkflows).toBe(2000);
    expect(() => loadConfig({ ...base, TEMPORAL_WORKER_MAX_CACHED_WORKFLOWS: '100' })).toThrow(/TEMPORAL_WORKER_MAX_CACHED_WORKFLOWS/);
    expect(() => loadConfig({ ...base, TEMPORAL_WORKER_MAX_CACHED_WORKFLOWS: 'many' })).toThrow(/TEMPORAL_WORKER_MAX_CACHED_WORKFLOWS/);
  });
});
