// Invoices: create with line items (total computed in base units with
// bigint), send by email, void with confirmation, status badges.
import { useState } from 'react';
import { api } from '../api.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { ActionButton, ActionForm, Field, optionalText, text } from '../components/Form.tsx';
import { CsvExport } from '../components/CsvExport.tsx';
import { Link } from '../components/Link.tsx';
import { useListFilters } from '../components/ListFilters.tsx';
import { PaginatedTable } from '../components/PaginatedTable.tsx';
import { decimalAmount } from '../csv.ts';
import { detailPath } from '../router.ts';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { AmountPreview } from '../components/MoneyField.tsx';
import { amountError, formatAmount, formatDate, formatDay, parseAmount } from '../format.ts';
import type { Invoice } from '../types.ts';

// The statuses the API declares (a value it never returns fails the type check).
const STATUSES = ['draft', 'sent', 'paid', 'overdue', 'void'] as const satisfies readonly Invoice['status'][];
type Row = { key: number; description: string; quantity: string; unitPrice: string };

function lineTotal(row: Row): bigint | undefined {
  const unit = parseAmount(row.unitPrice);
  const quantity = /^\d+$/.test(row.quantity) ? BigInt(row.quantity) : undefined;
  return unit === undefined || quantity === undefined ? undefined : BigInt(unit) * quantity;
}

/** The email goes out in the background: wait (bounded) until the mail server accepted it, so the Sent column can show when. */
async function untilSent(id: string): Promise<void> {
  for (let i = 0; i < 30; i++) {
    const invoice = await api.get<Invoice>(`/v1/invoices/${id}`);
    if (invoice.sentAt || invoice.status === 'void') return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

function InvoiceForm({ onCreated }: { onCreated: (invoice: Invoice) => void }) {
  const [rows, setRows] = useState<Row[]>([{ key: 1, description: '', quantity: '1', unitPrice: '' }]);
  const update = (key: number, patch: Partial<Row>) => setRows(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const total = rows.reduce<bigint | undefined>((sum, row) => {
    const line = lineTotal(row);
    return sum === undefined || line === undefined ? undefined : sum + line;
  }, 0n);
  return (
    <ActionForm
      title="Create an invoice"
      submitLabel="Create invoice"
      action={async (form) => {
        const lineItems = rows.map((row, i) => {
          const unitAmount = parseAmount(row.unitPrice);
          if (!unitAmount) throw new Error(`Line ${i + 1}, unit price: ${amountError(row.unitPrice)}`);
          return { description: row.description.trim(), quantity: Number(row.quantity), unitAmount };
        });
        const invoice = await api.post<Invoice>('/v1/invoices', {
          customerName: optionalText(form, 'customerName'),
          customerEmail: optionalText(form, 'customerEmail'),
          currency: 'USDC',
          lineItems,
          note: optionalText(form, 'note'),
          dueInDays: Number(text(form, 'dueInDays') || '30'),
        });
        onCreated(invoice);
        setRows([{ key: Date.now(), description: '', quantity: '1', unitPrice: '' }]);
        (document.getElementById('invoice-form-reset') as HTMLButtonElement | null)?.click();
      }}
    >
      <div className="grid">
        <Field label="Customer name" name="customerName" maxLength={200} />
        <Field label="Customer email" name="customerEmail" type="email" maxLength={320} />
        <Field label="Due in days" name="dueInDays" type="number" min={0} max={365} defaultValue={30} />
        <Field label="Note" name="note" maxLength={2000} />
      </div>
      <fieldset className="line-items">
        <legend>Line items</legend>
        {rows.map((row, i) => (
          <div className="line-item" key={row.key}>
            <label>
              Description {i + 1}
              <input required value={row.description} maxLength={500} onChange={(e) => update(row.key, { description: e.target.value })} />
            </label>
            <label>
              Quantity {i + 1}
              <input required type="number" min={1} value={row.quantity} onChange={(e) => update(row.key, { quantity: e.target.value })} />
            </label>
            <label>
              Unit price {i + 1} (USDC)
              <input
                required
                inputMode="decimal"
                value={row.unitPrice}
                placeholder="0.00"
                onChange={(e) => update(row.key, { unitPrice: e.target.value })}
              />
              <AmountPreview text={row.unitPrice} />
            </label>
            <span className="line-total" aria-label={`Line ${i + 1} total`}>
              {(() => {
                const line = lineTotal(row);
                return line === undefined ? '—' : formatAmount(line.toString());
              })()}
            </span>
            {rows.length > 1 && (
              <button
                type="button"
                className="secondary"
                onClick={() => setRows(rows.filter((r) => r.key !== row.key))}
                aria-label={`Remove line ${i + 1}`}
              >
                Remove
              </button>
            )}
          </div>
        ))}
        <button
          type="button"
          className="secondary"
          onClick={() => setRows([...rows, { key: Date.now(), description: '', quantity: '1', unitPrice: '' }])}
        >
          Add line item
        </button>
        <p className="total">
          Total: <strong data-testid="invoice-total">{total === undefined ? '—' : formatAmount(total.toString())}</strong>
        </p>
      </fieldset>
      <button type="reset" id="invoice-form-reset" hidden />
    </ActionForm>
  );
}

export function InvoicesPage() {
  const filters = useListFilters(STATUSES, 'Number, id or customer email', { byMetadata: true });
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState('');
  const reload = () => setVersion((v) => v + 1);
  return (
    <>
      <InvoiceForm onCreated={reload} />
      <ErrorMessage error={error} />
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      {filters.element}
      <CsvExport<Invoice>
        path="/v1/invoices"
        query={filters.query}
        filename="invoices"
        columns={[
          { header: 'number', value: (i) => i.number },
          { header: 'id', value: (i) => i.id },
          { header: 'customer_name', value: (i) => i.customerName },
          { header: 'customer_email', value: (i) => i.customerEmail },
          { header: 'total', value: (i) => decimalAmount(i.total) },
          { header: 'currency', value: (i) => i.currency },
          { header: 'status', value: (i) => i.status },
          { header: 'due_at', value: (i) => i.dueAt },
          { header: 'sent_at', value: (i) => i.sentAt },
          { header: 'created_at', value: (i) => i.createdAt },
        ]}
      />
      <PaginatedTable<Invoice>
        caption="Invoices"
        reloadKey={`${filters.key}|${version}`}
        load={(cursor) => api.list<Invoice>('/v1/invoices', cursor, filters.query)}
        columns={[
          { header: 'Number', cell: (i) => <Link to={detailPath('invoices', i.id)}>{i.number}</Link> },
          { header: 'Customer', cell: (i) => i.customerName ?? i.customerEmail ?? '—' },
          { header: 'Total', cell: (i) => formatAmount(i.total, i.currency), className: 'num' },
          { header: 'Status', cell: (i) => <StatusBadge status={i.status} /> },
          { header: 'Due', cell: (i) => formatDay(i.dueAt) },
          { header: 'Sent', cell: (i) => (i.sentAt ? formatDate(i.sentAt) : i.status === 'sent' ? 'Sending…' : '—') },
          {
            header: 'Actions',
            cell: (i) => (
              <span className="row-actions">
                {i.status === 'draft' && (
                  <ActionButton
                    label="Send"
                    ariaLabel={`Send ${i.number}`}
                    action={async () => {
                      await api.post(`/v1/invoices/${i.id}/send`);
                      reload();
                      await untilSent(i.id);
                      reload();
                    }}
                  />
                )}
                {(i.status === 'sent' || i.status === 'overdue') && i.sentAt && (
                  <ActionButton
                    label="Resend"
                    ariaLabel={`Resend ${i.number}`}
                    action={async () => {
                      await api.post(`/v1/invoices/${i.id}/send`);
                      setNotice(`Invoice ${i.number} emailed again to ${i.customerEmail ?? 'the customer'}.`);
                    }}
                  />
                )}
                {i.status !== 'paid' && i.status !== 'void' && (
                  <ConfirmButton
                    label="Void"
                    ariaLabel={`Void ${i.number}`}
                    question={`Void invoice ${i.number}? Its pay link stops working.`}
                    confirmLabel="Void"
                    onConfirm={() => api.post(`/v1/invoices/${i.id}/void`).then(reload, setError)}
                  />
                )}
                <a href={i.payUrl} target="_blank" rel="noreferrer">
                  Pay link
                </a>
              </span>
            ),
          },
        ]}
        empty="No invoices match. Create one above."
      />
    </>
  );
}
