// Failures that cannot heal. An activity throws these as non-retryable
// ApplicationFailures with a type name from PERMANENT_FAILURES, so Temporal does
// not retry them forever; the workflow that called the activity catches them
// (isPermanentFailure) and ends or moves on. Everything else an activity throws
// (database, RPC, SMTP outages) is retried with the activity's policy.
// Workflow-safe: imported by workflow code.
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';

export const PERMANENT_FAILURES = {
  /** The row the activity works on does not exist (deleted, or an id that never existed). */
  subscriptionNotFound: 'SubscriptionNotFound',
  paymentSessionNotFound: 'PaymentSessionNotFound',
  relaySubmissionNotFound: 'RelaySubmissionNotFound',
  eventNotFound: 'EventNotFound',
  agentJobNotFound: 'AgentJobNotFound',
  refundNotFound: 'RefundNotFound',
  /** The contract refused the call with a reason that a retry cannot change (e.g. NotAuthorisedToCancel). */
  contractRevertedFinal: 'ContractRevertedFinal',
  /** The SMTP server refused the recipient for good (5xx on RCPT TO: no such mailbox, malformed address). */
  emailRecipientRejected: 'EmailRecipientRejected',
  /** A stored address or on-chain id that is not well formed. */
  invalidAddress: 'InvalidAddress',
} as const;

export type PermanentFailureType = (typeof PERMANENT_FAILURES)[keyof typeof PERMANENT_FAILURES];

const TYPES: ReadonlySet<string> = new Set(Object.values(PERMANENT_FAILURES));

/** The non-retryable failure an activity throws. */
export function permanentFailure(type: PermanentFailureType, message: string, details?: unknown): ApplicationFailure {
  return ApplicationFailure.create({ type, message, nonRetryable: true, ...(details !== undefined ? { details: [details] } : {}) });
}

/** The permanent failure's type behind an error an activity call threw in a workflow (or in the activity itself), else undefined. */
export function permanentFailureType(error: unknown): PermanentFailureType | undefined {
  const failure = error instanceof ActivityFailure ? error.cause : error;
  if (failure instanceof ApplicationFailure && failure.type && TYPES.has(failure.type)) return failure.type as PermanentFailureType;
  return undefined;
}
