// paymentSessionWorkflow: one per payment session (workflow id = session id).
// Waits for the session's payment until expiresAt. The relay submission that
// pays it reports its final outcome (relaySubmissionWorkflow ->
// reportRelayOutcomeToSession -> signal): confirmed completes the session
// (payment.completed, then the invoice it backs is signalled paid); failed puts
// it back to open. At expiresAt an open session expires; a processing one keeps
// waiting for its payment's outcome. Cancellation (invoice void) ends it.
// Paying by transfer: the indexer signals depositReceived for a transfer into the
// session's deposit address; the session credits its deposits and completes once
// they reach its amount (src/payment-sessions/deposit-accounting.ts). The
// deposit steps run only on that signal, so the command order of sessions paid
// through the relay (and their recorded histories) is unchanged.
import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { PERMANENT_FAILURES, permanentFailureType } from '../src/temporal/failures.js';
import { DATABASE_ACTIVITY } from './options.js';

const { completePaymentSession, expirePaymentSession, reopenPaymentSession, creditSessionDeposits } = proxyActivities<Activities>(DATABASE_ACTIVITY);

export type PaymentSessionInput = { sessionId: string; expiresAt: string };
/** `not_found`: the session row does not exist (expirePaymentSession failed with PaymentSessionNotFound). */
export type PaymentSessionOutcome = 'completed' | 'expired' | 'cancelled' | 'not_found';

/** One run per session: the id is the session's. */
export const paymentSessionWorkflowId = (sessionId: string): string => sessionId;

export const paymentConfirmedSignal = defineSignal<[{ transactionHash: string; submissionId?: string }]>('paymentConfirmed');
export const paymentFailedSignal = defineSignal<[{ submissionId?: string }?]>('paymentFailed');
export const cancelPaymentSessionSignal = defineSignal('cancelPaymentSession');
/** A transfer into the session's deposit address was recorded (or one was removed by a reorg). */
export const depositReceivedSignal = defineSignal<[{ depositId: string }]>('depositReceived');

export async function paymentSessionWorkflow({ sessionId, expiresAt }: PaymentSessionInput): Promise<PaymentSessionOutcome> {
  let confirmedHash: string | undefined;
  let failures = 0;
  let cancelled = false;
  setHandler(paymentConfirmedSignal, ({ transactionHash }) => void (confirmedHash = transactionHash));
  setHandler(paymentFailedSignal, () => void failures++);
  setHandler(cancelPaymentSessionSignal, () => void (cancelled = true));
  let depositsChanged = false;
  setHandler(depositReceivedSignal, () => void (depositsChanged = true));

  const expiresMs = Date.parse(expiresAt);
  let expiryPassed = false;
  const woken = () => confirmedHash !== undefined || cancelled || failures > 0 || depositsChanged;
  for (;;) {
    const signalled = expiryPassed ? (await condition(woken), true) : await condition(woken, Math.max(0, expiresMs - Date.now()));
    if (depositsChanged) {
      depositsChanged = false;
      const credit = await creditSessionDeposits(sessionId);
      if (credit.paid && confirmedHash === undefined) confirmedHash = credit.transactionHash;
      if (confirmedHash === undefined && !cancelled && failures === 0) continue;
    }
    if (confirmedHash !== undefined) {
      await completePaymentSession({ sessionId, transactionHash: confirmedHash });
      return 'completed';
    }
    if (cancelled) return 'cancelled';
    if (failures > 0) {
      failures = 0;
      await reopenPaymentSession(sessionId);
      if (!expiryPassed) continue;
    }
    if (!signalled || expiryPassed) {
      expiryPassed = true;
      // Not open (a payment is processing): keep waiting for its outcome.
      try {
        if (await expirePaymentSession(sessionId)) return 'expired';
      } catch (error) {
        if (permanentFailureType(error) === PERMANENT_FAILURES.paymentSessionNotFound) return 'not_found';
        throw error;
      }
    }
  }
}
