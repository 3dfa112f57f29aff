import { describe, expect, it } from 'vitest';
import { priceTermsProblem, priceUsage, type PriceTier } from '../../src/billing-meters/pricing.js';

const tiers: PriceTier[] = [
  { upTo: '1000', unitAmount: '2000', flatAmount: '0' },
  { upTo: '10000', unitAmount: '1500', flatAmount: '500000' },
  { upTo: null, unitAmount: '1000', flatAmount: '0' },
];

describe('priceUsage', () => {
  it('per unit: quantity x unit amount, the line rounded once half up', () => {
    expect(priceUsage({ model: 'per_unit', unitAmount: '2000' }, '12140')).toEqual({ amount: '24280000' });
    // 3 x 0.5 = 1.5 rounds up to 2; 0.4 x 1 = 0.4 rounds down to 0; unit by unit 3 x round(0.5) would give 3.
    expect(priceUsage({ model: 'per_unit', unitAmount: '0.5' }, '3').amount).toBe('2');
    expect(priceUsage({ model: 'per_unit', unitAmount: '1' }, '0.4').amount).toBe('0');
    expect(priceUsage({ model: 'per_unit', unitAmount: '0.000001' }, '2500000.25').amount).toBe('3');
    expect(priceUsage({ model: 'per_unit', unitAmount: '2000' }, '0').amount).toBe('0');
  });

  it('package: partial packages round up', () => {
    const price = { model: 'package' as const, packageSize: '1000', packageAmount: '1500000' };
    expect(priceUsage(price, '0')).toEqual({ amount: '0', packages: '0' });
    expect(priceUsage(price, '1')).toEqual({ amount: '1500000', packages: '1' });
    expect(priceUsage(price, '1000')).toEqual({ amount: '1500000', packages: '1' });
    expect(priceUsage(price, '1000.5')).toEqual({ amount: '3000000', packages: '2' });
    expect(priceUsage(price, '12140')).toEqual({ amount: '19500000', packages: '13' });
  });

  it('graduated: each tier bills its own units, flat amounts once a tier is reached', () => {
    const line = priceUsage({ model: 'graduated', tiers }, '12140');
    // 1000 x 2000 + (9000 x 1500 + 500000) + 2140 x 1000
    expect(line.amount).toBe(String(2_000_000 + 13_500_000 + 500_000 + 2_140_000));
    expect(line.tiers).toEqual([
      { tier: 1, quantity: '1000', unitAmount: '2000', flatAmount: '0', amount: '2000000' },
      { tier: 2, quantity: '9000', unitAmount: '1500', flatAmount: '500000', amount: '14000000' },
      { tier: 3, quantity: '2140', unitAmount: '1000', flatAmount: '0', amount: '2140000' },
    ]);
    expect(priceUsage({ model: 'graduated', tiers }, '1000').tiers).toHaveLength(1); // upTo is inclusive
    expect(priceUsage({ model: 'graduated', tiers }, '1000.5').amount).toBe(String(2_000_000 + 750 + 500_000));
    expect(priceUsage({ model: 'graduated', tiers }, '0')).toEqual({ amount: '0', tiers: [] });
  });

  it('graduated: exact tier amounts, the line rounded once', () => {
    const half = [
      { upTo: '1', unitAmount: '0.5', flatAmount: '0' },
      { upTo: null, unitAmount: '0.5', flatAmount: '0' },
    ];
    // 0.5 + 0.5 = 1 (rounding each tier half up would give 2)
    const line = priceUsage({ model: 'graduated', tiers: half }, '2');
    expect(line.amount).toBe('1');
    expect(line.tiers!.map((t) => t.amount)).toEqual(['0.5', '0.5']);
  });

  it('volume: every unit at the tier the whole quantity falls in', () => {
    expect(priceUsage({ model: 'volume', tiers }, '1000').amount).toBe('2000000');
    expect(priceUsage({ model: 'volume', tiers }, '1001').amount).toBe(String(1001 * 1500 + 500_000));
    expect(priceUsage({ model: 'volume', tiers }, '12140')).toEqual({
      amount: '12140000',
      tiers: [{ tier: 3, quantity: '12140', unitAmount: '1000', flatAmount: '0', amount: '12140000' }],
    });
    expect(priceUsage({ model: 'volume', tiers }, '0')).toEqual({ amount: '0', tiers: [] });
  });

  it('refuses terms it cannot price', () => {
    expect(priceTermsProblem({ model: 'package', packageSize: '0', packageAmount: '1' })?.path).toBe('packageSize');
    expect(priceTermsProblem({ model: 'volume', tiers: [tiers[0]!] })?.path).toBe('tiers.0.upTo');
    expect(priceTermsProblem({ model: 'graduated', tiers: [tiers[1]!, tiers[0]!, tiers[2]!] })?.path).toBe('tiers.1.upTo');
    expect(priceTermsProblem({ model: 'graduated', tiers })).toBeUndefined();
  });
});
