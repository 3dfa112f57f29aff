// A fresh, migrated database per test file, cloned from the template that
// the global setup migrated once.
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createSql, type Sql } from '../../src/db/client.js';
import { ensureDatabase } from '../../src/db/databases.js';

export type TestDatabase = { sql: Sql; url: string; drop: () => Promise<void> };

export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('postgresAdminUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(adminUrl, name, inject('templateDatabase'));
  const url = adminUrl.replace(/\/postgres$/, `/${name}`);
  const sql = createSql(url, { max: 10 });
  return {
    sql,
    url,
    drop: async () => {
      await sql.end({ timeout: 5 });
    },
  };
}
