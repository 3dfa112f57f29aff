// The receipt email: plain text, amounts as USDC with decimals, the transaction and its explorer link, and
// the receipt page's link. Nothing in it that the customer did not already see when paying: no key, no
// deposit address, no wallet other than the transaction's hash.
import { utcDate } from '../checkout/final-pages.js';
import { findChainPreset } from '../chain/presets.js';
import { formatMoney } from '../money/format.js';
import { networkName } from '../payment-sessions/api-shape.js';
import type { ReceiptData } from './content.js';

/** The transaction on a public explorer; null on a chain without one (a local anvil). */
export function explorerLink(data: Pick<ReceiptData, 'chainId' | 'transactionHash'>): string | null {
  if (data.chainId === null || !data.transactionHash) return null;
  const preset = findChainPreset(String(data.chainId));
  return preset ? `${preset.explorerUrl}/tx/${data.transactionHash}` : null;
}

export function receiptSubject(data: ReceiptData): string {
  return data.kind === 'refund' ? `Your refund from ${data.merchantName}` : `Your receipt from ${data.merchantName}`;
}

export function receiptEmailText(data: ReceiptData, pageUrl: string): string {
  const paid = data.kind === 'refund' ? 'Amount refunded' : 'Amount paid';
  const lines = data.lines.map((line) => `  ${line.description}: ${formatMoney(line.amount, data.currency)}`);
  const explorer = explorerLink(data);
  return [
    `Receipt from ${data.merchantName}`,
    '',
    data.title,
    `${paid}: ${formatMoney(data.amount, data.currency)}`,
    `Date: ${utcDate(new Date(data.date))}`,
    '',
    ...lines,
    '',
    ...(data.transactionHash
      ? [`Transaction: ${data.transactionHash}${data.chainId !== null ? ` on ${networkName(data.chainId)}` : ''}`]
      : []),
    ...(explorer ? [`View it on the explorer: ${explorer}`] : []),
    `Your receipt: ${pageUrl}`,
    '',
    `Sent on behalf of ${data.merchantName}. Reply to them with any question about this ${data.kind === 'refund' ? 'refund' : 'payment'}.`,
  ].join('\n');
}
