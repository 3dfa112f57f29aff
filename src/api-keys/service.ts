// Issuing, revoking and authenticating API keys.
import type { Db, Sql } from '../db/client.js';
import { AuthenticationError, InvalidRequestError, InvalidStateError, NotFoundError, PermissionDeniedError } from '../errors.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import { newId } from '../ids.js';
import { isLiveModeEligible, liveModeEligibility } from '../merchants/eligibility.js';
import { findMerchant } from '../merchants/repo.js';
import type { SecretBox } from '../security/encryption.js';
import * as repo from './repo.js';
import type { ApiKey, ApiKeyListQuery, AuditEntry, AuditLogQuery, IssueKeyBody } from './schemas.js';
import { isScope, SCOPE_PRESETS, type Scope } from './scopes.js';
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
  /** The merchant's Enterprise per-key limit; null = the Starter default. */
  rateLimitPerMinute: number | null;
  /** The origins whose pages may use the merchant's publishable keys (`*` = any); see src/plugins/browser-keys.ts. */
  allowedOrigins: readonly string[];
};

export type IssuedKey = { key: repo.ApiKeyRow; secret: string };

export async function issueKey(
  db: Db,
  input: {
    merchantId: string;
    livemode: boolean;
    kind: KeyKind;
    name?: string;
    scopes: readonly string[];
    actor: string;
    reason?: string;
  },
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
    reason: input.reason ?? null,
  });
  return { key, secret };
}

/** Revokes a key for good; the row stays, marked revoked, and the audit log records it. */
export async function revokeKey(
  sql: Sql,
  input: { merchantId: string; keyId: string; actor: string; reason: string },
): Promise<repo.ApiKeyRow> {
  return sql.begin((tx) => revokeKeyInTransaction(tx, input));
}

/** revokeKey inside the caller's transaction. */
export async function revokeKeyInTransaction(
  tx: Db,
  input: { merchantId: string; keyId: string; actor: string; reason: string },
): Promise<repo.ApiKeyRow> {
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
        rateLimitPerMinute: row.merchantRateLimitPerMinute,
        allowedOrigins: row.merchantAllowedOrigins,
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

export function renderKey(row: repo.ApiKeyRow, pendingReveal: boolean): ApiKey {
  return {
    id: row.id,
    object: 'api_key',
    name: row.name,
    kind: row.kind,
    mode: row.livemode ? 'live' : 'test',
    livemode: row.livemode,
    prefix: row.prefix,
    last4: row.last4,
    scopes: row.scopes.filter(isScope),
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
    revoked: row.revokedAt !== null,
    revokedAt: row.revokedAt ? row.revokedAt.toISOString() : null,
    revokedReason: row.revokedReason,
    pendingReveal,
  };
}

function renderAuditEntry(row: repo.AuditEntryRow): AuditEntry {
  return {
    id: row.id,
    object: 'api_key_audit_entry',
    apiKeyId: row.apiKeyId,
    action: row.action,
    actor: row.actor,
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The scopes a new key gets: explicit scopes or a preset (publishable keys default to checkout-only). */
export function scopesForNewKey(input: Pick<IssueKeyBody, 'kind' | 'scopes' | 'preset'>): Scope[] {
  if (input.scopes && input.preset) {
    throw new InvalidRequestError('Send either `scopes` or `preset`, not both.', { param: 'preset' });
  }
  if (input.scopes) return [...input.scopes];
  if (input.preset) return [...SCOPE_PRESETS[input.preset]];
  if (input.kind === 'publishable') return [...SCOPE_PRESETS['checkout-only']];
  throw new InvalidRequestError('Send `scopes` or a `preset` (`read-only`, `checkout-only`, `full`).', { param: 'scopes' });
}

/** Key management for the dashboard: issue, list, revoke, reveal a replacement, read the audit log. */
export function createApiKeyService({
  sql,
  secretBox,
  keys,
}: {
  sql: Sql;
  secretBox: SecretBox;
  /** This instance's authenticator: a revoked key leaves its cache before the response (others learn via NOTIFY). */
  keys: Pick<KeyAuthenticator, 'forget'>;
}) {
  return {
    async issue(merchantId: string, actor: string, input: IssueKeyBody): Promise<{ key: ApiKey; secret: string }> {
      const scopes = scopesForNewKey(input);
      const livemode = input.mode === 'live';
      if (livemode) {
        const merchant = await findMerchant(sql, merchantId);
        if (!merchant) throw new NotFoundError('No such merchant.');
        if (!isLiveModeEligible(merchant)) {
          throw new PermissionDeniedError('Live keys need live-mode eligibility; complete the checks listed in details.reasons.', {
            param: 'mode',
            details: { reasons: liveModeEligibility(merchant).reasons },
          });
        }
      }
      const issued = await sql.begin((tx) => issueKey(tx, { merchantId, livemode, kind: input.kind, name: input.name, scopes, actor }));
      return { key: renderKey(issued.key, false), secret: issued.secret };
    },

    async list(merchantId: string, query: ApiKeyListQuery): Promise<Page<ApiKey>> {
      const rows = await repo.listKeys(sql, merchantId, {
        livemode: query.mode === undefined ? undefined : query.mode === 'live',
        before: decodeCursor(query.cursor),
        limit: query.limit,
      });
      return toPage(rows, query.limit, (row) => renderKey(row, row.pendingReveal));
    },

    async revoke(merchantId: string, actor: string, keyId: string, reason: string | undefined): Promise<ApiKey> {
      const row = await revokeKey(sql, { merchantId, keyId, actor, reason: reason ?? 'revoked_by_merchant' });
      keys.forget(row.secretHash.toString('hex'));
      return renderKey(row, await repo.hasPendingReveal(sql, row.id));
    },

    /** Shows the secret of a key issued to replace a leaked one, exactly once. */
    async reveal(merchantId: string, actor: string, keyId: string): Promise<{ key: ApiKey; secret: string }> {
      return sql.begin(async (tx) => {
        const key = await repo.findKeyById(tx, merchantId, keyId);
        if (!key) throw new NotFoundError('No such API key.', { param: 'id' });
        const sealed = await repo.takeReveal(tx, merchantId, keyId);
        if (!sealed) {
          throw new InvalidStateError(
            'This key has no secret waiting to be revealed (it was revealed already, or issued in the dashboard).',
          );
        }
        await repo.insertAuditEntry(tx, { id: newId('apiKeyAudit'), merchantId, apiKeyId: keyId, action: 'revealed', actor });
        return { key: renderKey(key, false), secret: secretBox.open(sealed) };
      });
    },

    async auditLog(merchantId: string, query: AuditLogQuery): Promise<Page<AuditEntry>> {
      const rows = await repo.listAuditEntries(sql, merchantId, {
        apiKeyId: query.apiKeyId,
        before: decodeCursor(query.cursor),
        limit: query.limit,
      });
      return toPage(rows, query.limit, renderAuditEntry);
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
