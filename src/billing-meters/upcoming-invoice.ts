// The upcoming invoice of a subscription (issue 41, item 5; Stripe's "upcoming invoice"): the lines its next charge
// would have if usage stopped now. It is the period close's own line building (closeLines in period-close.ts) run
// without claiming prorations and without writing, so the preview and the frozen close cannot drift; once the next
// period is closed (its charge being retried) the frozen close is what is shown.
import type { z } from 'zod';
import type { Db } from '../db/client.js';
import { InvalidStateError } from '../errors.js';
import { pendingProrations } from '../subscription-plan-changes/repo.js';
import { findPlanById } from '../subscription-plans/repo.js';
import { periodStart, type Schedule } from '../subscriptions/periods.js';
import { TERMINAL_STATUSES, type SubscriptionRow } from '../subscriptions/repo.js';
import { closeLines, findUsageClose } from './period-close.js';
import type { upcomingInvoice as upcomingInvoiceSchema } from './close-schemas.js';

/** The API shape (close-schemas.ts `upcomingInvoice`). */
export type UpcomingInvoice = z.infer<typeof upcomingInvoiceSchema>;

/**
 * The period the next charge is for: the one after the last charged, or, after a pause skipped periods, the latest
 * whose calendar start is at or before the next charge (a charge is due at the later of its calendar and contract starts).
 */
export function nextPeriodIndex(schedule: Schedule, currentPeriodIndex: number | null, nextChargeAt: Date): number {
  let index = (currentPeriodIndex ?? -1) + 1;
  while (periodStart(schedule, index + 1).getTime() <= nextChargeAt.getTime()) index++;
  return index;
}

export async function upcomingInvoice(db: Db, sub: SubscriptionRow): Promise<UpcomingInvoice> {
  // Nothing comes next for an ended subscription, a paused one (no charge date), or one cancelling at the period end.
  if (TERMINAL_STATUSES.includes(sub.status) || !sub.nextChargeAt || sub.cancelAtPeriodEnd) {
    const why =
      sub.cancelAtPeriodEnd && !TERMINAL_STATUSES.includes(sub.status) ? 'is set to cancel at the period end' : `is ${sub.status}`;
    throw new InvalidStateError(`The subscription ${why}: it has no upcoming charge.`, { param: 'id' });
  }
  const plan = await findPlanById(db, sub.planId);
  if (!plan) throw new Error(`plan ${sub.planId} of ${sub.id} is missing`);
  const schedule = { anchor: sub.firstPeriodStart, interval: plan.interval, intervalCount: plan.intervalCount };
  const periodIndex = nextPeriodIndex(schedule, sub.currentPeriodIndex, sub.nextChargeAt);
  const frozen = sub.metered ? await findUsageClose(db, sub.id, periodIndex) : undefined;
  const shape = frozen
    ? {
        lines: frozen.lines,
        total: frozen.total,
        charged: frozen.charged,
        remainder: frozen.remainder,
        usage: frozen.usageStart ? { start: frozen.usageStart, end: frozen.usageEnd! } : null,
      }
    : await closeLines(db, sub, periodIndex, pendingProrations);
  return {
    object: 'upcoming_invoice',
    subscriptionId: sub.id,
    periodIndex,
    nextChargeAt: sub.nextChargeAt.toISOString(),
    usageStart: shape.usage?.start.toISOString() ?? null,
    usageEnd: shape.usage?.end.toISOString() ?? null,
    lines: shape.lines,
    total: shape.total.toString(),
    cap: sub.amount,
    amountToCharge: shape.charged.toString(),
    remainder: shape.remainder.toString(),
    closed: Boolean(frozen),
    livemode: sub.livemode,
  };
}
