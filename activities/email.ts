// Activities of email delivery. Sending is idempotent by email id: a sent
// email is never sent again, and the stable Message-ID lets a receiver drop
// the duplicate of a send whose acknowledgement was lost (at-least-once).
import type { Sql } from '../src/db/client.js';
import type { Mailer } from '../src/email/mailer.js';
import * as repo from '../src/email/repo.js';
import { startEmailDelivery } from '../src/email/service.js';
import type { Client } from '@temporalio/client';
import { permanentFailure, PERMANENT_FAILURES } from '../src/temporal/failures.js';

/**
 * The SMTP server refused the recipient for good: a 5xx answer to RCPT TO (no such mailbox,
 * malformed address), or nodemailer found no valid recipient at all. Other errors (connection,
 * 4xx, authentication) may heal and are retried.
 */
export function isPermanentRecipientRejection(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, command, responseCode } = error as { code?: unknown; command?: unknown; responseCode?: unknown };
  if (typeof responseCode === 'number' && responseCode >= 500 && command === 'RCPT TO') return true;
  return code === 'EENVELOPE' && (responseCode === undefined || (typeof responseCode === 'number' && responseCode >= 500));
}

export type EmailActivityDeps = { sql: Sql; temporal: Client; taskQueue: string; mailer?: Mailer };

export function createEmailActivities({ sql, temporal, taskQueue, mailer }: EmailActivityDeps) {
  return {
    /** Sends one queued email; returns false when it does not exist or was already sent. */
    async sendQueuedEmail(emailId: string): Promise<boolean> {
      const email = await repo.findEmail(sql, emailId);
      if (!email || email.sentAt) return false;
      if (!mailer) throw new Error('No mailer configured on this worker');
      await repo.markDeliveryStarted(sql, emailId);
      try {
        await mailer.send({
          messageId: `<${email.id}@stablepay.local>`,
          to: email.toAddress,
          subject: email.subject,
          text: email.textBody,
        });
      } catch (error) {
        const message = error instanceof Error ? error.message.slice(0, 500) : 'send failed';
        await repo.recordAttempt(sql, emailId, message);
        if (isPermanentRecipientRejection(error)) throw permanentFailure(PERMANENT_FAILURES.emailRecipientRejected, message);
        throw error;
      }
      await repo.recordAttempt(sql, emailId, null);
      await repo.markSent(sql, emailId);
      return true;
    },

    /** Starts delivery of emails the api queued but never started; returns how many it started. */
    async startPendingEmailDeliveries(input: { olderThanSeconds: number; limit: number }): Promise<number> {
      const ids = await repo.findUnstartedEmailIds(sql, input.olderThanSeconds, input.limit);
      let started = 0;
      for (const id of ids) {
        if (await startEmailDelivery(temporal, sql, taskQueue, id)) started++;
        await repo.markDeliveryStarted(sql, id);
      }
      return started;
    },
  };
}

export type EmailActivities = ReturnType<typeof createEmailActivities>;
