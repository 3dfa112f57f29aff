// Issuing, revoking and authenticating API keys.
import type { Db, Sql } from '../db/client.js';
import { AuthenticationError, InvalidRequestError, NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import * as repo from './repo.js';
import { isScope, type Scope } from './scopes.js';
import { generateKey, hashKey, keyPrefix, parseKey, sameHash, type KeyKind } from './secrets.js';

export type KeyPrincipal = {
  type: 'api_key';
  keyId: string;
  merchantId: string;
  livemode: boolean;
  kind: KeyKind;
  scopes: ReadonlySet<Scope>;
  /** The merchant's pinned API version, used when a request sends none. */
  pinnedApiVersion: string;
};

export type IssuedKey = { key: repo.ApiKeyRow; secret: string };

export async function issueKey(
  db: Db,
  input: { merchantId: string; livemode: boolean; kind: KeyKind; name?: string; scopes: readonly string[]; actor: string },
): Promise<IssuedKey> {
  const unknown = input.scopes.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    throw new InvalidRequestError(`Unknown scopes: ${unknown.join(', ')}.`, { param: 'scopes' });
  }
  const secret = generateKey(input.kind, input.livemode);
  const key = await repo.insertKey(db, {
    id: newId('apiKey'),
    merchantId: input.merchantId,
    livemode: input.livemode,
    kind: input.kind,
    name: input.name ?? '',
    secretHash: hashKey(secret),
    prefix: keyPrefix(input.kind, input.livemode),
    last4: secret.slice(-4),
    scopes: [...new Set(input.scopes)].sort(),
  });
  await repo.insertAuditEntry(db, {
    id: newId('apiKeyAudit'),
    merchantId: input.merchantId,
    apiKeyId: key.id,
    action: 'issued',
    actor: input.actor,
  });
  return { key, secret };
}

/** Revokes a key for good; the row stays, marked revoked, and the audit log records it. */
export async function revokeKey(
  sql: Sql,
  input: { merchantId: string; keyId: string; actor: string; reason: string },
): Promise<repo.ApiKeyRow> {
  return sql.begin(async (tx) => {
    const existing = await repo.findKeyById(tx, input.merchantId, input.keyId);
    if (!existing) throw new NotFoundError('No such API key.', { param: 'id' });
    if (existing.revokedAt) return existing;
    const revoked = (await repo.markKeyRevoked(tx, existing.id, input.reason))!;
    await repo.insertAuditEntry(tx, {
      id: newId('apiKeyAudit'),
      merchantId: input.merchantId,
      apiKeyId: existing.id,
      action: 'revoked',
      actor: input.actor,
      reason: input.reason,
    });
    // Every api instance drops the key from its cache when this commits.
    await repo.notifyKeyRevoked(tx, existing.secretHash.toString('hex'));
    return revoked;
  });
}

type CacheEntry = { row: repo.AuthKeyRow; expiresAt: number };

export type KeyAuthenticator = {
  authenticate(token: string): Promise<KeyPrincipal>;
  /** Subscribes to revocations from every instance; call once per process. */
  listenForRevocations(): Promise<void>;
  forget(secretHashHex: string): void;
  close(): Promise<void>;
};

const CACHE_TTL_MS = 30_000;
const LAST_USED_FLUSH_MS = 30_000;

/**
 * Authenticates API keys with a short-lived cache in front of Postgres. A
 * revocation evicts the key on every instance through LISTEN/NOTIFY; the TTL
 * bounds staleness should a notification ever be missed, and the cache is
 * cleared whenever the listening connection (re)connects.
 */
export function createKeyAuthenticator(sql: Sql): KeyAuthenticator {
  const cache = new Map<string, CacheEntry>();
  const usedKeyIds = new Set<string>();
  let unlisten: (() => Promise<void>) | undefined;

  const flushTimer = setInterval(() => {
    const ids = [...usedKeyIds];
    usedKeyIds.clear();
    repo.touchKeysLastUsed(sql, ids).catch(() => {
      for (const id of ids) usedKeyIds.add(id);
    });
  }, LAST_USED_FLUSH_MS);
  flushTimer.unref();

  async function lookup(hash: Buffer): Promise<repo.AuthKeyRow | undefined> {
    const hex = hash.toString('hex');
    const cached = cache.get(hex);
    if (cached && cached.expiresAt > Date.now()) return cached.row;
    const row = await repo.findKeyByHash(sql, hash);
    if (row) cache.set(hex, { row, expiresAt: Date.now() + CACHE_TTL_MS });
    else cache.delete(hex);
    return row;
  }

  return {
    async authenticate(token) {
      const parsed = parseKey(token);
      if (!parsed) throw new AuthenticationError('Invalid API key.');
      const hash = hashKey(token);
      const row = await lookup(hash);
      if (!row || !sameHash(row.secretHash, hash)) throw new AuthenticationError('Invalid API key.');
      if (row.revokedAt) throw new AuthenticationError('This API key has been revoked.');
      usedKeyIds.add(row.id);
      return {
        type: 'api_key',
        keyId: row.id,
        merchantId: row.merchantId,
        livemode: row.livemode,
        kind: row.kind,
        scopes: new Set(row.scopes.filter(isScope)),
        pinnedApiVersion: row.merchantApiVersion,
      };
    },
    async listenForRevocations() {
      const subscription = await sql.listen(
        'api_key_revoked',
        (hex) => cache.delete(hex),
        () => cache.clear(),
      );
      unlisten = subscription.unlisten;
    },
    forget(hex) {
      cache.delete(hex);
    },
    async close() {
      clearInterval(flushTimer);
      await unlisten?.();
    },
  };
}
