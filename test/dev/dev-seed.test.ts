// The demo merchant of `npm start` (tools/dev/seed.ts): a start killed half-way,
// or one that lost .data/dev.json, must not break or duplicate what the next
// start finds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findKeyByHash } from '../../src/api-keys/repo.js';
import { hashKey } from '../../src/api-keys/secrets.js';
import { DEMO_DASHBOARD_SUBJECT, seedDemoMerchant } from '../../tools/dev/seed.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.drop());

const revokedAt = async (key: string) => (await findKeyByHash(db.sql, hashKey(key)))?.revokedAt ?? null;

describe('seedDemoMerchant', () => {
  it('creates the demo merchant once, bound to its owner subject, and keeps valid keys', async () => {
    const first = await seedDemoMerchant(db.sql);
    const again = await seedDemoMerchant(db.sql, first);
    expect(again).toEqual(first);
    const merchants = await db.sql`select id from merchants where idp_subject = ${DEMO_DASHBOARD_SUBJECT}`;
    expect(merchants.map((m) => m.id)).toEqual([first.merchantId]);
  });

  it('after a start that left no dev.json, finds the same merchant and rotates its demo keys', async () => {
    const [row] = await db.sql<{ id: string }[]>`select id from merchants where idp_subject = ${DEMO_DASHBOARD_SUBJECT}`;
    const id = row!.id;
    const before = await seedDemoMerchant(db.sql, { merchantId: id });
    const after = await seedDemoMerchant(db.sql, {}); // dev.json lost
    expect(after.merchantId).toBe(before.merchantId);
    expect(after.secretKey).not.toBe(before.secretKey);
    expect(await revokedAt(before.secretKey)).not.toBeNull();
    expect(await revokedAt(before.publishableKey)).not.toBeNull();
    expect(await revokedAt(after.secretKey)).toBeNull();
    const live = await db.sql`select kind from api_keys where merchant_id = ${after.merchantId} and revoked_at is null order by kind`;
    expect(live.map((k) => k.kind)).toEqual(['publishable', 'secret']);
  });

  it('two starts seeding at once make one merchant', async () => {
    const [a, b] = await Promise.all([seedDemoMerchant(db.sql, {}), seedDemoMerchant(db.sql, {})]);
    expect(a.merchantId).toBe(b.merchantId);
    const count = await db.sql`select count(*)::int as n from merchants where idp_subject = ${DEMO_DASHBOARD_SUBJECT}`;
    expect(count[0]!.n).toBe(1);
  });
});
