// The demo merchant `npm start` creates once and reuses on every later start.
import { SCOPES, SCOPE_PRESETS } from '../api-keys/scopes.js';
import { issueKey } from '../api-keys/service.js';
import { findKeyByHash } from '../api-keys/repo.js';
import { hashKey } from '../api-keys/secrets.js';
import type { Sql } from '../db/client.js';
import { createMerchant } from '../merchants/service.js';

export type DemoMerchant = { merchantId: string; secretKey: string; publishableKey: string };

async function stillValid(sql: Sql, merchantId: string, key: string | undefined): Promise<boolean> {
  if (!key) return false;
  const row = await findKeyByHash(sql, hashKey(key));
  return !!row && row.merchantId === merchantId && !row.revokedAt;
}

export async function seedDemoMerchant(sql: Sql, previous?: Partial<DemoMerchant>): Promise<DemoMerchant> {
  if (
    previous?.merchantId &&
    (await stillValid(sql, previous.merchantId, previous.secretKey)) &&
    (await stillValid(sql, previous.merchantId, previous.publishableKey))
  ) {
    return previous as DemoMerchant;
  }
  return sql.begin(async (tx) => {
    const merchant = await createMerchant(tx, { name: 'Demo merchant', email: 'demo@example.com' });
    const secret = await issueKey(tx, { merchantId: merchant.id, livemode: false, kind: 'secret', name: 'demo (all scopes)', scopes: SCOPES, actor: 'seed' });
    const publishable = await issueKey(tx, {
      merchantId: merchant.id,
      livemode: false,
      kind: 'publishable',
      name: 'demo checkout',
      scopes: SCOPE_PRESETS['checkout-only'],
      actor: 'seed',
    });
    return { merchantId: merchant.id, secretKey: secret.secret, publishableKey: publishable.secret };
  });
}
