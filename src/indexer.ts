// The indexer process: one follower per configured chain (every chain of both
// modes, allChains), each the leader for its chain while it holds the chain's
// lease in Postgres (src/indexer/lease.ts), with its own checkpoint, reorg
// handling and retries: a chain whose node is down holds back only its own
// follower. Start as many as you like; one follows each chain, the others wait
// and take over within the lease's time when it goes away. A chain that is not
// what its configuration says (another chain id, no contracts) stops the process
// with a message naming the variable to fix.
import { loadConfig } from './config.js';
import { createSql } from './db/client.js';
import { migrate } from './db/migrate.js';
import { createEventDispatcher } from './events/dispatch.js';
import { createHookRegistry } from './indexer/hooks.js';
import { subscriptionIndexerHooks } from './subscriptions/indexer-hooks.js';
import { agentIndexerHooks } from './agents/escrow.js';
import { depositIndexerHooks } from './payment-sessions/deposit-hooks.js';
import { createIndexer } from './indexer/indexer.js';
import { allChains, type ChainConfig } from './chain/config.js';
import { followClockChains } from './indexer/clock-chain-followers.js';
import { ChainMisconfiguredError } from './chain/chain-check.js';
import { defaultLeaseHolder } from './indexer/lease.js';
import { createLogger } from './logger.js';
import { connectTemporalClient } from './temporal/connection.js';

const config = loadConfig();
const log = createLogger(config.logLevel).child({ process: 'indexer' });
// Handlers first: a stop during start-up still ends cleanly.
const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log.info({ signal }, 'indexer shutting down');
    controller.abort();
  });
}
const sql = createSql(config.databaseUrl, { max: 4, timeouts: config.databaseTimeouts, applicationName: 'stablepay-indexer' });
await migrate(config.databaseUrl, (line) => log.info(line));
const temporal = await connectTemporalClient(config.temporalAddress, config.temporalNamespace);
// Every feature that reacts to chain events registers its hooks here.
const events = createEventDispatcher(temporal, config.temporalTaskQueue, (error, eventId) =>
  log.warn({ err: error, eventId }, 'waking the event dispatcher failed; the outbox sweep will wake it'),
);
/** The hooks of the chains of `chain` (the configuration's, or one test clock's fork). */
const hooksFor = (chain: ChainConfig) =>
  createHookRegistry([
    ...subscriptionIndexerHooks(chain, {
      sql,
      temporal,
      taskQueue: config.temporalTaskQueue,
      events,
      log: log.child({ hook: 'subscriptions' }),
    }),
    ...agentIndexerHooks(chain, { sql, temporal }),
    ...depositIndexerHooks({
      sql,
      events,
      temporal,
      taskQueue: config.temporalTaskQueue,
      publicBaseUrl: config.publicBaseUrl,
      chain,
    }),
  ]);
const hooks = hooksFor(config.chain);
/** Blocks per step (INDEXER_BATCH_SIZE, default 500): smaller ranges on providers with tight getLogs limits. */
const batchSize = Number(process.env.INDEXER_BATCH_SIZE ?? 500);

const chains = allChains(config.chain);
if (chains.length === 0) log.warn('no chain configured (CHAIN_RPC_URL / CHAIN_TEST_RPC_URL / CHAIN_LIVE_RPC_URL): nothing to follow');

const holder = process.env.INDEXER_ID || defaultLeaseHolder();
// Each lease on a connection of its own: renewals never wait behind the indexer's queries.
const leaseConnections = chains.map(() =>
  createSql(config.databaseUrl, { max: 1, timeouts: config.databaseTimeouts, applicationName: 'stablepay-indexer-lease' }),
);
// Test clocks' own chains (TEST_CLOCK_CHAINS=fork), followed while their clocks live; leases on a connection of their own.
const clockLeaseConnection = config.chain.test
  ? createSql(config.databaseUrl, { max: 1, timeouts: config.databaseTimeouts, applicationName: 'stablepay-indexer-lease' })
  : undefined;
const clockChains = clockLeaseConnection
  ? followClockChains(
      {
        sql,
        config: config.chain,
        hooksFor,
        temporal,
        batchSize,
        lease: { sql: clockLeaseConnection, holder, ...config.indexerLease },
        log: log.child({ mode: 'test', clockChain: true }),
      },
      controller.signal,
    )
  : Promise.resolve();
let refusal: unknown;
await Promise.all(
  chains.map((settings, i) =>
    createIndexer({
      sql,
      settings,
      hooks,
      temporal,
      batchSize,
      lease: { sql: leaseConnections[i]!, holder, ...config.indexerLease },
      log: log.child({ mode: settings.mode }),
    })
      .run(controller.signal)
      .catch((error: unknown) => {
        // A misconfigured chain stops every follower: the operator fixes the configuration and starts again.
        refusal ??= error;
        log.error({}, error instanceof ChainMisconfiguredError ? error.message : `indexer stopped: ${String(error)}`);
        controller.abort();
      }),
  ),
);
await clockChains;
await clockLeaseConnection?.end({ timeout: 5 });
await temporal.connection.close();
await Promise.all(leaseConnections.map((connection) => connection.end({ timeout: 5 })));
await sql.end({ timeout: 5 });
if (refusal) {
  log.error({}, 'indexer refused to run; see the message above');
  process.exit(1);
}
log.info('indexer stopped');
