// The hosted enrolment page's text for a metered plan (issue 41): the usage prices, billed in arrears, and the cap
// the wallet authorises per period (what the enrolment signs as its amount).
type Tier = { upTo: string | null; unitAmount: string; flatAmount: string };
export type MeteredPriceView =
  | { model: 'per_unit'; unitAmount: string }
  | { model: 'package'; packageSize: string; packageAmount: string }
  | { model: 'graduated' | 'volume'; tiers: Tier[] };

/** Base units (possibly a decimal string) as the token's amount, e.g. "2000" -> "0.002 USDC". */
function units(baseUnits: string, decimals: number, symbol: string): string {
  const [whole = '0', fraction = ''] = baseUnits.split('.');
  const padded = whole.padStart(decimals + 1, '0');
  const digits = (padded.slice(0, -decimals) + '.' + padded.slice(-decimals) + fraction).replace(/\.?0+$/, '');
  return digits.replace(/^0+(?=\d)/, '') + ' ' + symbol;
}

export function meteredPriceText(price: MeteredPriceView, decimals: number, symbol: string): string {
  const money = (v: string) => units(v, decimals, symbol);
  switch (price.model) {
    case 'per_unit':
      return money(price.unitAmount) + ' per unit';
    case 'package':
      return money(price.packageAmount) + ' per ' + price.packageSize + ' units (a started package counts whole)';
    default:
      return (
        (price.model === 'graduated' ? 'graduated: ' : 'volume: ') +
        price.tiers
          .map(
            (t) =>
              (t.upTo === null ? 'above' : 'up to ' + t.upTo) +
              ' ' +
              money(t.unitAmount) +
              '/unit' +
              (t.flatAmount !== '0' ? ' + ' + money(t.flatAmount) : ''),
          )
          .join('; ')
      );
  }
}

/** "Usage billed after each period: ...; at most X per period (authorised by your wallet)." */
export function meteredPlanNote(plan: { meteredPrices: MeteredPriceView[]; usageCap: string }, decimals: number, symbol: string): string {
  return (
    'Plus usage, billed after each period: ' +
    plan.meteredPrices.map((p) => meteredPriceText(p, decimals, symbol)).join(', ') +
    '. Your wallet authorises at most ' +
    units(plan.usageCap, decimals, symbol) +
    ' per period; usage above it is invoiced separately.'
  );
}
