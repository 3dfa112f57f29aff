// The demo merchant `npm start` creates once and reuses on every later start.
// Every step finds what an earlier start (even one killed half-way) left
// before creating anything: the merchant by its owner's identity-provider
// subject, the keys from .data/dev.json while they are still valid.
import { SCOPES, SCOPE_PRESETS } from '../../src/api-keys/scopes.js';
import { issueKey, revokeKeyInTransaction } from '../../src/api-keys/service.js';
import { findKeyByHash, listKeys } from '../../src/api-keys/repo.js';
import { hashKey } from '../../src/api-keys/secrets.js';
import type { Db, Sql } from '../../src/db/client.js';
import { CURRENT_API_VERSION } from '../../src/http/versions.js';
import { newId } from '../../src/ids.js';
import { insertMerchantForSubject } from '../../src/merchants/repo.js';

export type DemoMerchant = { merchantId: string; secretKey: string; publishableKey: string };

/** The dev identity provider's user who owns the demo merchant (its natural key). */
export const DEMO_DASHBOARD_SUBJECT = 'dev|demo-merchant-owner';

const DEMO_KEYS = {
  secret: { name: 'demo (all scopes)', scopes: SCOPES },
  publishable: { name: 'demo checkout', scopes: SCOPE_PRESETS['checkout-only'] },
} as const;

async function stillValid(db: Db, merchantId: string, key: string | undefined): Promise<boolean> {
  if (!key) return false;
  const row = await findKeyByHash(db, hashKey(key));
  return !!row && row.merchantId === merchantId && !row.revokedAt;
}

/**
 * Finds or creates the demo merchant and its two test keys. Key secrets are stored hashed, so keys
 * whose secrets were lost with dev.json cannot be recovered: the seed's earlier demo keys are revoked
 * and new ones issued, in one transaction.
 */
export async function seedDemoMerchant(sql: Sql, previous?: Partial<DemoMerchant>): Promise<DemoMerchant> {
  return sql.begin(async (tx) => {
    // Two starts at once seed one merchant, not two.
    await tx`select pg_advisory_xact_lock(hashtext('stablepay demo seed'))`;
    const merchant = await insertMerchantForSubject(tx, {
      id: newId('merchant'),
      name: 'Demo merchant',
      email: 'demo@example.com',
      apiVersion: CURRENT_API_VERSION,
      idpSubject: DEMO_DASHBOARD_SUBJECT,
    });
    if (
      previous?.merchantId === merchant.id &&
      (await stillValid(tx, merchant.id, previous.secretKey)) &&
      (await stillValid(tx, merchant.id, previous.publishableKey))
    ) {
      return previous as DemoMerchant;
    }
    const demoKeyNames: string[] = [DEMO_KEYS.secret.name, DEMO_KEYS.publishable.name];
    const earlier = await listKeys(tx, merchant.id, { livemode: false, limit: 1000 });
    for (const key of earlier.filter((k) => !k.revokedAt && demoKeyNames.includes(k.name))) {
      await revokeKeyInTransaction(tx, {
        merchantId: merchant.id,
        keyId: key.id,
        actor: 'seed',
        reason: 'demo key secret lost with .data/dev.json',
      });
    }
    const secret = await issueKey(tx, { merchantId: merchant.id, livemode: false, kind: 'secret', ...DEMO_KEYS.secret, actor: 'seed' });
    const publishable = await issueKey(tx, {
      merchantId: merchant.id,
      livemode: false,
      kind: 'publishable',
      ...DEMO_KEYS.publishable,
      actor: 'seed',
    });
    return { merchantId: merchant.id, secretKey: secret.secret, publishableKey: publishable.secret };
  });
}
