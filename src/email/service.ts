// Queueing email reliably. An email is written to the outbox in the same
// transaction as the change that causes it; after commit the api starts a
// delivery workflow whose id is the email id (a duplicate start is a no-op);
// the outbox sweep starts any the api missed. The send activity retries with
// backoff until the SMTP server accepts the message.
import type { Client } from '@temporalio/client';
import { deliverEmailWorkflow, emailDeliveryWorkflowId } from '../../workflows/email-delivery.js';
import { startWorkflowOnce } from '../temporal/start-once.js';
import type { Db } from '../db/client.js';
import { afterCommit } from '../db/request-transaction.js';
import { newId } from '../ids.js';
import * as repo from './repo.js';

export type EmailKind = 'email_verification' | 'api_key_leaked' | (string & {});

export async function queueEmail(
  tx: Db,
  input: { merchantId: string; livemode?: boolean; to: string; subject: string; text: string; kind: EmailKind },
): Promise<string> {
  const row = await repo.insertEmail(tx, {
    id: newId('email'),
    merchantId: input.merchantId,
    livemode: input.livemode ?? false,
    toAddress: input.to,
    subject: input.subject,
    textBody: input.text,
    kind: input.kind,
  });
  return row.id;
}

/** Starts the email's delivery run, tagged with its merchant and mode (read from the outbox row). */
export async function startEmailDelivery(client: Client, db: Db, taskQueue: string, emailId: string): Promise<boolean> {
  const scope = await repo.findEmailScope(db, emailId);
  return startWorkflowOnce(client, deliverEmailWorkflow, {
    workflowId: emailDeliveryWorkflowId(emailId),
    taskQueue,
    args: [{ emailId }],
    ...(scope ? { tags: scope } : {}),
  });
}

export type EmailDispatcher = {
  /** Starts the emails' delivery once `written` (where they were queued) has committed. */
  dispatch(written: Db, emailIds: readonly string[]): Promise<void>;
};

/** Best effort after commit: an email whose start fails here is picked up by the outbox sweep. */
export function createEmailDispatcher(
  client: Client | undefined,
  db: Db,
  taskQueue: string,
  onError: (error: unknown, emailId: string) => void,
): EmailDispatcher {
  return {
    async dispatch(written, emailIds) {
      if (!client) return;
      // On a request's transaction the emails commit with its response: start their delivery after that.
      await afterCommit(written, () => startAll(client, emailIds));
    },
  };

  async function startAll(client: Client, emailIds: readonly string[]): Promise<void> {
    await Promise.all(emailIds.map((id) => startEmailDelivery(client, db, taskQueue, id).catch((error: unknown) => onError(error, id))));
  }
}
