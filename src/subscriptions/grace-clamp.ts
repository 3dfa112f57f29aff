// The dunning grace of a period, clamped to the period's charge window on SubscriptionManagerV2
// (docs/decisions.md "New enrolments on v2: the mean month and the charge window"). The contract
// refuses a charge after the window closes (ChargeWindowClosed), so retrying past it only ends in
// a refusal; the last attempt, made at the grace deadline, must still be mined inside the window.
// Pure: the failure activity returns its result, so running workflows replay unchanged.

/** Time left for the last attempt's transaction to be simulated, sent and mined before the window closes. */
export const LAST_ATTEMPT_MARGIN_MS = 15 * 60_000;

export type GraceWindow = {
  /** The merchant's (or plan's) grace, in hours. */
  gracePeriodHours: number;
  /** The subscription's firstPeriodStart and signed period (seconds). */
  firstPeriodStart: Date;
  periodSeconds: number;
  /** The signed charge window in seconds; null on v1 (no window: the grace is left as it is). */
  chargeWindowSeconds: number | null;
  periodIndex: number;
  /** Business time now (the test clock's on a clock). */
  now: Date;
};

/** When the contract stops accepting a charge of the period: its start + the window. */
export function chargeWindowClosesAt(
  w: Pick<GraceWindow, 'firstPeriodStart' | 'periodSeconds' | 'periodIndex'>,
  windowSeconds: number,
): Date {
  return new Date(w.firstPeriodStart.getTime() + (w.periodIndex * w.periodSeconds + windowSeconds) * 1000);
}

/**
 * The hours (possibly fractional, never negative) left for retrying the period before its window
 * closes, less the last attempt's margin; null on v1 (no window). Any grace, the merchant's or the
 * recovery agent's, is clamped to it.
 */
export function windowLeftHours(w: Omit<GraceWindow, 'gracePeriodHours'>): number | null {
  if (w.chargeWindowSeconds === null) return null;
  const leftMs = chargeWindowClosesAt(w, w.chargeWindowSeconds).getTime() - LAST_ATTEMPT_MARGIN_MS - w.now.getTime();
  return Math.max(0, leftMs / 3_600_000);
}

/** The grace in hours (possibly fractional, never negative) that ends a margin before the window closes. */
export function clampGraceToWindow(w: GraceWindow): number {
  const left = windowLeftHours(w);
  return left === null ? w.gracePeriodHours : Math.max(0, Math.min(w.gracePeriodHours, left));
}
