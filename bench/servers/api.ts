// The real api app (auth, versioning, idempotency, logging, validation and
// response filtering) for the read benchmark. Env: DATABASE_URL, PORT.
import { destination, pino } from 'pino';
import { buildApp } from '../../src/app.js';
import { createKeyAuthenticator } from '../../src/api-keys/service.js';
import { loadConfig } from '../../src/config.js';
import { createSql } from '../../src/db/client.js';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'info' });
const sql = createSql(config.databaseUrl, { max: 10 });
const keys = createKeyAuthenticator(sql);
await keys.listenForRevocations();
// Logs go to /dev/null-like sink but are still produced, as in production.
const logger = pino({ level: 'info' }, destination({ dest: '/dev/null', sync: false }));
const app = await buildApp({ config, sql, keys, logger });
await app.listen({ host: '127.0.0.1', port: config.port });
process.send?.('ready');
