// The capabilities' pure rules (src/agents/recovery.ts, src/agents/cashflow.ts): retry times by
// strategy, the customer notice, anomaly thresholds by sensitivity, the yield rebalancing decision.
import { describe, expect, it } from 'vitest';
import { ANOMALY_THRESHOLDS, BASELINE_DAYS, detectRevenueAnomaly, yieldMove } from '../../src/agents/cashflow.js';
import { pricingSuggestions } from '../../src/agents/pricing.js';
import { recoveryRetryOffsetsHours, recoveryRetryTimes, renderRecoveryNotice } from '../../src/agents/recovery.js';

const U = (usdc: number) => BigInt(Math.round(usdc * 1_000_000));

describe('recovery retry times', () => {
  it('once: at the deadline; twice: half-way and at the deadline; daily: every 24 h below G, then at G', () => {
    expect(recoveryRetryOffsetsHours('once', 72)).toEqual([72]);
    expect(recoveryRetryOffsetsHours('twice', 72)).toEqual([36, 72]);
    expect(recoveryRetryOffsetsHours('twice', 5)).toEqual([2.5, 5]);
    expect(recoveryRetryOffsetsHours('daily', 72)).toEqual([24, 48, 72]);
    expect(recoveryRetryOffsetsHours('daily', 60)).toEqual([24, 48, 60]);
    expect(recoveryRetryOffsetsHours('daily', 10)).toEqual([10]);
  });

  it('a zero grace window retries once at once; times are absolute from the first refusal', () => {
    expect(recoveryRetryOffsetsHours('twice', 0)).toEqual([0]);
    expect(recoveryRetryOffsetsHours('daily', 0)).toEqual([0]);
    expect(recoveryRetryTimes('twice', 48, 1_000)).toEqual([1_000 + 24 * 3_600_000, 1_000 + 48 * 3_600_000]);
  });
});

describe('recovery notice', () => {
  const fields = {
    merchantName: 'Acme',
    planName: 'Pro',
    amount: '40 USDC',
    currency: 'USDC',
    subscriptionId: 'sub_1',
    customerEmail: 'a@example.com',
    status: 'at_risk',
    graceDeadline: '2026-01-04T00:00:00.000Z',
    topUpUrl: 'https://pay.example/renew?token=t',
  };

  it('replaces every known field, leaves unknown braces, and places the link where the template says', () => {
    expect(renderRecoveryNotice('{planName} at {merchantName}: {amount} by {graceDeadline} ({unknown}) {topUpUrl}', fields)).toBe(
      'Pro at Acme: 40 USDC by 2026-01-04T00:00:00.000Z ({unknown}) https://pay.example/renew?token=t',
    );
  });

  it('appends the link when the template has no {topUpUrl}', () => {
    expect(renderRecoveryNotice('Your payment to {merchantName} failed.', fields)).toBe(
      'Your payment to Acme failed.\n\nhttps://pay.example/renew?token=t',
    );
  });
});

describe('revenue anomaly', () => {
  // 28 days alternating 90 and 110 USDC: mean 100, standard deviation 10.
  const steady = Array.from({ length: BASELINE_DAYS }, (_, i) => U(i % 2 === 0 ? 90 : 110));

  it('thresholds: low 4 sigma and 50 %, medium 3 sigma and 30 %, high 2 sigma and 15 %', () => {
    expect(ANOMALY_THRESHOLDS).toEqual({
      low: { k: 4n, minPercent: 50n },
      medium: { k: 3n, minPercent: 30n },
      high: { k: 2n, minPercent: 15n },
    });
  });

  it('judges by both the deviation in sigmas and the distance in percent of the mean', () => {
    // 120: 2 sigma, 20 % -> nothing at any sensitivity (high needs 15 % and more than 2 sigma).
    expect(detectRevenueAnomaly(steady, U(120), 'high')).toMatchObject({ anomaly: false, reason: 'within_range', mean: U(100) });
    // 125: 2.5 sigma, 25 % -> high only.
    expect(detectRevenueAnomaly(steady, U(125), 'high')).toEqual({ anomaly: true, direction: 'spike', mean: U(100), deviationPercent: 25 });
    expect(detectRevenueAnomaly(steady, U(125), 'medium')).toMatchObject({ anomaly: false });
    // 140: 4 sigma, 40 % -> medium and high, not low (needs more than 4 sigma and 50 %).
    expect(detectRevenueAnomaly(steady, U(140), 'medium')).toMatchObject({ anomaly: true, direction: 'spike' });
    expect(detectRevenueAnomaly(steady, U(140), 'low')).toMatchObject({ anomaly: false });
    // 40: 6 sigma below, 60 % -> every sensitivity, a drop.
    expect(detectRevenueAnomaly(steady, U(40), 'low')).toEqual({ anomaly: true, direction: 'drop', mean: U(100), deviationPercent: -60 });
    // A day without revenue after a steady month is a drop.
    expect(detectRevenueAnomaly(steady, 0n, 'medium')).toMatchObject({ anomaly: true, direction: 'drop', deviationPercent: -100 });
  });

  it('a flat baseline does not flag a cent of difference', () => {
    const flat = Array.from({ length: BASELINE_DAYS }, () => U(100));
    expect(detectRevenueAnomaly(flat, U(100) + 1n, 'high')).toMatchObject({ anomaly: false, reason: 'within_range' });
    expect(detectRevenueAnomaly(flat, U(116), 'high')).toMatchObject({ anomaly: true, direction: 'spike' });
  });

  it('judges nothing with fewer than 7 baseline days of revenue', () => {
    const young = [...Array.from({ length: 22 }, () => 0n), ...Array.from({ length: 6 }, () => U(100))];
    expect(detectRevenueAnomaly(young, U(10_000), 'high')).toMatchObject({ anomaly: false, reason: 'insufficient_history' });
    expect(detectRevenueAnomaly([...young.slice(1), U(100)], U(10_000), 'high')).toMatchObject({ anomaly: true });
  });
});

describe('yield rebalancing', () => {
  it('deposits what is above the reserve, withdraws what is missing (up to what the vault holds), else nothing', () => {
    // Reserve 50 USD = 5,000 cents = 50,000,000 units.
    expect(yieldMove(U(80), 0n, 5_000)).toEqual({ action: 'deposit', amount: U(30) });
    expect(yieldMove(U(20), U(100), 5_000)).toEqual({ action: 'withdraw', amount: U(30) });
    expect(yieldMove(U(20), U(10), 5_000)).toEqual({ action: 'withdraw', amount: U(10) });
    expect(yieldMove(U(20), 0n, 5_000)).toEqual({ action: 'none' });
    expect(yieldMove(U(50), U(100), 5_000)).toEqual({ action: 'none' });
    expect(yieldMove(1n, 0n, 0)).toEqual({ action: 'deposit', amount: 1n });
  });
});

describe('pricing suggestions', () => {
  const plan = (planId: string, exposed: number, churned: number) => ({ planId, planName: planId, amount: 10_000_000n, exposed, churned });

  it('high_churn at twice the merchant average (3 churned at least), low_churn at half of it (20 exposed at least)', () => {
    // Merchant: 9 of 40 = 22.5 %. A: 60 % (>= 45 %). B: 10 % (<= 11.25 %, 30 exposed).
    const out = pricingSuggestions([plan('A', 10, 6), plan('B', 30, 3)]);
    expect(out.map((s) => [s.planId, s.rule, s.planChurnBps, s.merchantChurnBps])).toEqual([
      ['A', 'high_churn', 6000, 2250],
      ['B', 'low_churn', 1000, 2250],
    ]);
    expect(out[0]!.summary).toBe(
      'Plan A lost 60.0% of its subscribers in 90 days against 22.5% across your plans: review its price (lower it, or offer a longer interval).',
    );
  });

  it('exactly twice the average counts; small plans, a single plan and too few churned are not judged', () => {
    // Merchant 8 of 40 = 20 %; C exactly 40 %.
    expect(pricingSuggestions([plan('C', 10, 4), plan('D', 30, 4)]).map((s) => [s.planId, s.rule])).toEqual([['C', 'high_churn']]);
    expect(pricingSuggestions([plan('A', 10, 6), plan('tiny', 9, 9)])).toEqual([]); // one judged plan only
    // Merchant 3 of 110 = 2.7 %: A (20 %) has only 2 churned, so no high_churn; B (1 %) is under half of it.
    expect(pricingSuggestions([plan('A', 10, 2), plan('B', 100, 1)]).map((s) => [s.planId, s.rule])).toEqual([['B', 'low_churn']]);
    expect(pricingSuggestions([plan('A', 20, 0), plan('B', 20, 0)])).toEqual([]); // nobody churned: nothing to say
  });
});
