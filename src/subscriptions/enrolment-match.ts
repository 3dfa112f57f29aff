// Whether an on-chain enrolment's trial is the one the platform offers for a plan. The
// indexer accepts an enrolment naming this service's operator only when it does: anyone can
// call subscribe() naming our operator with firstPeriodStart in 2100, which would otherwise be
// recorded `trialing` and never charged ("trial forever", issue #37; docs/decisions.md
// "Enrolments checked against the plan").
//
// The contract starts period 0 at max(enrolment block time, trialEnd), so the trial the
// subscriber got is firstPeriodStart - block time. The hosted enrolment offers
// trialEnd = offer time + the plan's trial days, and its route accepts a trialEnd up to
// TRIAL_SLACK_SECONDS later; the trial measured on chain is shorter by the time between the
// offer and the enrolment's block (a page left open, signing, relaying, mining).

/** How much later than offered the enrol route lets trialEnd be (src/checkout/service.ts uses it). */
export const TRIAL_SLACK_SECONDS = 3600;

/** How much shorter than the plan's a trial may be: the offer may be a day old when it is mined. */
export const TRIAL_DELAY_TOLERANCE_SECONDS = 86_400;

/** True when a trial of `trialSeconds` is the plan's `trialPeriodDays` within the tolerances above. */
export function trialMatchesPlan(trialSeconds: bigint, trialPeriodDays: number): boolean {
  const planned = BigInt(trialPeriodDays) * 86_400n;
  if (planned === 0n) return trialSeconds === 0n;
  return trialSeconds <= planned + BigInt(TRIAL_SLACK_SECONDS) && trialSeconds >= planned - BigInt(TRIAL_DELAY_TOLERANCE_SECONDS);
}
