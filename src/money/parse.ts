// Money as people type it, one rule for every money input (dashboard forms and hosted pages), issue
// 36 item 12: "9,99" once became a 999.00 USDC plan because a comma was read as a thousands separator.
// A comma (or a space, apostrophe or underscore) is refused, never guessed: "9,99" is 9.99 in
// Germany and "1,000" is a thousand in the US, and a wrong guess moves a price by 100x or 1000x. The
// only decimal separator is a dot; digits only, no sign, at most the token's decimals (USDC: 6).
// String arithmetic, no floats. Dependency-free, so the dashboard bundle can import it.
import { formatAmount, USDC_DECIMALS } from './format.js';

export type ParsedMoney = { ok: true; baseUnits: string } | { ok: false; message: string };

/** Typed text to base units: "9.99" -> "9990000"; "9,99", "1 000", "-1", "0.1234567" are refused with why. */
export function parseMoneyInput(input: string, decimals = USDC_DECIMALS): ParsedMoney {
  const text = input.trim();
  if (text === '') return { ok: false, message: 'Enter an amount, e.g. 10 or 9.99.' };
  if (/[,\s'’_]/.test(text)) {
    return { ok: false, message: `Use a dot for decimals and no thousands separators: e.g. 9.99 or 1000 (“${text}” is ambiguous).` };
  }
  if (text.startsWith('-')) return { ok: false, message: 'The amount cannot be negative.' };
  const match = /^(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[1] === '' && !match[2]))
    return { ok: false, message: `“${text}” is not an amount: use digits and at most one dot, e.g. 9.99.` };
  const fraction = match[2] ?? '';
  if (fraction.length > decimals)
    return { ok: false, message: `At most ${decimals} decimals: the smallest amount is ${formatAmount('1', decimals)}.` };
  const baseUnits = `${match[1] ?? ''}${fraction.padEnd(decimals, '0')}`.replace(/^0+(?=\d)/, '');
  return { ok: true, baseUnits };
}

/** What a money input shows under itself while typing: "= 9.99 USDC", or why the text is refused. */
export function describeMoneyInput(input: string, currency = 'USDC', decimals = USDC_DECIMALS): { ok: boolean; text: string } {
  const parsed = parseMoneyInput(input, decimals);
  return parsed.ok ? { ok: true, text: `= ${formatAmount(parsed.baseUnits, decimals)} ${currency}` } : { ok: false, text: parsed.message };
}
