// Storefront: edit the public store page, add and archive products, and a
// link to the public page.
import { useEffect, useState } from 'react';
import { ApiError, api, listAll } from '../api.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { CopyId } from '../components/CopyId.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { ActionForm, Field, Select, text } from '../components/Form.tsx';
import { PaginatedTable } from '../components/PaginatedTable.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { MoneyField } from '../components/MoneyField.tsx';
import { amountError, describeInterval, formatAmount, formatDate, parseAmount } from '../format.ts';
import type { Plan, Product, Storefront } from '../types.ts';

/** Empty optional fields clear the value (null); the slug and name are always sent. */
const nullable = (form: FormData, name: string) => text(form, name) || null;

export function StorefrontPage() {
  const [store, setStore] = useState<Storefront | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);
  const [plans, setPlans] = useState<Plan[]>([]);

  useEffect(() => {
    listAll<Plan>('/v1/subscription-plans').then(setPlans, setError);
  }, []);

  useEffect(() => {
    api.get<Storefront>('/v1/storefront').then(
      (s) => {
        setStore(s);
        setLoaded(true);
      },
      (e: unknown) => {
        if (!(e instanceof ApiError && e.code === 'not_found')) setError(e);
        setLoaded(true);
      },
    );
  }, []);

  // Archived plans take no new subscribers: they are not offered for new products.
  const sellable = plans.filter((p) => !p.archived);

  if (!loaded) return <ErrorMessage error={error} />;
  return (
    <>
      <ErrorMessage error={error} />
      {store && (
        <p className="notice">
          Your public store page:{' '}
          <a href={store.url} target="_blank" rel="noreferrer">
            {store.url}
          </a>
        </p>
      )}
      <ActionForm
        key={store?.id ?? 'new'}
        title={store ? 'Store page' : 'Create your store page'}
        submitLabel={store ? 'Save store page' : 'Create store page'}
        action={async (form) => {
          setStore(
            await api.post<Storefront>('/v1/storefront', {
              slug: text(form, 'slug'),
              name: text(form, 'name'),
              description: nullable(form, 'description'),
              logoUrl: nullable(form, 'logoUrl'),
              accentColor: text(form, 'accentColor'),
              supportEmail: nullable(form, 'supportEmail'),
              successUrl: nullable(form, 'successUrl'),
              cancelUrl: nullable(form, 'cancelUrl'),
            }),
          );
        }}
      >
        <div className="grid">
          <Field
            label="Slug"
            name="slug"
            required
            defaultValue={store?.slug}
            hint="The address: /store/{slug}"
            pattern="[a-z0-9\-]{3,40}"
          />
          <Field label="Shop name" name="name" required defaultValue={store?.name} maxLength={120} />
          <Field label="Description" name="description" defaultValue={store?.description ?? ''} maxLength={2000} />
          <Field label="Logo URL (https)" name="logoUrl" type="url" defaultValue={store?.logoUrl ?? ''} />
          <Field label="Accent colour" name="accentColor" type="color" defaultValue={store?.accentColor ?? '#2b59c3'} />
          <Field label="Support email" name="supportEmail" type="email" defaultValue={store?.supportEmail ?? ''} />
          <Field label="Success URL" name="successUrl" type="url" defaultValue={store?.successUrl ?? ''} />
          <Field label="Cancel URL" name="cancelUrl" type="url" defaultValue={store?.cancelUrl ?? ''} />
        </div>
      </ActionForm>
      {store && (
        <>
          <ActionForm
            title="Add a product"
            submitLabel="Add product"
            action={async (form) => {
              const planId = text(form, 'planId');
              const amount = planId ? undefined : parseAmount(text(form, 'amount'));
              if (!planId && !amount)
                throw new Error(
                  text(form, 'amount')
                    ? `Price: ${amountError(text(form, 'amount'))}`
                    : 'Enter a price in USDC, or choose a plan for a subscription product.',
                );
              await api.post('/v1/storefront/products', {
                name: text(form, 'name'),
                description: text(form, 'description') || undefined,
                imageUrl: text(form, 'imageUrl') || undefined,
                ...(planId ? { planId } : { amount }),
              });
              reload();
            }}
          >
            <div className="grid">
              <Field label="Product name" name="name" required maxLength={120} />
              <Field label="Description" name="description" maxLength={2000} />
              <Field label="Image URL (https)" name="imageUrl" type="url" />
              <MoneyField label="Price (USDC)" name="amount" />
              <Select
                label="Or sell a subscription to"
                name="planId"
                defaultValue=""
                options={[
                  { value: '', label: sellable.length ? 'No plan (one-time product)' : 'No plans on sale: create one under Plans' },
                  ...sellable.map((p) => ({
                    value: p.id,
                    label: `${p.name} (${formatAmount(p.amount, p.currency)} ${describeInterval(p)})`,
                  })),
                ]}
              />
            </div>
          </ActionForm>
          <PaginatedTable<Product>
            caption="Products"
            reloadKey={version}
            load={(cursor) => api.list<Product>('/v1/storefront/products', cursor)}
            columns={[
              {
                header: 'Product',
                cell: (p) => (
                  <>
                    {p.name}
                    <div>
                      <CopyId id={p.id} />
                    </div>
                  </>
                ),
              },
              { header: 'Price', cell: (p) => (p.amount ? formatAmount(p.amount, p.currency) : '—'), className: 'num' },
              {
                header: 'Kind',
                cell: (p) => (p.planId ? `Subscription: ${plans.find((plan) => plan.id === p.planId)?.name ?? p.planId}` : 'One-time'),
              },
              { header: 'Status', cell: (p) => <StatusBadge status={p.archived ? 'archived' : 'active'} /> },
              { header: 'Created', cell: (p) => formatDate(p.createdAt) },
              {
                header: 'Archive',
                cell: (p) =>
                  p.archived ? (
                    '—'
                  ) : (
                    <ConfirmButton
                      label="Archive"
                      ariaLabel={`Archive ${p.name}`}
                      question="Archive this product? It leaves the store page for good."
                      confirmLabel="Archive"
                      onConfirm={() => api.post(`/v1/storefront/products/${p.id}/archive`).then(reload, setError)}
                    />
                  ),
              },
            ]}
            empty="No products yet."
          />
        </>
      )}
    </>
  );
}
