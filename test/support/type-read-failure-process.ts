// A process with the project's Postgres client whose server cancels every statement after 1 ms, so
// the library's own array-type read on the new connection fails (porsager/postgres#1192). It prints
// "alive" if that dropped failure did not end the process (test/db/db-transactions.test.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import { createSql } from '../../src/db/client.js';

const sql = createSql(process.env.DATABASE_URL!, { max: 1, timeouts: { statementTimeoutMs: 1 } });
await sql`select pg_sleep(0.05)`.catch(() => undefined);
await sleep(300);
await sql.end({ timeout: 1 }).catch(() => undefined);
process.stdout.write('alive\n');
