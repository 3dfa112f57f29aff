// Request and response shapes of key management (dashboard only).
import { z } from 'zod';
import { idParam, pathId, timestamp } from '../http/schemas.js';
import { listOf, listQueryOf } from '../http/pagination.js';
import { SCOPES, SCOPE_PRESETS } from './scopes.js';

const presetNames = Object.keys(SCOPE_PRESETS) as [keyof typeof SCOPE_PRESETS, ...(keyof typeof SCOPE_PRESETS)[]];

export const apiKey = z
  .object({
    id: z.string().describe('Key id (prefix `key_`); never the secret.'),
    object: z.literal('api_key'),
    name: z.string(),
    kind: z.enum(['secret', 'publishable']),
    mode: z.enum(['test', 'live']),
    livemode: z.boolean(),
    prefix: z.string().describe('`sk_test_`, `sk_live_`, `pk_test_` or `pk_live_`.'),
    last4: z.string().describe('The last four characters of the key, to recognise it.'),
    scopes: z.array(z.enum(SCOPES)),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable().describe('Updated at most every 30 seconds.'),
    revoked: z.boolean(),
    revokedAt: timestamp.nullable(),
    revokedReason: z.string().nullable().describe('`revoked_by_merchant`, `leaked` or the reason given on revoke.'),
    pendingReveal: z
      .boolean()
      .describe('True for a key issued to replace a leaked one whose secret was not revealed yet (POST /v1/api-keys/{id}/reveal).'),
  })
  .meta({ id: 'ApiKey' });

export const issuedApiKey = z
  .object({
    key: apiKey,
    secret: z.string().describe('The full key. Shown only in this response; store it now.'),
  })
  .meta({ id: 'IssuedApiKey' });

export const issueKeyBody = z
  .object({
    mode: z.enum(['test', 'live']).describe('`live` needs live-mode eligibility (GET /v1/merchants/me/live-mode-eligibility).'),
    kind: z.enum(['secret', 'publishable']).default('secret'),
    name: z.string().trim().max(100).default('').describe('A label for the dashboard.'),
    scopes: z.array(z.enum(SCOPES)).min(1).optional().describe('Explicit scopes; exactly one of `scopes` or `preset`.'),
    preset: z.enum(presetNames).optional().describe('`read-only`, `checkout-only` or `full`. Publishable keys default to `checkout-only`.'),
  })
  .strict();

export const revokeKeyBody = z
  .object({ reason: z.string().trim().min(1).max(200).optional().describe('Recorded in the audit log; default `revoked_by_merchant`.') })
  .strict();

export const apiKeyParams = z.object({ id: pathId('apiKey') });

export const apiKeyListQuery = listQueryOf('apiKey').extend({
  mode: z.enum(['test', 'live']).optional().describe('Only keys of this mode.'),
});
export const apiKeyList = listOf(apiKey);

export const auditEntry = z
  .object({
    id: z.string(),
    object: z.literal('api_key_audit_entry'),
    apiKeyId: z.string(),
    action: z.enum(['issued', 'revoked', 'revealed']),
    actor: z.string().describe('`dashboard:<user id>` or `secret_scanning` (automatic leak rotation).'),
    reason: z.string().nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'ApiKeyAuditEntry' });
export const auditLogQuery = listQueryOf('apiKeyAudit').extend({
  apiKeyId: idParam('apiKey').optional().describe('Only entries of this key.'),
});
export const auditLog = listOf(auditEntry);

export type ApiKey = z.infer<typeof apiKey>;
export type IssueKeyBody = z.infer<typeof issueKeyBody>;
export type AuditEntry = z.infer<typeof auditEntry>;
export type ApiKeyListQuery = z.infer<typeof apiKeyListQuery>;
export type AuditLogQuery = z.infer<typeof auditLogQuery>;
