// What the customer signs to authorise an upgrade above the cap (docs/decisions.md "Upgrades above the cap"): a new
// enrolment for the new amount whose period 0 is the subscription's next period, so the period in progress stays
// paid under the old authorisation and every later one is charged under the new. Pure.
import { periodStart, type Schedule } from '../subscriptions/periods.js';
import { periodInProgress } from './decide.js';

/** The hosted approval page of a plan change; the token is its capability. */
export const reauthorisationPagePath = (planChangeId: string, token: string): string =>
  `/checkout/plan-changes/${planChangeId}?token=${token}`;

/**
 * A replacement is bound to a period at least this far ahead: the contract starts period 0 at
 * max(trialEnd, block time), so an enrolment mined after the bound start would start elsewhere and bind to nothing.
 */
export const BIND_MARGIN_SECONDS = 3600;

export type ReplacementStart = {
  /** The subscription's period the new enrolment's period 0 is. */
  periodIndex: number;
  /** Its calendar start: the enrolment's trialEnd, so its firstPeriodStart. */
  start: Date;
  /** The enrolment's periods: those left of the subscription's term (0: open-ended). */
  periods: number;
};

/** The period a replacement signed `now` starts at; null when the term has no period left for it. */
export function replacementStart(input: {
  schedule: Schedule;
  /** Authorised periods; 0 = open-ended. */
  periods: number;
  currentPeriodIndex: number | null;
  now: Date;
}): ReplacementStart | null {
  const { schedule, now } = input;
  let index = now.getTime() < schedule.anchor.getTime() ? 0 : periodInProgress(schedule, input.currentPeriodIndex ?? 0, now) + 1;
  while (periodStart(schedule, index).getTime() - now.getTime() < BIND_MARGIN_SECONDS * 1000) index += 1;
  if (input.periods !== 0 && index >= input.periods) return null;
  return { periodIndex: index, start: periodStart(schedule, index), periods: input.periods === 0 ? 0 : input.periods - index };
}
