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
// On a test clock (issue #30) the wait to expiresAt is on the clock's time (workflows/clock.ts), and
// a deleted clock expires the session at once.
// BusinessStatus (workflows/business-status.ts) follows the session's status from `open` (set at start):
// completed, expired, cancelled. `processing` is the relay's (it never passes through this run). ChainId is set
// at start for a session that accepts one chain; one that accepts several starts with 0 and gets the paying
// chain's id with `completed` (the same upsert, so no new command).
import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { PERMANENT_FAILURES, permanentFailureType } from '../src/temporal/failures.js';
import { publishBusinessStatus } from './business-status.js';
import { workflowClock } from './clock.js';
import { DATABASE_ACTIVITY } from './options.js';

const { completePaymentSession, expirePaymentSession, reopenPaymentSession, creditSessionDeposits } =
  proxyActivities<Activities>(DATABASE_ACTIVITY);

export type PaymentSessionInput = {
  sessionId: string;
  expiresAt: string;
  /** The test clock whose time expiresAt is on (test mode, issue #30). Absent: wall time. */
  testClockId?: string;
};
/** `not_found`: the session row does not exist (expirePaymentSession failed with PaymentSessionNotFound). */
export type PaymentSessionOutcome = 'completed' | 'expired' | 'cancelled' | 'not_found';

/** One run per session: the id is the session's. */
export const paymentSessionWorkflowId = (sessionId: string): string => sessionId;

export const paymentConfirmedSignal = defineSignal<[{ transactionHash: string; submissionId?: string }]>('paymentConfirmed');
export const paymentFailedSignal = defineSignal<[{ submissionId?: string }?]>('paymentFailed');
export const cancelPaymentSessionSignal = defineSignal('cancelPaymentSession');
/** A transfer into the session's deposit address was recorded (or one was removed by a reorg). */
export const depositReceivedSignal = defineSignal<[{ depositId: string }]>('depositReceived');

export async function paymentSessionWorkflow(input: PaymentSessionInput): Promise<PaymentSessionOutcome> {
  // Off a clock, join and detach do nothing and the wait is the timer of before: old runs replay.
  const clock = workflowClock(input.testClockId);
  await clock.join();
  try {
    return await sessionRun(input, clock);
  } finally {
    await clock.detach();
  }
}

async function sessionRun(
  { sessionId, expiresAt }: PaymentSessionInput,
  clock: ReturnType<typeof workflowClock>,
): Promise<PaymentSessionOutcome> {
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
  // Every wait goes through the clock (an attached run acknowledges each advance there); once the
  // clock is deleted nothing is left to wait for on its time.
  const wait = async (ms?: number) => {
    if (!clock.deleted()) return clock.waitFor(woken, ms);
    // A clock found deleted before the wait to expiresAt (a session created while its clock was being
    // deleted joins a clock workflow that has ended) ends that wait at once, as a delete during it does.
    if (ms !== undefined) return woken();
    await condition(woken);
    return true;
  };
  for (;;) {
    // A deleted clock ends the wait as if expiresAt passed.
    const signalled = expiryPassed ? await wait() : await wait(Math.max(0, expiresMs - clock.now()));
    if (depositsChanged) {
      depositsChanged = false;
      const credit = await creditSessionDeposits(sessionId);
      if (credit.paid && confirmedHash === undefined) confirmedHash = credit.transactionHash;
      if (confirmedHash === undefined && !cancelled && failures === 0) continue;
    }
    if (confirmedHash !== undefined) {
      const done = await completePaymentSession({ sessionId, transactionHash: confirmedHash });
      // The chain that paid it: the ChainId of a session that accepted several is known only now.
      publishBusinessStatus('completed', { chainId: done.chainId });
      return 'completed';
    }
    if (cancelled) {
      publishBusinessStatus('cancelled');
      return 'cancelled';
    }
    if (failures > 0) {
      failures = 0;
      await reopenPaymentSession(sessionId);
      if (!expiryPassed) continue;
    }
    if (!signalled || expiryPassed) {
      expiryPassed = true;
      // Not open (a payment is processing): keep waiting for its outcome.
      try {
        if (await expirePaymentSession(sessionId)) {
          publishBusinessStatus('expired');
          return 'expired';
        }
      } catch (error) {
        if (permanentFailureType(error) === PERMANENT_FAILURES.paymentSessionNotFound) return 'not_found';
        throw error;
      }
    }
  }
}
