// Amounts on the hosted pages: the server's one money formatter (src/money/format.ts,
// dependency-free), so page, receipt, PDF, email and dashboard write a number the same way.
import { formatAmount } from '../../src/money/format.js';

/** Base units (string or bigint) with the token's symbol: `1500000` -> `1.50 USDC`. */
export function formatTokenAmount(value: string | bigint, decimals: number, symbol: string): string {
  return `${formatAmount(String(value), decimals)} ${symbol}`;
}

export { formatAmount };
