// The stack most payment integration tests stand on: a private anvil with Circle's USDC, a
// database of their own, the real worker on the Temporal dev server and the app, and, when
// asked, the deposit indexer (deposit addresses recognised as on `npm start`) and the app
// listening on a port (for clients that speak HTTP, like the official x402 facilitator client);
// with `secondChain`, a second test-mode chain beside the first (issue 39), followed by an indexer of its own;
// with `subscriptions`, the subscription hooks on every chain's indexer and the chain port of charges in the
// worker (over every chain, as src/worker.ts builds it), so an enrolment is recorded and charged on its chain;
// with `clockChains`, each test clock gets a fork of its own (TEST_CLOCK_CHAINS=fork) and, as src/indexer.ts and
// src/worker.ts run them, a follower per live clock chain and charges sent to a clock's chain.
import { type PublicClient, createPublicClient, http } from 'viem';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import type { ChainConfig, ChainSettings } from '../../src/chain/config.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { createEventDispatcher } from '../../src/events/dispatch.js';
import { createHookRegistry } from '../../src/indexer/hooks.js';
import { createIndexer } from '../../src/indexer/indexer.js';
import { followClockChains } from '../../src/indexer/clock-chain-followers.js';
import { createChainResolver, findChainWith } from '../../src/test-clocks/chain-registry.js';
import { depositIndexerHooks } from '../../src/payment-sessions/deposit-hooks.js';
import { createViemSubscriptionChain } from '../../src/subscriptions/chain.js';
import { subscriptionChainFinder, subscriptionChainModes, subscriptionIndexerHooks } from '../../src/subscriptions/indexer-hooks.js';
import { createTestApp, type TestApp } from './app.js';
import { settingsOf, startPrivateChain, startSecondChain } from './chain.js';
import { createTestDatabase, type TestDatabase } from './db.js';
import { startDevServerWorker, type DevServerWorker } from './temporal.js';

/** The clock-chain followers' log: quiet, but a follower that fails says why (the test would otherwise only time out). */
const clockFollowersLog = {
  info: () => {},
  warn: (obj: object, msg: string) => console.warn(msg, obj),
  error: (obj: object, msg: string) => console.error(msg, obj),
};

export type PaymentsStack = {
  chain: DevChain;
  /** The test mode's chain settings. */
  settings: ChainSettings;
  pub: PublicClient;
  /** The second chain (SECOND_CHAIN_ID), its settings and client, when asked for. */
  second?: { chain: DevChain; settings: ChainSettings; pub: PublicClient };
  config: ChainConfig;
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
    /** A second test-mode chain (its deposit indexer too, when `depositIndexer`). */
    secondChain?: boolean;
    /** Subscriptions recorded by each chain's indexer and charged by the worker on their chain. */
    subscriptions?: boolean;
    /** A fork per test clock (TEST_CLOCK_CHAINS=fork), followed by the indexer (with `depositIndexer`/`subscriptions`'s hooks) and charged on by the worker. */
    clockChains?: boolean;
    /** Extra environment of the app (e.g. a dev identity provider's OIDC_* for dashboard-only routes). */
    appEnv?: Record<string, string>;
  } = {},
): Promise<PaymentsStack> {
  const [chain, secondChain] = await Promise.all([startPrivateChain(), options.secondChain ? startSecondChain() : undefined]);
  const settings = settingsOf(chain.info, options.confirmations ? { confirmations: options.confirmations } : {});
  const clientOf = (s: ChainSettings) =>
    createPublicClient({
      chain: chainDefinition(s.chainId, s.rpcUrl),
      transport: http(s.rpcUrl),
      pollingInterval: options.pollingIntervalMs ?? 50,
    }) as PublicClient;
  const pub = clientOf(settings);
  const secondSettings = secondChain && settingsOf(secondChain.info);
  const second =
    secondChain && secondSettings ? { chain: secondChain, settings: secondSettings, pub: clientOf(secondSettings) } : undefined;
  const config: ChainConfig = { test: settings, ...(second ? { others: { test: [second.settings] } } : {}) };
  const db = await createTestDatabase();
  const temporal = await startDevServerWorker(db.sql, {
    chain: config,
    ...(options.subscriptions
      ? {
          subscriptionChain: await createViemSubscriptionChain(subscriptionChainModes(config), {
            sql: db.sql,
            ...(options.clockChains
              ? { resolveChain: subscriptionChainFinder(findChainWith(createChainResolver({ sql: db.sql, config }))) }
              : {}),
          }),
        }
      : {}),
  });
  const t = await createTestApp(db.sql, {
    temporal: temporal.client,
    taskQueue: temporal.taskQueue,
    chain: config,
    // Without `clockChains` a clock moves the test chain, where the stack's indexers look.
    env: { TEST_CLOCK_CHAINS: options.clockChains ? 'fork' : 'shared', ...options.appEnv },
  });
  if (options.listen) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const indexerStop = new AbortController();
  const indexerRuns: Promise<void>[] = [];
  if (options.depositIndexer || options.subscriptions) {
    const events = createEventDispatcher(temporal.client, temporal.taskQueue, () => {});
    const deps = { sql: db.sql, events, temporal: temporal.client, taskQueue: temporal.taskQueue };
    const hooksFor = (chains: ChainConfig) =>
      createHookRegistry([
        ...(options.depositIndexer ? depositIndexerHooks({ ...deps, publicBaseUrl: 'http://localhost:3000', chain: chains }) : []),
        ...(options.subscriptions ? subscriptionIndexerHooks(chains, deps) : []),
      ]);
    const hooks = hooksFor(config);
    for (const followed of [settings, ...(second ? [second.settings] : [])])
      indexerRuns.push(createIndexer({ sql: db.sql, settings: followed, hooks, temporal: temporal.client }).run(indexerStop.signal));
    if (options.clockChains)
      indexerRuns.push(
        followClockChains(
          { sql: db.sql, config, hooksFor, temporal: temporal.client, refreshMs: 200, log: clockFollowersLog },
          indexerStop.signal,
        ),
      );
  }
  const stop = async () => {
    indexerStop.abort();
    await Promise.all(indexerRuns.map((run) => run.catch(() => undefined)));
    await t.close();
    await temporal.stop();
    await db.drop();
    await Promise.all([chain.stop(), second?.chain.stop()]);
  };
  return { chain, settings, pub, ...(second ? { second } : {}), config, db, temporal, t, stop };
}
