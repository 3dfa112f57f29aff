// The `cashflow` capability's rules, as pure functions (docs/agents.md, Cashflow):
// anomaly detection on a day's settled revenue against a trailing baseline, in
// exact integer arithmetic (amounts are bigint base units), and the yield
// rebalancing decision. No I/O, no clock.

export type AnomalySensitivity = 'low' | 'medium' | 'high';

/** Days of the trailing baseline (the days before the day judged). */
export const BASELINE_DAYS = 28;
/** Days of the baseline that must have revenue before anything is judged. */
export const MIN_ACTIVE_BASELINE_DAYS = 7;

/**
 * Per sensitivity: `k`, how many standard deviations away from the mean the day must be, and
 * `minPercent`, how far from the mean in percent of it (so a flat baseline, where one cent is many
 * deviations, flags nothing small).
 */
export const ANOMALY_THRESHOLDS: Record<AnomalySensitivity, { k: bigint; minPercent: bigint }> = {
  low: { k: 4n, minPercent: 50n },
  medium: { k: 3n, minPercent: 30n },
  high: { k: 2n, minPercent: 15n },
};

export type RevenueAnomaly =
  | { anomaly: false; reason: 'insufficient_history' | 'within_range'; mean: bigint }
  | { anomaly: true; direction: 'spike' | 'drop'; mean: bigint; deviationPercent: number };

/**
 * Judges `day` (a day's settled revenue) against `baseline` (the BASELINE_DAYS days before it, zeros
 * included). With n days, S = sum, Q = sum of squares, mean = S / n and the population variance
 * (nQ - S^2) / n^2, the day is an anomaly when both hold:
 *   (n*day - S)^2 > k^2 * (nQ - S^2)          (more than k standard deviations from the mean)
 *   |n*day - S| * 100 >= minPercent * S        (at least minPercent % away from the mean)
 * Nothing is judged while fewer than MIN_ACTIVE_BASELINE_DAYS baseline days had revenue.
 */
export function detectRevenueAnomaly(baseline: readonly bigint[], day: bigint, sensitivity: AnomalySensitivity): RevenueAnomaly {
  const n = BigInt(baseline.length);
  const sum = baseline.reduce((a, b) => a + b, 0n);
  const mean = n === 0n ? 0n : sum / n;
  if (baseline.filter((v) => v > 0n).length < MIN_ACTIVE_BASELINE_DAYS) return { anomaly: false, reason: 'insufficient_history', mean };
  const squares = baseline.reduce((a, b) => a + b * b, 0n);
  const { k, minPercent } = ANOMALY_THRESHOLDS[sensitivity];
  const deviation = n * day - sum; // n x (day - mean)
  const spread = n * squares - sum * sum; // n^2 x variance
  const absolute = deviation < 0n ? -deviation : deviation;
  if (deviation * deviation > k * k * spread && absolute * 100n >= minPercent * sum) {
    // For the summary only: percent from the mean, one decimal.
    const deviationPercent = Number((deviation * 1000n) / sum) / 10;
    return { anomaly: true, direction: deviation > 0n ? 'spike' : 'drop', mean, deviationPercent };
  }
  return { anomaly: false, reason: 'within_range', mean };
}

/** USDC base units per USD cent (6 decimals). */
const UNITS_PER_CENT = 10_000n;

export type YieldMove = { action: 'deposit' | 'withdraw'; amount: bigint } | { action: 'none' };

/**
 * What autoConvertToYield does with the agent wallet: everything liquid above the reserve goes into
 * the vault; when liquid funds are below the reserve, enough comes back from the vault to restore
 * it (as much as the vault holds). `liquid` and `inVault` in token base units.
 */
export function yieldMove(liquid: bigint, inVault: bigint, minimumLiquidReserveCents: number): YieldMove {
  const reserve = BigInt(minimumLiquidReserveCents) * UNITS_PER_CENT;
  if (liquid > reserve) return { action: 'deposit', amount: liquid - reserve };
  if (liquid < reserve && inVault > 0n) {
    const want = reserve - liquid;
    return { action: 'withdraw', amount: want < inVault ? want : inVault };
  }
  return { action: 'none' };
}
