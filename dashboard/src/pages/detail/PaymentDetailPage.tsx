// One payment session: what was asked, who paid with which transaction, and
// everything that happened to it (transactions, completion, refunds, events sent).
import { useEffect, useState, type ComponentType } from 'react';
import { sessionNetwork } from '../../chain.ts';
import { CopyId } from '../../components/CopyId.tsx';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { FailureNote } from '../../components/FailureNote.tsx';
import { Link } from '../../components/Link.tsx';
import { MetadataFacts } from '../../components/Metadata.tsx';
import { eventEntries, ObjectEventsError, useObjectEvents } from '../../components/ObjectEvents.tsx';
import { transactionEntries, useSessionTransactions } from '../../components/SessionTransactions.tsx';
import { PaymentStatus } from '../../components/PaymentStatus.tsx';
import { Timeline, type TimelineEntry } from '../../components/Timeline.tsx';
import { TxHash } from '../../components/TxHash.tsx';
import { formatAmount, formatDate } from '../../format.ts';
import { paidFor, withInvoiceNumbers, type SessionWithInvoice } from '../../invoiceNumbers.ts';
import { detailPath } from '../../router.ts';
import type { PaymentSession } from '../../types.ts';
import { useObject } from './useObject.ts';

/**
 * The refund action of the page: the refund dialog of issue #26 plugs in here (App passes it).
 * It gets the session and calls `onRefunded` so the page reloads its transactions (refunds among them).
 */
export type RefundAction = ComponentType<{ session: PaymentSession; onRefunded: () => void }>;

export function PaymentDetailPage({ id, refundAction: RefundButton }: { id: string; refundAction?: RefundAction }) {
  const { value: loaded, error, reload } = useObject<PaymentSession>(`/v1/payment-sessions/${encodeURIComponent(id)}`);
  const [session, setSession] = useState<SessionWithInvoice | null>(null);
  const [transactionsVersion, setTransactionsVersion] = useState(0);
  const chain = useSessionTransactions(id, transactionsVersion);
  const events = useObjectEvents(id);

  useEffect(() => {
    if (loaded) void withInvoiceNumbers({ data: [loaded], nextCursor: '', hasMore: false }).then((page) => setSession(page.data[0]!));
  }, [loaded]);

  if (!session) return <ErrorMessage error={error} />;
  const chainId = session.chainId ?? 0;
  // Where it was paid (a session accepting several chains is paid on one of them), for the paying hash's link.
  const paidOn = session.transactionChainId ?? chainId;
  // Every transaction the API knows of the session (relayed payments, deposits, sweeps, refunds); a paying
  // hash it has no record of (a session completed before transactions were recorded) still shows.
  const listed = new Set(chain.transactions.map((tx) => tx.transactionHash));
  const transactionHashes = chain.loaded
    ? [...new Set([session.transactionHash, session.x402?.transaction].filter((h): h is string => Boolean(h) && !listed.has(h ?? null)))]
    : [];
  const entries: TimelineEntry[] = [
    {
      at: session.createdAt,
      title: `Created for ${formatAmount(session.amount, session.currency)}`,
      detail: `Pay to ${session.payTo ?? '—'}`,
    },
    ...transactionEntries(chain.transactions, chainId, session.currency),
    ...transactionHashes.map((hash) => ({
      at: session.completedAt,
      title: 'Transaction confirmed on chain',
      detail: (
        <>
          <TxHash hash={hash} chainId={paidOn} />
          {session.payer && (
            <div>
              From <code>{session.payer}</code>
            </div>
          )}
        </>
      ),
    })),
    ...(session.completedAt
      ? [{ at: session.completedAt, title: 'Completed', detail: 'The payment reached its required confirmations.' }]
      : []),
    ...(session.status === 'expired' ? [{ at: session.expiresAt ?? null, title: 'Expired without a payment' }] : []),
    ...eventEntries(events.events),
  ];

  return (
    <>
      <div className="detail-actions">
        <PaymentStatus session={session} />
        <CopyId id={session.id} />
        <a href={session.checkoutUrl} target="_blank" rel="noreferrer">
          Open checkout
        </a>
        {RefundButton && (
          <RefundButton
            session={session}
            onRefunded={() => {
              reload();
              setTransactionsVersion((v) => v + 1);
            }}
          />
        )}
      </div>
      <section className="card" aria-label="Payment">
        <h2>{formatAmount(session.amount, session.currency)}</h2>
        <dl className="facts">
          <dt>For</dt>
          <dd>{session.invoiceId ? <Link to={detailPath('invoices', session.invoiceId)}>{paidFor(session)}</Link> : paidFor(session)}</dd>
          <dt>Payer</dt>
          <dd>{session.payer ? <code>{session.payer}</code> : '—'}</dd>
          <dt>Customer</dt>
          <dd data-testid="payment-customer">
            {session.customerId ? <Link to={detailPath('customers', session.customerId)}>{session.customerId}</Link> : '—'}
          </dd>
          {session.customerEmail && (
            <>
              <dt>Email given at checkout</dt>
              <dd>{session.customerEmail}</dd>
            </>
          )}
          <dt>Paid to</dt>
          <dd>{session.payTo ? <code>{session.payTo}</code> : '—'}</dd>
          <dt>Chain</dt>
          <dd>{sessionNetwork(session)}</dd>
          {session.lastPaymentError && (
            <>
              <dt>Last payment error</dt>
              <dd>
                <FailureNote code={session.lastPaymentError.code} reason={session.lastPaymentError.reason} />
              </dd>
            </>
          )}
          {session.deposit && (
            <>
              <dt>Deposit address</dt>
              <dd>
                <code>{session.deposit.address}</code>
              </dd>
              <dt>Received</dt>
              <dd>
                {formatAmount(session.deposit.amountReceived, session.currency)}
                {session.deposit.amountExcess !== '0' &&
                  ` (${formatAmount(session.deposit.amountExcess, session.currency)} more than asked)`}
              </dd>
            </>
          )}
          <dt>Refundable</dt>
          <dd data-testid="amount-refundable">{formatAmount(session.amountRefundable, session.currency)}</dd>
          <dt>Created</dt>
          <dd>{formatDate(session.createdAt)}</dd>
          <dt>Completed</dt>
          <dd>{formatDate(session.completedAt)}</dd>
          <MetadataFacts metadata={session.metadata} />
        </dl>
      </section>
      <ErrorMessage error={chain.error} />
      <ObjectEventsError error={events.error} />
      <Timeline label="Timeline" entries={entries} />
    </>
  );
}
