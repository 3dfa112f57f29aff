// Applies the versioned SQL migrations in src/db/migrations with postgres-shift.
// An advisory lock, held on a connection of its own, makes concurrent starters
// (api, worker, indexer, tests) take turns.
import shift from 'postgres-shift';
import { fileURLToPath } from 'node:url';
import { createSql } from './client.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));
const MIGRATION_LOCK = 746_001;

export async function migrate(databaseUrl: string, log: (line: string) => void = () => {}): Promise<void> {
  // No statement timeout: a migration may rewrite a large table, and the lock waits for other starters.
  const sql = createSql(databaseUrl, { max: 2, timeouts: { statementTimeoutMs: 0 } });
  try {
    const lock = await sql.reserve();
    try {
      await lock`select pg_advisory_lock(${MIGRATION_LOCK})`;
      await shift({
        sql,
        path: MIGRATIONS_DIR,
        before: ({ migration_id, name }: { migration_id: number; name: string }) => log(`migrating ${migration_id} ${name}`),
      });
    } finally {
      await lock`select pg_advisory_unlock(${MIGRATION_LOCK})`;
      lock.release();
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}
