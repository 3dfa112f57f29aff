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

export type AuthKeyRow = ApiKeyRow & {
  merchantApiVersion: string;
  merchantRateLimitPerMinute: number | null;
  merchantAllowedOrigins: string[];
};

/** The key with its merchant's pinned API version, rate limit and allowed origins, in one round trip (the hot path of every request). */
export async function findKeyByHash(db: Db, secretHash: Buffer): Promise<AuthKeyRow | undefined> {
  const [row] = await db<AuthKeyRow[]>`
    select k.id, k.merchant_id as "merchantId", k.livemode, k.kind, k.name, k.secret_hash as "secretHash",
           k.prefix, k.last4, k.scopes, k.created_at as "createdAt", k.last_used_at as "lastUsedAt",
           k.revoked_at as "revokedAt", k.revoked_reason as "revokedReason", m.api_version as "merchantApiVersion",
           m.rate_limit_per_minute as "merchantRateLimitPerMinute", m.allowed_origins as "merchantAllowedOrigins"
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
  entry: {
    id: string;
    merchantId: string;
    apiKeyId: string;
    action: 'issued' | 'revoked' | 'revealed';
    actor: string;
    reason?: string | null;
  },
): Promise<void> {
  await db`
    insert into api_key_audit_log (id, merchant_id, api_key_id, action, actor, reason)
    values (${entry.id}, ${entry.merchantId}, ${entry.apiKeyId}, ${entry.action}, ${entry.actor}, ${entry.reason ?? null})`;
}

export async function notifyKeyRevoked(db: Db, secretHashHex: string): Promise<void> {
  await db`select pg_notify('api_key_revoked', ${secretHashHex})`;
}

export type ListedKeyRow = ApiKeyRow & { pendingReveal: boolean };

export async function listKeys(
  db: Db,
  merchantId: string,
  filter: { livemode?: boolean; before?: string; limit: number },
): Promise<ListedKeyRow[]> {
  return db<ListedKeyRow[]>`
    select k.id, k.merchant_id as "merchantId", k.livemode, k.kind, k.name, k.secret_hash as "secretHash", k.prefix, k.last4,
           k.scopes, k.created_at as "createdAt", k.last_used_at as "lastUsedAt", k.revoked_at as "revokedAt",
           k.revoked_reason as "revokedReason",
           (r.api_key_id is not null and r.revealed_at is null) as "pendingReveal"
    from api_keys k left join api_key_reveals r on r.api_key_id = k.id
    where k.merchant_id = ${merchantId}
      ${filter.livemode === undefined ? db`` : db`and k.livemode = ${filter.livemode}`}
      ${filter.before ? db`and k.id < ${filter.before}` : db``}
    order by k.id desc limit ${filter.limit + 1}`;
}

export async function hasPendingReveal(db: Db, apiKeyId: string): Promise<boolean> {
  const [row] = await db`select 1 from api_key_reveals where api_key_id = ${apiKeyId} and revealed_at is null`;
  return row !== undefined;
}

export type AuditEntryRow = {
  id: string;
  apiKeyId: string;
  action: 'issued' | 'revoked' | 'revealed';
  actor: string;
  reason: string | null;
  createdAt: Date;
};

export async function listAuditEntries(
  db: Db,
  merchantId: string,
  filter: { apiKeyId?: string; before?: string; limit: number },
): Promise<AuditEntryRow[]> {
  return db<AuditEntryRow[]>`
    select id, api_key_id as "apiKeyId", action, actor, reason, created_at as "createdAt"
    from api_key_audit_log
    where merchant_id = ${merchantId}
      ${filter.apiKeyId ? db`and api_key_id = ${filter.apiKeyId}` : db``}
      ${filter.before ? db`and id < ${filter.before}` : db``}
    order by id desc limit ${filter.limit + 1}`;
}

export async function insertReveal(
  db: Db,
  reveal: { apiKeyId: string; merchantId: string; livemode: boolean; replacesApiKeyId: string; secretEncrypted: Buffer },
): Promise<void> {
  await db`
    insert into api_key_reveals (api_key_id, merchant_id, livemode, replaces_api_key_id, secret_encrypted)
    values (${reveal.apiKeyId}, ${reveal.merchantId}, ${reveal.livemode}, ${reveal.replacesApiKeyId}, ${reveal.secretEncrypted})`;
}

/** Takes the sealed secret out for its one reveal (the ciphertext is erased in the same statement). */
export async function takeReveal(db: Db, merchantId: string, apiKeyId: string): Promise<Buffer | undefined> {
  const [row] = await db<{ sealed: Buffer }[]>`
    update api_key_reveals r set revealed_at = now(), secret_encrypted = null
    from (select api_key_id, secret_encrypted from api_key_reveals
          where api_key_id = ${apiKeyId} and merchant_id = ${merchantId} and revealed_at is null for update) old
    where r.api_key_id = old.api_key_id
    returning old.secret_encrypted as sealed`;
  return row?.sealed;
}
