import { describe, expect, it } from 'vitest';
import { formatInvoiceNumber, invoiceTotals } from '../../src/invoices/service.js';

describe('invoice arithmetic', () => {
  it('sums quantity x unitAmount exactly with bigints, beyond Number precision', () => {
    const { subtotal, total } = invoiceTotals([
      { quantity: 3, unitAmount: '1500000' },
      { quantity: 1_000_000, unitAmount: '9007199254740993' },
    ]);
    expect(subtotal).toBe(4_500_000n + 9_007_199_254_740_993_000_000n);
    expect(total).toBe(subtotal);
  });

  it('formats numbers as <YYYY>-<NNNN>', () => {
    expect(formatInvoiceNumber(2026, 1)).toBe('2026-0001');
    expect(formatInvoiceNumber(2026, 42)).toBe('2026-0042');
    expect(formatInvoiceNumber(2026, 12345)).toBe('2026-12345');
  });
});
