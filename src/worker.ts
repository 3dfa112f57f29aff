// The worker process: runs every workflow and activity, and makes sure the
// periodic schedules exist.
import { NativeConnection } from '@temporalio/worker';
import { loadConfig } from './config.js';
import { createSql } from './db/client.js';
import { createMailer } from './email/mailer.js';
import { migrate } from './db/migrate.js';
import { createLogger } from './logger.js';
import { refuseMisconfiguredChains } from './chain/chain-check.js';
import { connectTemporalClient } from './temporal/connection.js';
import { ensureSchedules } from './temporal/schedules.js';
import { wakeEventDispatcher } from './events/dispatch.js';
import { createWorker } from './temporal/worker.js';
import { createViemSubscriptionChain } from './subscriptions/chain.js';
import { subscriptionChainModeOf, subscriptionChainModes } from './subscriptions/indexer-hooks.js';
import { createChainResolver, findChainWith } from './test-clocks/chain-registry.js';

const config = loadConfig();
const log = createLogger(config.logLevel).child({ process: 'worker' });
// A chain that is not what its configuration says refuses the start, naming the variable (src/chain/chain-check.ts).
await refuseMisconfiguredChains(config.chain, log).catch((error: unknown) => {
  log.error({}, error instanceof Error ? error.message : String(error));
  process.exit(1);
});
const sql = createSql(config.databaseUrl, { max: config.databasePoolMax, timeouts: config.databaseTimeouts });
await migrate(config.databaseUrl, (line) => log.info(line));

const temporal = await connectTemporalClient(config.temporalAddress, config.temporalNamespace);
const connection = await NativeConnection.connect({ address: config.temporalAddress });
await ensureSchedules(temporal, config.temporalTaskQueue);
// The event dispatcher of this task queue: started if missing, and told to look at the outbox now.
await wakeEventDispatcher(temporal, config.temporalTaskQueue);
const findChain = findChainWith(createChainResolver({ sql, config: config.chain }));
const clockChainModes = async (livemode: boolean, chainId: number) => {
  const settings = await findChain(livemode, chainId);
  return settings && subscriptionChainModeOf(settings);
};
const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom });
const worker = await createWorker({
  connection,
  namespace: config.temporalNamespace,
  sql,
  temporal,
  taskQueue: config.temporalTaskQueue,
  maxCachedWorkflows: config.workerMaxCachedWorkflows,
  ...(config.workflowBundlePath ? { workflowBundle: { codePath: config.workflowBundlePath } } : {}),
  mailer,
  chain: config.chain,
  subscriptionChain: await createViemSubscriptionChain(subscriptionChainModes(config.chain), {
    sql,
    // A test clock's own chain (TEST_CLOCK_CHAINS=fork): its subscriptions are charged there.
    resolveChain: clockChainModes,
  }),
  publicBaseUrl: config.publicBaseUrl,
  secretsEncryptionKey: config.secretsEncryptionKey,
  webhooks: {
    encryptionKey: config.webhooks.secretEncryptionKey,
    allowPrivateTargets: config.webhooks.allowPrivateTargets,
  },
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log.info({ signal }, 'worker shutting down');
    worker.shutdown();
  });
}

log.info('worker running');
await worker.run();
mailer.close();
await connection.close();
await temporal.connection.close();
await sql.end({ timeout: 5 });
log.info('worker stopped');
