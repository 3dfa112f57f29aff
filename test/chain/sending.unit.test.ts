// Replacement fees for a stuck transaction: nodes refuse a same-nonce replacement that does not
// raise both fee fields (by 10% in geth and anvil), so the sender raises them by a quarter, and
// never offers less than the fees the chain asks for now.
import { describe, expect, it } from 'vitest';
import { replacementFees } from '../../src/chain/sending.js';

describe('replacementFees', () => {
  it('raises both fields by more than a quarter when the chain asks for less', () => {
    const fees = replacementFees({ maxFeePerGas: 100n, maxPriorityFeePerGas: 8n }, { maxFeePerGas: 90n, maxPriorityFeePerGas: 1n });
    expect(fees).toEqual({ maxFeePerGas: 126n, maxPriorityFeePerGas: 11n });
  });

  it('follows the chain when it asks for more than the raise', () => {
    const fees = replacementFees({ maxFeePerGas: 100n, maxPriorityFeePerGas: 2n }, { maxFeePerGas: 400n, maxPriorityFeePerGas: 5n });
    expect(fees).toEqual({ maxFeePerGas: 400n, maxPriorityFeePerGas: 5n });
  });

  it('never lets the fee cap fall below the tip', () => {
    const fees = replacementFees({ maxFeePerGas: 10n, maxPriorityFeePerGas: 10n }, { maxFeePerGas: 1n, maxPriorityFeePerGas: 50n });
    expect(fees.maxPriorityFeePerGas).toBe(50n);
    expect(fees.maxFeePerGas).toBe(50n);
  });

  it('raises a zero fee to at least one wei', () => {
    const fees = replacementFees({ maxFeePerGas: 0n, maxPriorityFeePerGas: 0n }, { maxFeePerGas: 0n, maxPriorityFeePerGas: 0n });
    expect(fees).toEqual({ maxFeePerGas: 1n, maxPriorityFeePerGas: 1n });
  });
});
