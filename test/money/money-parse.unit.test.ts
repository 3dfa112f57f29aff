// The one rule for money typed by people (src/money/parse.ts, issue 36 item 12): a dot for decimals,
// no comma or other separator (refused, never guessed), no sign, at most 6 decimals; exact base units.
import { describe, expect, it } from 'vitest';
import { describeMoneyInput, parseMoneyInput } from '../../src/money/parse.js';

const units = (text: string) => {
  const parsed = parseMoneyInput(text);
  return parsed.ok ? parsed.baseUnits : undefined;
};
const refusal = (text: string) => {
  const parsed = parseMoneyInput(text);
  return parsed.ok ? undefined : parsed.message;
};

describe('parseMoneyInput', () => {
  it('reads a dot as the decimal separator into exact base units', () => {
    expect(units('9.99')).toBe('9990000');
    expect(units(' 12.5 ')).toBe('12500000');
    expect(units('1000')).toBe('1000000000');
    expect(units('0.000001')).toBe('1');
    expect(units('0')).toBe('0');
    expect(units('007.10')).toBe('7100000');
    expect(units('.5')).toBe('500000');
    expect(units('3.')).toBe('3000000');
    expect(units('123456789012345678901234.5')).toBe('123456789012345678901234500000'); // beyond 2^53, no float
  });

  it('refuses commas and other separators as ambiguous, whichever way they were meant', () => {
    for (const text of ['9,99', '1,000', '1,000.50', '1.000,50', '1 000', "1'000", '1_000', '1\u00a0000']) {
      expect(refusal(text), text).toMatch(/Use a dot for decimals and no thousands separators/);
    }
  });

  it('refuses more than 6 decimals, signs, empty text and anything that is not a number', () => {
    expect(refusal('0.1234567')).toBe('At most 6 decimals: the smallest amount is 0.000001.');
    expect(refusal('-1')).toBe('The amount cannot be negative.');
    expect(refusal('')).toMatch(/Enter an amount/);
    expect(refusal('   ')).toMatch(/Enter an amount/);
    for (const text of ['abc', '1.2.3', '.', '+5', '1e6', '0x10', '5 USDC', '$5']) expect(refusal(text), text).toBeDefined();
  });

  it('follows the token decimals it is given', () => {
    expect(parseMoneyInput('1.25', 2)).toEqual({ ok: true, baseUnits: '125' });
    expect(parseMoneyInput('1.255', 2).ok).toBe(false);
  });
});

describe('describeMoneyInput', () => {
  it('shows what will be sent before anything is created, or why the text is refused', () => {
    expect(describeMoneyInput('9.99')).toEqual({ ok: true, text: '= 9.99 USDC' });
    expect(describeMoneyInput('1000')).toEqual({ ok: true, text: '= 1,000.00 USDC' });
    expect(describeMoneyInput('0.000001')).toEqual({ ok: true, text: '= 0.000001 USDC' });
    expect(describeMoneyInput('9,99').ok).toBe(false);
  });
});
