// Versioned migrations: applied in order, once, safely from concurrent starters.
import { randomBytes } from 'node:crypto';
import { describe, expect, it, inject } from 'vitest';
import { createSql } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { ensureDatabase } from '../../src/db/databases.js';

describe('migrations', () => {
  it('migrate an empty database once, even when started concurrently', async () => {
    const adminUrl = inject('postgresAdminUrl');
    const name = `migrate_${randomBytes(4).toString('hex')}`;
    await ensureDatabase(adminUrl, name);
    const url = adminUrl.replace(/\/postgres$/, `/${name}`);
    await Promise.all([migrate(url), migrate(url), migrate(url)]);
    await migrate(url);
    const sql = createSql(url, { max: 1 });
    try {
      const applied = await sql`select migration_id as id, name from migrations order by migration_id`;
      expect(applied.length).toBeGreaterThanOrEqual(1);
      expect(applied.map((m) => m.id)).toEqual(applied.map((_m, i) => i + 1));
      const tables = await sql`select table_name from information_schema.tables where table_schema = 'public'`;
      expect(tables.map((t) => t.table_name)).toEqual(
        expect.arrayContaining(['merchants', 'api_keys', 'api_key_audit_log', 'idempotency_keys', 'events', 'subscription_plans']),
      );
    } finally {
      await sql.end();
    }
  });
});
