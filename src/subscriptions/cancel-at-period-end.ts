// Cancel at period end (issue 40, item 3): the request is a flag on the read model, not a message to the
// workflow. When the next period comes due, its charge attempt finds the flag and cancels instead of
// charging (activities/subscriptions.ts, recordChargeAttempt), so no signal can be lost and an undo
// before then simply clears the flag. docs/decisions.md, "Cancel at period end and trial rules".
import type { Db } from '../db/client.js';
import { InvalidStateError } from '../errors.js';
import type { RecordEvent } from '../events/commit.js';
import type { MerchantScope } from '../http/principal.js';
import { renderSubscription } from './api-shape.js';
import * as repo from './repo.js';
import type { Subscription } from './schemas.js';

export type ScheduleCancelInput = {
  requestedBy: repo.CancellationRequester;
  reason?: string | undefined;
  feedback?: repo.CancellationFeedback | undefined;
};

/** The fields a scheduled cancel or its undo changes, as they were: `previousAttributes` of `subscription.updated`. */
const cancelAttributes = (s: Subscription) => ({
  cancelAtPeriodEnd: s.cancelAtPeriodEnd,
  cancelAt: s.cancelAt,
  cancellationDetails: s.cancellationDetails,
});

/** Why a subscription cannot be cancelled at its period end, or null when it can. */
function scheduleRefusal(row: repo.SubscriptionRow): string | null {
  if (row.cancelAtPeriodEnd) return `The subscription is already set to cancel at ${row.cancelAt?.toISOString()}; undo it first.`;
  if (row.status === 'at_risk') return "An at_risk subscription's current period is unpaid: cancel it now instead.";
  if (row.status === 'paused') return 'A paused subscription is charged nothing: cancel it now, or resume it first.';
  if (row.status !== 'trialing' && row.status !== 'active') return `The subscription is ${row.status} and cannot be cancelled.`;
  if (row.nextChargeAt === null) return 'The subscription ends with its current period (its authorised periods are used up).';
  return null;
}

/**
 * Sets `cancelAtPeriodEnd` on a trialing or active subscription: it is cancelled when its next period
 * comes due (`cancelAt`, the trial end for a trial), and charged nothing more. Records `subscription.updated`.
 */
export async function scheduleCancel(
  tx: Db,
  record: RecordEvent,
  scope: MerchantScope,
  row: repo.SubscriptionRow,
  input: ScheduleCancelInput,
): Promise<Subscription> {
  const refusal = scheduleRefusal(row);
  if (refusal) throw new InvalidStateError(refusal);
  const before = renderSubscription(row);
  await repo.updateSubscription(tx, row.id, {
    cancelAtPeriodEnd: true,
    cancelAt: row.nextChargeAt,
    cancellationRequestedBy: input.requestedBy,
    cancellationReason: input.reason ?? null,
    cancellationFeedback: input.feedback ?? null,
  });
  return recordUpdated(tx, record, scope, row.id, before);
}

/** Undoes a scheduled cancel before it happens: the subscription renews as before. Records `subscription.updated`. */
export async function undoScheduledCancel(
  tx: Db,
  record: RecordEvent,
  scope: MerchantScope,
  row: repo.SubscriptionRow,
): Promise<Subscription> {
  if (repo.TERMINAL_STATUSES.includes(row.status)) throw new InvalidStateError(`The subscription is already ${row.status}.`);
  if (!row.cancelAtPeriodEnd) throw new InvalidStateError('No cancel is scheduled for this subscription.');
  const before = renderSubscription(row);
  await repo.updateSubscription(tx, row.id, {
    cancelAtPeriodEnd: false,
    cancelAt: null,
    cancellationRequestedBy: null,
    cancellationReason: null,
    cancellationFeedback: null,
  });
  return recordUpdated(tx, record, scope, row.id, before);
}

async function recordUpdated(tx: Db, record: RecordEvent, scope: MerchantScope, id: string, before: Subscription): Promise<Subscription> {
  const updated = renderSubscription((await repo.findSubscription(tx, scope, id))!);
  await record({ ...scope, type: 'subscription.updated', data: { object: updated, previousAttributes: cancelAttributes(before) } });
  return updated;
}
