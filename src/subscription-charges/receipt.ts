// The lines a subscription charge is receipted with: the plan's full amount, then the discount line
// ("Discount (Spring 20, 20% off)", negative), adding up to what was pulled. One source for the API's
// `lines`, the webhook's charge and the receipt PDF, so all three say the same.
import { basisPointsToPercent } from '../coupons/discount-amount.js';
import { formatMoney } from '../money/format.js';
import type { ChargeRow } from './repo.js';

export type ReceiptLine = { kind: 'subscription' | 'discount'; description: string; amount: string };

/** "Spring 20, 20% off" or "5.00 USDC off" (a coupon without a name). */
function discountTerms(discount: NonNullable<ChargeRow['discount']>, currency: string): string {
  const off =
    discount.percentOffBp !== null
      ? `${basisPointsToPercent(discount.percentOffBp)}% off`
      : `${formatMoney(discount.couponAmountOff ?? discount.amountOff, currency)} off`;
  return discount.name ? `${discount.name}, ${off}` : off;
}

export function chargeSubtotal(row: ChargeRow): string {
  return row.discount ? (BigInt(row.amount) + BigInt(row.discount.amountOff)).toString() : row.amount;
}

/** The charge's lines in base units (a discount's amount negative); they sum to `row.amount`. */
export function receiptLines(row: ChargeRow, currency: string): ReceiptLine[] {
  const lines: ReceiptLine[] = [{ kind: 'subscription', description: row.planName, amount: chargeSubtotal(row) }];
  if (row.discount) {
    lines.push({
      kind: 'discount',
      description: `Discount (${discountTerms(row.discount, currency)})`,
      amount: (-BigInt(row.discount.amountOff)).toString(),
    });
  }
  return lines;
}
