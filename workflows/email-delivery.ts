// deliverEmailWorkflow: one per queued email (workflow id = email id). The
// send activity retries until the SMTP server accepts the message.
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { EMAIL_ACTIVITY } from './options.js';

const { sendQueuedEmail } = proxyActivities<Activities>(EMAIL_ACTIVITY);

export type DeliverEmailInput = { emailId: string };

/** Returns true when this run sent the email. */
export async function deliverEmailWorkflow({ emailId }: DeliverEmailInput): Promise<boolean> {
  return sendQueuedEmail(emailId);
}
