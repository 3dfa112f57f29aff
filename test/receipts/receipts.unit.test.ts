// The receipt's text and page as pure functions: amounts with decimals, the explorer link on a public chain
// only, the discount line, escaping, and the refund state in words.
import { describe, expect, it } from 'vitest';
import type { ReceiptData } from '../../src/receipts/content.js';
import { explorerLink, receiptEmailText, receiptSubject } from '../../src/receipts/email-text.js';
import { renderReceiptPage } from '../../src/receipts/page.js';
import { switchOf } from '../../src/receipts/schemas.js';

const HASH = `0x${'ab'.repeat(32)}`;
const charge: ReceiptData = {
  kind: 'subscription_charge',
  objectId: 'subch_01',
  merchantName: 'Acme <Tools>',
  title: 'Subscription: Pro',
  amount: '16000000',
  currency: 'USDC',
  date: '2026-11-27T10:00:00.000Z',
  lines: [
    { description: 'Pro', amount: '20000000' },
    { description: 'Discount (Spring 20, 20% off)', amount: '-4000000' },
  ],
  transactionHash: HASH,
  chainId: 8453,
  paymentSessionId: null,
  pdf: 'subscription_charge',
};

describe('receipt email text', () => {
  it('says the amount with decimals, the lines with the discount, the transaction, the explorer and the page link', () => {
    const text = receiptEmailText(charge, 'https://pay.example/receipts/tok');
    expect(receiptSubject(charge)).toBe('Your receipt from Acme <Tools>');
    expect(text).toContain('Amount paid: 16.00 USDC');
    expect(text).toContain('  Pro: 20.00 USDC');
    expect(text).toContain('  Discount (Spring 20, 20% off): -4.00 USDC');
    expect(text).toContain('Date: 27 Nov 2026, 10:00 UTC');
    expect(text).toContain(`Transaction: ${HASH} on Base`);
    expect(text).toContain(`View it on the explorer: https://basescan.org/tx/${HASH}`);
    expect(text).toContain('Your receipt: https://pay.example/receipts/tok');
  });

  it('links no explorer on a local chain, and words a refund as one', () => {
    const refund: ReceiptData = { ...charge, kind: 'refund', chainId: 31337, title: 'Refund of a payment', lines: [] };
    expect(explorerLink(refund)).toBeNull();
    expect(receiptSubject(refund)).toBe('Your refund from Acme <Tools>');
    expect(receiptEmailText(refund, 'https://x/receipts/t')).toContain('Amount refunded: 16.00 USDC');
    expect(receiptEmailText(refund, 'https://x/receipts/t')).not.toContain('explorer');
  });
});

describe('receipt page', () => {
  it('escapes what the merchant typed, shows the lines, the refund state and the PDF link', () => {
    const html = renderReceiptPage({ data: charge, livemode: true, refundState: null, pdfUrl: '/receipts/t/receipt.pdf' });
    expect(html).toContain('Acme &lt;Tools&gt;');
    expect(html).not.toContain('Acme <Tools>');
    expect(html).toContain('-4.00 USDC');
    expect(html).toContain('Not refunded');
    expect(html).toContain(`href="https://basescan.org/tx/${HASH}"`);
    expect(html).toContain('href="/receipts/t/receipt.pdf"');
  });

  it('words the refunds: partly, in full, a refund of its own', () => {
    const page = (refundState: Parameters<typeof renderReceiptPage>[0]['refundState']) =>
      renderReceiptPage({ data: { ...charge, kind: 'payment', pdf: null }, livemode: false, refundState, pdfUrl: null });
    expect(page({ refunded: '1000000', of: '16000000' })).toContain('Partly refunded: 1.00 USDC of 16.00 USDC');
    expect(page({ refunded: '16000000', of: '16000000' })).toContain('Refunded in full (16.00 USDC)');
    expect(page({ refundStatus: 'succeeded' })).toContain('Refund sent');
    expect(page(null)).toContain('Base (test mode)');
    expect(page(null)).not.toContain('receipt-pdf');
  });
});

describe('switches', () => {
  it('maps each kind to its switch', () => {
    const switches = { payment: true, subscriptionCharge: false, refund: false, invoice: true };
    expect(['payment', 'subscription_charge', 'refund', 'invoice'].map((k) => switchOf(switches, k as never))).toEqual([
      true,
      false,
      false,
      true,
    ]);
  });
});
