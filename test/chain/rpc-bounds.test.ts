// A chain node that accepts connections and never answers: every chain call of the service is
// bounded by CHAIN_<MODE>_RPC_TIMEOUT_MS and CHAIN_<MODE>_RPC_RETRY_COUNT (src/chain/clients.ts),
// so a read fails in about timeout x (retries + 1) instead of viem's ~45 s, the api answers 503,
// and an activity fails fast for Temporal to retry. The node here is a local TCP server that
// accepts every connection and reads every request without ever writing a byte.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicClientFor } from '../../src/chain/clients.js';
import { DEFAULT_RPC_BOUNDS, loadChainConfig } from '../../src/chain/config.js';
import { unavailableDependency } from '../../src/http/unavailable.js';
import { createViemSubscriptionChain } from '../../src/subscriptions/chain.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { createTestApp } from '../support/app.js';
import { settingsOf, sharedChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let silent: Server;
let silentUrl: string;
const sockets = new Set<Socket>();
/** JSON-RPC requests the silent node received (each try of a call is one HTTP POST). */
let posts = 0;
let db: TestDatabase;

beforeAll(async () => {
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (chunk) => (posts += chunk.toString('latin1').split('POST /').length - 1));
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const address = silent.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  silentUrl = `http://127.0.0.1:${address.port}`;
  db = await createTestDatabase();
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent?.close(resolve));
  await db?.drop();
});

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; error: unknown }> {
  const started = performance.now();
  const error = await work().then(
    () => undefined,
    (e: unknown) => e,
  );
  return { ms: performance.now() - started, error };
}

describe('chain calls against a node that never answers', () => {
  it('the settings carry the bounds from the environment, with short defaults', () => {
    const base = { CHAIN_RPC_URL: silentUrl };
    expect(loadChainConfig(base).test).toMatchObject({
      rpcTimeoutMs: DEFAULT_RPC_BOUNDS.timeoutMs,
      rpcRetryCount: DEFAULT_RPC_BOUNDS.retryCount,
    });
    expect(DEFAULT_RPC_BOUNDS.timeoutMs * (DEFAULT_RPC_BOUNDS.retryCount + 1)).toBeLessThanOrEqual(10_000);
    expect(loadChainConfig({ ...base, CHAIN_TEST_RPC_TIMEOUT_MS: '250', CHAIN_TEST_RPC_RETRY_COUNT: '0' }).test).toMatchObject({
      rpcTimeoutMs: 250,
      rpcRetryCount: 0,
    });
    expect(() => loadChainConfig({ ...base, CHAIN_TEST_RPC_RETRY_COUNT: 'many' })).toThrow(/CHAIN_TEST_RPC_RETRY_COUNT/);
  });

  it('a read fails within timeout x (retries + 1), tried retries + 1 times, and counts as the chain being unavailable', async () => {
    const client = publicClientFor(settingsOf(sharedChain(), { rpcUrl: silentUrl, rpcTimeoutMs: 400, rpcRetryCount: 1 }));
    const before = posts;
    const { ms, error } = await timed(() => client.getBlockNumber());
    expect(error).toBeDefined();
    expect((error as Error).name).toBe('TimeoutError');
    expect(unavailableDependency(error)).toBe('chain');
    expect(ms).toBeGreaterThanOrEqual(800);
    expect(ms).toBeLessThan(3_000);
    expect(posts - before).toBe(2);
  });

  it('the charge path (its own clients) is bounded too: creating it against a silent node fails fast', async () => {
    const { ms, error } = await timed(() =>
      createViemSubscriptionChain(
        {
          test: {
            rpcUrl: silentUrl,
            operatorKey: DEV_ACCOUNTS.operator.privateKey,
            subscriptionManager: sharedChain().subscriptionManager,
            rpcTimeoutMs: 300,
            rpcRetryCount: 0,
          },
        },
        { sql: db.sql },
      ),
    );
    expect((error as Error | undefined)?.name).toBe('TimeoutError');
    expect(ms).toBeLessThan(2_000);
  });

  it('the api answers a chain read with 503 service_unavailable in about a second', async () => {
    const testApp = await createTestApp(db.sql, {
      chain: { test: settingsOf(sharedChain(), { rpcUrl: silentUrl, rpcTimeoutMs: 300, rpcRetryCount: 1 }) },
    });
    try {
      const started = performance.now();
      const response = await testApp.app.inject({ method: 'GET', url: `/v1/tokens/${sharedChain().token}` });
      const ms = performance.now() - started;
      expect(response.statusCode).toBe(503);
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(response.json().error.code).toBe('service_unavailable');
      expect(JSON.stringify(response.json())).not.toContain(silentUrl);
      expect(ms).toBeLessThan(3_000);
    } finally {
      await testApp.close();
    }
  });
});
