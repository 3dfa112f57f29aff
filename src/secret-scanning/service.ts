// Automatic rotation of leaked secret keys. For each reported token that is
// one of our active secret keys: revoke it, issue a replacement with the same
// name, mode and scopes, keep the replacement secret encrypted for a one-time
// reveal in the dashboard, email the owner (never the key), audit all of it.
import { createHash } from 'node:crypto';
import * as keyRepo from '../api-keys/repo.js';
import { hashKey, parseKey } from '../api-keys/secrets.js';
import { issueKey, type KeyAuthenticator } from '../api-keys/service.js';
import type { Sql } from '../db/client.js';
import { queueEmail, type EmailDispatcher } from '../email/service.js';
import { newId } from '../ids.js';
import { findMerchant } from '../merchants/repo.js';
import type { SecretBox } from '../security/encryption.js';
import type { LeakReport, LeakReportResult } from './schemas.js';

export const SCANNING_ACTOR = 'secret_scanning';

type Outcome = LeakReportResult[number];

export function createLeakedKeyService({
  sql,
  secretBox,
  emails,
  keys,
}: {
  sql: Sql;
  secretBox: SecretBox;
  emails: EmailDispatcher;
  keys: Pick<KeyAuthenticator, 'forget'>;
}) {
  async function handle(report: LeakReport[number]): Promise<{ outcome: Outcome; emailId?: string }> {
    const base = { token_hash: createHash('sha256').update(report.token, 'utf8').digest('hex'), token_type: report.type };
    const parsed = parseKey(report.token);
    if (!parsed || parsed.kind !== 'secret') return { outcome: { ...base, label: 'false_positive', action: 'none' } };
    return sql.begin(async (tx) => {
      const key = await keyRepo.findKeyByHash(tx, hashKey(report.token));
      if (!key || key.kind !== 'secret') return { outcome: { ...base, label: 'false_positive' as const, action: 'none' as const } };
      const revoked = await keyRepo.markKeyRevoked(tx, key.id, 'leaked');
      if (!revoked) return { outcome: { ...base, label: 'true_positive' as const, action: 'already_revoked' as const } };
      await keyRepo.insertAuditEntry(tx, {
        id: newId('apiKeyAudit'),
        merchantId: key.merchantId,
        apiKeyId: key.id,
        action: 'revoked',
        actor: SCANNING_ACTOR,
        reason: `leaked: found at ${report.url}`.slice(0, 2000),
      });
      await keyRepo.notifyKeyRevoked(tx, key.secretHash.toString('hex'));
      const replacement = await issueKey(tx, {
        merchantId: key.merchantId,
        livemode: key.livemode,
        kind: 'secret',
        name: key.name,
        scopes: key.scopes,
        actor: SCANNING_ACTOR,
        reason: `replaces leaked key ${key.id}`,
      });
      await keyRepo.insertReveal(tx, {
        apiKeyId: replacement.key.id,
        merchantId: key.merchantId,
        livemode: key.livemode,
        replacesApiKeyId: key.id,
        secretEncrypted: secretBox.seal(replacement.secret),
      });
      const merchant = await findMerchant(tx, key.merchantId);
      let emailId: string | undefined;
      if (merchant?.email) {
        emailId = await queueEmail(tx, {
          merchantId: key.merchantId,
          livemode: key.livemode,
          to: merchant.email,
          kind: 'api_key_leaked',
          subject: `Your ${key.livemode ? 'live' : 'test'} secret key ending in ${key.last4} was found in public and replaced`,
          text: [
            `Your secret key ${key.prefix}...${key.last4} (id ${key.id}${key.name ? `, "${key.name}"` : ''}) was found in a public source:`,
            report.url,
            '',
            'We revoked it: requests made with it are refused from now on.',
            `A replacement key (id ${replacement.key.id}) with the same scopes was issued. For your security it is not in this email:`,
            'reveal it once in the dashboard (API keys > Reveal replacement), then update your servers.',
          ].join('\n'),
        });
      }
      return { outcome: { ...base, label: 'true_positive' as const, action: 'revoked_and_replaced' as const }, emailId };
    });
  }

  return {
    async report(reports: LeakReport): Promise<LeakReportResult> {
      const results: Outcome[] = [];
      const emailIds: string[] = [];
      for (const report of reports) {
        const { outcome, emailId } = await handle(report);
        if (outcome.action === 'revoked_and_replaced') keys.forget(hashKey(report.token).toString('hex'));
        results.push(outcome);
        if (emailId) emailIds.push(emailId);
      }
      await emails.dispatch(sql, emailIds);
      return results;
    },
  };
}

export type LeakedKeyService = ReturnType<typeof createLeakedKeyService>;
