// What a trial's refused first charge does (issue 40, item 3): the plan's trialEndBehavior. `dunning` (the
// default) is the at_risk path every refused charge takes; `cancel` and `pause` end the trial at once, and
// only for the refusals a customer's wallet causes (funds, allowance): a blacklisted address or a paused
// token follows its own rule. docs/decisions.md, "Cancel at period end and trial rules".
import type { Db } from '../db/client.js';
import { findPlanById } from '../subscription-plans/repo.js';
import type { SubscriptionRow, SubscriptionUpdate } from './repo.js';

/** Refusals of the subscriber's wallet, which the trial end behaviour applies to. */
const WALLET_REFUSALS = new Set(['insufficient_funds', 'insufficient_allowance']);

export type TrialEnd = { status: 'cancelled' | 'paused'; update: SubscriptionUpdate };

/**
 * The subscription's update when this refusal ends its trial (the first refusal of period 0 of a
 * trialing subscription whose plan says `cancel` or `pause`); null: dunning as before.
 */
export async function trialEndUpdate(
  tx: Db,
  sub: SubscriptionRow,
  refusal: { periodIndex: number; failureCode: string },
): Promise<TrialEnd | null> {
  if (sub.status !== 'trialing' || sub.trialEnd === null || refusal.periodIndex !== 0) return null;
  if (!WALLET_REFUSALS.has(refusal.failureCode)) return null;
  const plan = await findPlanById(tx, sub.planId);
  if (plan?.trialEndBehavior === 'cancel') {
    return {
      status: 'cancelled',
      update: {
        status: 'cancelled',
        cancelReason: `The trial ended and the first charge was refused (${refusal.failureCode}).`,
        cancelledBy: 'system',
        nextChargeAt: null,
        atRiskSince: null,
      },
    };
  }
  if (plan?.trialEndBehavior === 'pause') return { status: 'paused', update: { status: 'paused', nextChargeAt: null } };
  return null;
}
