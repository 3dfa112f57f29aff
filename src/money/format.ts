// Money as people read it, shared by every server-rendered text (checkout, storefront, invoice page,
// PDF, emails). Amounts are integer strings in token base units (USDC: 6 decimals) and are formatted
// with string and bigint arithmetic, never floats. Dependency-free: the dashboard's format.ts follows
// the same rules.

export const USDC_DECIMALS = 6;

/** Base units to a display amount: `2500000` -> `2.50`, `1234000000` -> `1,234.00`, `1` -> `0.000001`. */
export function formatAmount(amount: string, decimals = USDC_DECIMALS): string {
  const value = BigInt(amount);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  let fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  if (fraction.length < 2) fraction = (fraction + '00').slice(0, 2);
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** Base units with their currency: `28000000` -> `28.00 USDC`. */
export function formatMoney(amount: string, currency: string, decimals = USDC_DECIMALS): string {
  return `${formatAmount(amount, decimals)} ${currency}`;
}
