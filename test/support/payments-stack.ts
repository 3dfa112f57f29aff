// The stack most payment integration tests stand on: a private anvil with Circle's USDC, a
// database of their own, the real worker on the Temporal dev server and the app, and, when
// asked, the deposit indexer (deposit addresses recognised as on `npm start`) and the app
// listening on a port (for clients that speak HTTP, like the official x402 facilitator client).
import { type PublicClient, createPublicClient, http } from 'viem';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import type { ChainSettings } from '../../src/chain/config.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { createEventDispatcher } from '../../src/events/dispatch.js';
import { createHookRegistry } from '../../src/indexer/hooks.js';
import { createIndexer } from '../../src/indexer/indexer.js';
import { depositIndexerHooks } from '../../src/payment-sessions/deposit-hooks.js';
import { createTestApp, type TestApp } from './app.js';
import { settingsOf, startPrivateChain } from './chain.js';
import { createTestDatabase, type TestDatabase } from './db.js';
import { startDevServerWorker, type DevServerWorker } from './temporal.js';

export type PaymentsStack = {
  chain: DevChain;
  /** The test mode's chain settings. */
  settings: ChainSettings;
  pub: PublicClient;
  db: TestDatabase;
  temporal: DevServerWorker;
  t: TestApp;
  stop: () => Promise<void>;
};

export async function startPaymentsStack(
  options: {
    depositIndexer?: boolean;
    listen?: boolean;
    pollingIntervalMs?: number;
    /** The test mode's confirmations (default 1): more lets a test order what the indexer and the relay see by mining blocks. */
    confirmations?: number;
  } = {},
): Promise<PaymentsStack> {
  const chain = await startPrivateChain();
  const settings = settingsOf(chain.info, options.confirmations ? { confirmations: options.confirmations } : {});
  const pub = createPublicClient({
    chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
    transport: http(chain.info.rpcUrl),
    pollingInterval: options.pollingIntervalMs ?? 50,
  }) as PublicClient;
  const db = await createTestDatabase();
  const temporal = await startDevServerWorker(db.sql, { chain: { test: settings } });
  const t = await createTestApp(db.sql, { temporal: temporal.client, taskQueue: temporal.taskQueue, chain: { test: settings } });
  if (options.listen) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const indexerStop = new AbortController();
  let indexerRun: Promise<void> | undefined;
  if (options.depositIndexer) {
    const events = createEventDispatcher(temporal.client, temporal.taskQueue, () => {});
    const hooks = createHookRegistry(
      depositIndexerHooks({
        sql: db.sql,
        events,
        temporal: temporal.client,
        taskQueue: temporal.taskQueue,
        publicBaseUrl: 'http://localhost:3000',
      }),
    );
    indexerRun = createIndexer({ sql: db.sql, settings, hooks, temporal: temporal.client }).run(indexerStop.signal);
  }
  const stop = async () => {
    indexerStop.abort();
    await indexerRun?.catch(() => undefined);
    await t.close();
    await temporal.stop();
    await db.drop();
    await chain.stop();
  };
  return { chain, settings, pub, db, temporal, t, stop };
}
