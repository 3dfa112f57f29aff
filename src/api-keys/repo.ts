// SQL for API keys and their audit log.
import type { Db } from '../db/client.js';
import type { KeyKind } from './secrets.js';

export type ApiKeyRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  kind: KeyKind;
  name: string;
  secretHash: Buffer;
  prefix: string;
  last4: string;
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  revokedReason: string | null;
};

const columns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, kind, name, secret_hash as "secretHash", prefix, last4,
     scopes, created_at as "createdAt", last_used_at as "lastUsedAt", revoked_at as "revokedAt",
     revoked_reason as "revokedReason"`;

export type AuthKeyRow = ApiKeyRow & { merchantApiVersion: string };

/** The key with its merchant's pinned API version, in one round trip (the hot path of every request). */
export async function findKeyByHash(db: Db, secretHash: Buffer): Promise<AuthKeyRow | undefined> {
  const [row] = await db<AuthKeyRow[]>`
    select k.id, k.merchant_id as "merchantId", k.livemode, k.kind, k.name, k.secret_hash as "secretHash",
           k.prefix, k.last4, k.scopes, k.created_at as "createdAt", k.last_used_at as "lastUsedAt",
           k.revoked_at as "revokedAt", k.revoked_reason as "revokedReason", m.api_version as "merchantApiVersion"
    from api_keys k join merchants m on m.id = k.merchant_id
    where k.secret_hash = ${secretHash}`;
  return row;
}

export async function findKeyById(db: Db, merchantId: string, id: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db<ApiKeyRow[]>`
    select ${columns(db)} from api_keys where merchant_id = ${merchantId} and id = ${id}`;
  return row;
}

export async function insertKey(
  db: Db,
  key: Omit<ApiKeyRow, 'createdAt' | 'lastUsedAt' | 'revokedAt' | 'revokedReason'>,
): Promise<ApiKeyRow> {
  const [row] = await db<ApiKeyRow[]>`
    insert into api_keys (id, merchant_id, livemode, kind, name, secret_hash, prefix, last4, scopes)
    values (${key.id}, ${key.merchantId}, ${key.livemode}, ${key.kind}, ${key.name}, ${key.secretHash},
            ${key.prefix}, ${key.last4}, ${db.array(key.scopes)})
    returning ${columns(db)}`;
  return row!;
}

export async function markKeyRevoked(db: Db, id: string, reason: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db<ApiKeyRow[]>`
    update api_keys set revoked_at = now(), revoked_reason = ${reason}
    where id = ${id} and revoked_at is null
    returning ${columns(db)}`;
  return row;
}

export async function touchKeysLastUsed(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db`update api_keys set last_used_at = now() where id in ${db(ids)}`;
}

export async function insertAuditEntry(
  db: Db,
  entry: { id: string; merchantId: string; apiKeyId: string; action: 'issued' | 'revoked'; actor: string; reason?: string | null },
): Promise<void> {
  await db`
    insert into api_key_audit_log (id, merchant_id, api_key_id, action, actor, reason)
    values (${entry.id}, ${entry.merchantId}, ${entry.apiKeyId}, ${entry.action}, ${entry.actor}, ${entry.reason ?? null})`;
}

export async function notifyKeyRevoked(db: Db, secretHashHex: string): Promise<void> {
  await db`select pg_notify('api_key_revoked', ${secretHashHex})`;
}
