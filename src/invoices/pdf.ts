// The invoice as a PDF, drawn with pdfkit from the same document the hosted page shows.
import PDFDocument from 'pdfkit';
import type { InvoiceDocument } from './page-text.js';

const MARGIN = 50;
const COLUMNS = { description: MARGIN, quantity: 300, unit: 350, amount: 450 } as const;
const RIGHT = 545;

export function renderInvoicePdf(doc: InvoiceDocument): Promise<Buffer> {
  // A fixed creation date keeps the bytes a function of the invoice only (same invoice, same file).
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: `Invoice ${doc.number}`, Author: doc.merchantName, CreationDate: new Date(doc.issuedOn) },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  pdf.font('Helvetica-Bold').fontSize(20).text(doc.merchantName);
  pdf.moveDown(0.5).fontSize(14).text(`Invoice ${doc.number}`);
  pdf.font('Helvetica').fontSize(10).moveDown(0.5);
  pdf.text(`Status: ${doc.status}`);
  pdf.text(`Issued: ${doc.issuedOn}`);
  pdf.text(`Due: ${doc.dueOn}`);
  if (doc.paidOn) pdf.text(`Paid: ${doc.paidOn}`);
  pdf.moveDown();
  pdf.font('Helvetica-Bold').text('Bill to');
  pdf.font('Helvetica');
  if (doc.customerName) pdf.text(doc.customerName);
  pdf.text(doc.customerEmail ?? '-');
  pdf.moveDown();

  const row = (cells: [string, string, string, string], bold = false) => {
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    const y = pdf.y;
    pdf.text(cells[0], COLUMNS.description, y, { width: COLUMNS.quantity - COLUMNS.description - 10 });
    const bottom = pdf.y;
    pdf.text(cells[1], COLUMNS.quantity, y, { width: COLUMNS.unit - COLUMNS.quantity - 10, align: 'right' });
    pdf.text(cells[2], COLUMNS.unit, y, { width: COLUMNS.amount - COLUMNS.unit - 10, align: 'right' });
    pdf.text(cells[3], COLUMNS.amount, y, { width: RIGHT - COLUMNS.amount, align: 'right' });
    pdf.x = MARGIN;
    pdf.y = Math.max(bottom, pdf.y) + 4;
  };
  row(['Description', 'Qty', 'Unit price', 'Amount'], true);
  for (const line of doc.lines) row([line.description, line.quantity, line.unitAmount, line.amount]);
  pdf.moveTo(MARGIN, pdf.y).lineTo(RIGHT, pdf.y).stroke();
  pdf.y += 6;
  row(['Total', '', '', doc.total], true);

  if (doc.note) pdf.moveDown().font('Helvetica').text(doc.note, MARGIN);
  pdf.moveDown().font('Helvetica').text('View and pay this invoice online:', MARGIN);
  pdf.fillColor('#1a56db').text(doc.hostedUrl, { link: doc.hostedUrl, underline: true }).fillColor('black');
  pdf.end();
  return done;
}
