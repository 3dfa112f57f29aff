// One invoice: a preview of what the customer sees (lines and total), the hosted
// page and the PDF, the payment that settles it, and its timeline.
import { useState } from 'react';
import { download } from '../../api.ts';
import { CopyId } from '../../components/CopyId.tsx';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { Link } from '../../components/Link.tsx';
import { MetadataFacts } from '../../components/Metadata.tsx';
import { eventEntries, ObjectEventsError, useObjectEvents } from '../../components/ObjectEvents.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { Timeline, type TimelineEntry } from '../../components/Timeline.tsx';
import { formatAmount, formatDay } from '../../format.ts';
import { detailPath } from '../../router.ts';
import type { Invoice } from '../../types.ts';
import { useObject } from './useObject.ts';

export function InvoiceDetailPage({ id }: { id: string }) {
  const { value: invoice, error } = useObject<Invoice>(`/v1/invoices/${encodeURIComponent(id)}`);
  const [pdfError, setPdfError] = useState<unknown>(null);
  const events = useObjectEvents(id);
  if (!invoice) return <ErrorMessage error={error} />;
  const entries: TimelineEntry[] = [
    { at: invoice.createdAt, title: `Created: ${formatAmount(invoice.total, invoice.currency)}` },
    ...(invoice.sentAt ? [{ at: invoice.sentAt, title: `Emailed to ${invoice.customerEmail ?? 'the customer'}` }] : []),
    ...(invoice.paidAt ? [{ at: invoice.paidAt, title: 'Paid' }] : []),
    ...(invoice.voidedAt ? [{ at: invoice.voidedAt, title: 'Voided' }] : []),
    ...eventEntries(events.events),
  ];
  const hostedUrl = invoice.hostedInvoiceUrl ?? invoice.payUrl;
  return (
    <>
      <div className="detail-actions">
        <StatusBadge status={invoice.status} />
        <CopyId id={invoice.id} />
        <a href={hostedUrl} target="_blank" rel="noreferrer">
          Open the customer's page
        </a>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setPdfError(null);
            download(`/v1/invoices/${invoice.id}/pdf`, `invoice-${invoice.number}.pdf`).catch(setPdfError);
          }}
        >
          Download PDF
        </button>
        {invoice.sessionId && <Link to={detailPath('payments', invoice.sessionId)}>Its payment</Link>}
      </div>
      <ErrorMessage error={pdfError} />
      <section className="card invoice-preview" aria-label="Invoice as the customer sees it">
        <h2>Invoice {invoice.number}</h2>
        <p>
          To {invoice.customerName ?? '—'} {invoice.customerEmail && `<${invoice.customerEmail}>`} · due {formatDay(invoice.dueAt)}
        </p>
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">Lines of invoice {invoice.number}</caption>
            <thead>
              <tr>
                <th scope="col">Description</th>
                <th scope="col" className="num">
                  Quantity
                </th>
                <th scope="col" className="num">
                  Unit price
                </th>
                <th scope="col" className="num">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {invoice.lineItems.map((line, i) => (
                <tr key={i}>
                  <td data-label="Description">{line.description}</td>
                  <td data-label="Quantity" className="num">
                    {line.quantity}
                  </td>
                  <td data-label="Unit price" className="num">
                    {formatAmount(line.unitAmount, invoice.currency)}
                  </td>
                  <td data-label="Amount" className="num">
                    {formatAmount((BigInt(line.unitAmount) * BigInt(line.quantity)).toString(), invoice.currency)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="total">
          Total: <strong data-testid="invoice-detail-total">{formatAmount(invoice.total, invoice.currency)}</strong>
        </p>
        {invoice.note && <p>{invoice.note}</p>}
      </section>
      <section className="card" aria-label="Invoice facts">
        <dl className="facts">
          <MetadataFacts metadata={invoice.metadata} />
        </dl>
      </section>
      <ObjectEventsError error={events.error} />
      <Timeline label="Timeline" entries={entries} />
    </>
  );
}
