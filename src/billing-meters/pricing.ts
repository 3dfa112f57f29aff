// The price of a period's usage on one meter (issue 41, item 3; docs/metered-billing.md, "Pricing").
// Pure: a quantity (exact decimal text, as aggregateUsage returns it) and a price give the line's amount
// in integer token base units and, for tiers, what each tier contributed.
//
// Arithmetic is exact: quantities and unit amounts are decimals of at most 12 places, held as bigints
// scaled by 10^12, so a product is exact at 10^24. The LINE is rounded once, half up (half a base unit
// or more rounds up): rounding each unit or tier would drift by up to half a base unit per unit, and
// half up is what Stripe does with a decimal unit amount. A package count rounds up (a partial package is
// a package), as Stripe's transform_quantity with round "up".

export type PriceTier = {
  /** The last unit of the tier (inclusive); null: no bound (the last tier). Decimal text. */
  upTo: string | null;
  /** Base units per unit, a decimal of at most 12 places ("2000", "0.5"). */
  unitAmount: string;
  /** Base units added once when the tier is reached (graduated: any unit in it; volume: the quantity falls in it). */
  flatAmount: string;
};

export type MeteredPriceTerms =
  | { model: 'per_unit'; unitAmount: string }
  | { model: 'package'; packageSize: string; packageAmount: string }
  | { model: 'graduated'; tiers: PriceTier[] }
  | { model: 'volume'; tiers: PriceTier[] };

export type TierCharge = {
  /** 1-based tier number. */
  tier: number;
  /** Units billed in the tier (decimal text). */
  quantity: string;
  unitAmount: string;
  flatAmount: string;
  /** quantity x unitAmount + flatAmount, exact (decimal text of base units, may have decimals). */
  amount: string;
};

export type PricedLine = {
  /** The line's total in integer base units, rounded once half up. */
  amount: string;
  /** Package count (package model). */
  packages?: string;
  /** What each tier contributed (graduated: every tier reached; volume: the one tier). */
  tiers?: TierCharge[];
};

const PLACES = 12;
const SCALE = 10n ** BigInt(PLACES);
const DECIMAL = /^(\d{1,26})(?:\.(\d{1,12}))?$/;

/** A non-negative decimal of at most 12 places, scaled by 10^12. */
export function parseDecimal(text: string): bigint {
  const match = DECIMAL.exec(text);
  if (!match) throw new Error(`not a non-negative decimal of at most 12 places: ${text}`);
  return BigInt(match[1]!) * SCALE + BigInt((match[2] ?? '').padEnd(PLACES, '0'));
}

export function isDecimal(text: string): boolean {
  return DECIMAL.test(text);
}

/** A bigint scaled by 10^places as decimal text without trailing zeros. */
function formatScaled(value: bigint, places: number): string {
  const scale = 10n ** BigInt(places);
  const whole = value / scale;
  const fraction = (value % scale).toString().padStart(places, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

/** A product of two 10^12-scaled values (scaled 10^24) rounded half up to an integer. */
function roundHalfUp(scaled24: bigint): bigint {
  const unit = SCALE * SCALE;
  return (scaled24 + unit / 2n) / unit;
}

function tierCharge(index: number, tier: PriceTier, quantity: bigint): { charge: TierCharge; exact: bigint } {
  const exact = quantity * parseDecimal(tier.unitAmount) + parseDecimal(tier.flatAmount) * SCALE;
  return {
    exact,
    charge: {
      tier: index + 1,
      quantity: formatScaled(quantity, PLACES),
      unitAmount: tier.unitAmount,
      flatAmount: tier.flatAmount,
      amount: formatScaled(exact, 2 * PLACES),
    },
  };
}

/** The amount of `quantity` (decimal text) under `price`. No usage costs nothing, flat amounts included. */
export function priceUsage(price: MeteredPriceTerms, quantityText: string): PricedLine {
  const quantity = parseDecimal(quantityText);
  switch (price.model) {
    case 'per_unit':
      return { amount: roundHalfUp(quantity * parseDecimal(price.unitAmount)).toString() };
    case 'package': {
      const size = parseDecimal(price.packageSize);
      const packages = (quantity + size - 1n) / size; // a partial package is a whole one
      return { amount: (packages * BigInt(price.packageAmount)).toString(), packages: packages.toString() };
    }
    case 'graduated': {
      // Tier i bills the units in (upTo of tier i-1, upTo of tier i].
      const tiers: TierCharge[] = [];
      let exact = 0n;
      let floor = 0n;
      for (const [i, tier] of price.tiers.entries()) {
        if (quantity <= floor) break;
        const ceiling = tier.upTo === null ? quantity : parseDecimal(tier.upTo);
        const units = (quantity < ceiling ? quantity : ceiling) - floor;
        const { charge, exact: amount } = tierCharge(i, tier, units);
        tiers.push(charge);
        exact += amount;
        floor = ceiling;
      }
      return { amount: roundHalfUp(exact).toString(), tiers };
    }
    case 'volume': {
      // Every unit at the price of the tier the whole quantity falls in (upTo inclusive).
      if (quantity === 0n) return { amount: '0', tiers: [] };
      const index = price.tiers.findIndex((t) => t.upTo === null || quantity <= parseDecimal(t.upTo));
      const { charge, exact } = tierCharge(index, price.tiers[index]!, quantity);
      return { amount: roundHalfUp(exact).toString(), tiers: [charge] };
    }
  }
}

/** Why a price's terms are unusable (undefined: they are fine), for the plan's validation. */
export function priceTermsProblem(price: MeteredPriceTerms): { path: string; message: string } | undefined {
  if (price.model === 'package' && parseDecimal(price.packageSize) === 0n) return { path: 'packageSize', message: 'must be above 0' };
  if (price.model === 'graduated' || price.model === 'volume') {
    let previous = -1n;
    for (const [i, tier] of price.tiers.entries()) {
      const last = i === price.tiers.length - 1;
      if (last !== (tier.upTo === null)) return { path: `tiers.${i}.upTo`, message: 'only the last tier has upTo null, and it must' };
      if (tier.upTo !== null) {
        const upTo = parseDecimal(tier.upTo);
        if (upTo <= previous || upTo === 0n)
          return { path: `tiers.${i}.upTo`, message: 'tiers must rise: each upTo above the one before and above 0' };
        previous = upTo;
      }
    }
  }
  return undefined;
}
