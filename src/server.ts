// The api process: builds the app and listens.
import { loadConfig } from './config.js';
import { createKeyAuthenticator } from './api-keys/service.js';
import { buildApp } from './app.js';
import { createSql } from './db/client.js';
import { migrate } from './db/migrate.js';
import { createLogger } from './logger.js';
import { refuseMisconfiguredChains } from './chain/chain-check.js';
import { connectTemporalClient } from './temporal/connection.js';

const config = loadConfig();
const logger = createLogger(config.logLevel).child({ process: 'api' });
// A chain that is not what its configuration says refuses the start, naming the variable (src/chain/chain-check.ts).
await refuseMisconfiguredChains(config.chain, logger).catch((error: unknown) => {
  logger.error({}, error instanceof Error ? error.message : String(error));
  process.exit(1);
});
const sql = createSql(config.databaseUrl, { max: config.databasePoolMax, timeouts: config.databaseTimeouts });
await migrate(config.databaseUrl, (line) => logger.info(line));
const temporal = await connectTemporalClient(config.temporalAddress, config.temporalNamespace);
const keys = createKeyAuthenticator(sql);
await keys.listenForRevocations();

const app = await buildApp({ config, sql, temporal, keys, logger });
await app.listen({ host: config.host, port: config.port });

async function shutdown(signal: string) {
  logger.info({ signal }, 'api shutting down');
  // Each step runs even if an earlier one fails (the database may already be gone).
  for (const step of [() => app.close(), () => keys.close(), () => temporal.connection.close(), () => sql.end({ timeout: 5 })]) {
    await Promise.resolve()
      .then(step)
      .catch((error: unknown) => logger.warn({ err: error }, 'shutdown step failed'));
  }
  process.exit(0);
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
