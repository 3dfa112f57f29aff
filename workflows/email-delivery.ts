// deliverEmailWorkflow: one per queued email (workflow id = email id). The
// send activity retries until the SMTP server accepts the message.
import { proxyActivities } from '@temporalio/workflow';
import { PERMANENT_FAILURES, permanentFailureType } from '../src/temporal/failures.js';
import type { Activities } from '../activities/index.js';
import { EMAIL_ACTIVITY } from './options.js';

const { sendQueuedEmail } = proxyActivities<Activities>(EMAIL_ACTIVITY);

export type DeliverEmailInput = { emailId: string };

/** One run per queued email: the id is the email's. */
export const emailDeliveryWorkflowId = (emailId: string): string => emailId;

/** Returns true when this run sent the email; false when it was sent before, or the recipient is refused for good. */
export async function deliverEmailWorkflow({ emailId }: DeliverEmailInput): Promise<boolean> {
  try {
    return await sendQueuedEmail(emailId);
  } catch (error) {
    // Recorded on the email (last_error); retrying cannot make the address deliverable.
    if (permanentFailureType(error) === PERMANENT_FAILURES.emailRecipientRejected) return false;
    throw error;
  }
}
