// The receipt of a paid subscription charge as a PDF (pdfkit, as the invoice PDF): merchant, dates,
// the receipt lines (plan, discount) and the total the token moved, with its transaction.
import PDFDocument from 'pdfkit';
import { formatMoney } from '../money/format.js';
import type { ChargeRow } from './repo.js';
import { receiptLines } from './receipt.js';

const MARGIN = 50;
const AMOUNT_X = 400;
const RIGHT = 545;
const day = (date: Date) => date.toISOString().slice(0, 10);

export function renderChargeReceiptPdf(row: ChargeRow, merchantName: string, currency: string): Promise<Buffer> {
  const paidAt = row.settledAt ?? row.attemptedAt ?? row.createdAt;
  // A fixed creation date keeps the bytes a function of the charge only.
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: `Receipt ${row.id}`, Author: merchantName, CreationDate: paidAt },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  pdf.font('Helvetica-Bold').fontSize(20).text(merchantName);
  pdf.moveDown(0.5).fontSize(14).text('Receipt');
  pdf.font('Helvetica').fontSize(10).moveDown(0.5);
  pdf.text(`Receipt for: ${row.id}`);
  pdf.text(`Subscription: ${row.subscriptionId}`);
  pdf.text(`Period starting: ${day(row.periodStart)}`);
  pdf.text(`Paid: ${day(paidAt)}`);
  pdf.moveDown();

  const line = (description: string, amount: string, bold = false) => {
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    const y = pdf.y;
    pdf.text(description, MARGIN, y, { width: AMOUNT_X - MARGIN - 10 });
    const bottom = pdf.y;
    pdf.text(amount, AMOUNT_X, y, { width: RIGHT - AMOUNT_X, align: 'right' });
    pdf.x = MARGIN;
    pdf.y = Math.max(bottom, pdf.y) + 4;
  };
  line('Description', 'Amount', true);
  for (const item of receiptLines(row, currency)) line(item.description, formatMoney(item.amount, currency));
  pdf.moveTo(MARGIN, pdf.y).lineTo(RIGHT, pdf.y).stroke();
  pdf.y += 6;
  line('Total paid', formatMoney(row.amount, currency), true);

  if (row.txHash) pdf.moveDown().font('Helvetica').text(`Transaction (chain ${row.chainId}): ${row.txHash}`, MARGIN);
  pdf.end();
  return done;
}
