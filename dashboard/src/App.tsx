// The shell: login gate, navigation, the mode switch, and the page of the
// current path. Pages remount when the mode changes, so every list reloads.
import { Fragment, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { whenSignedOut } from './api.ts';
import { accessToken, CALLBACK_PATH, finishLogin, signOut, startLogin } from './auth.ts';
import { ErrorMessage } from './components/ErrorMessage.tsx';
import { ModeSwitch } from './components/ModeSwitch.tsx';
import { navigate, usePage } from './router.ts';
import { SessionProvider, useSession } from './session.tsx';
import { HomePage } from './pages/HomePage.tsx';
import { PaymentsPage } from './pages/PaymentsPage.tsx';
import { SubscriptionsPage } from './pages/SubscriptionsPage.tsx';
import { PlansPage } from './pages/PlansPage.tsx';
import { CouponsPage } from './pages/CouponsPage.tsx';
import { MetersPage } from './pages/MetersPage.tsx';
import { InvoicesPage } from './pages/InvoicesPage.tsx';
import { RefundsPage } from './pages/RefundsPage.tsx';
import { CustomersPage } from './pages/CustomersPage.tsx';
import { WebhooksPage } from './pages/WebhooksPage.tsx';
import { ApiKeysPage } from './pages/ApiKeysPage.tsx';
import { AgentsPage } from './pages/AgentsPage.tsx';
import { StorefrontPage } from './pages/StorefrontPage.tsx';
import { SettingsPage } from './pages/SettingsPage.tsx';
import { GoLivePage } from './pages/GoLivePage.tsx';
import { EventsPage } from './pages/EventsPage.tsx';
import { TestClocksPage } from './pages/TestClocksPage.tsx';
import { PaymentDetailPage, type RefundAction } from './pages/detail/PaymentDetailPage.tsx';
import { RefundDialog } from './components/RefundDialog.tsx';
import { SubscriptionDetailPage } from './pages/detail/SubscriptionDetailPage.tsx';
import { CustomerDetailPage } from './pages/detail/CustomerDetailPage.tsx';
import { InvoiceDetailPage } from './pages/detail/InvoiceDetailPage.tsx';
import { EventDetailPage } from './pages/detail/EventDetailPage.tsx';

/** `testOnly`: shown in the navigation in test mode only (test clocks). */
type PageDef = { path: string; title: string; component: ComponentType; testOnly?: boolean };

export const PAGES: PageDef[] = [
  { path: '', title: 'Home', component: HomePage },
  { path: 'payments', title: 'Payments', component: PaymentsPage },
  { path: 'subscriptions', title: 'Subscriptions', component: SubscriptionsPage },
  { path: 'plans', title: 'Plans', component: PlansPage },
  { path: 'coupons', title: 'Coupons', component: CouponsPage },
  { path: 'meters', title: 'Meters', component: MetersPage },
  { path: 'invoices', title: 'Invoices', component: InvoicesPage },
  { path: 'refunds', title: 'Refunds', component: RefundsPage },
  { path: 'customers', title: 'Customers', component: CustomersPage },
  { path: 'webhooks', title: 'Webhooks', component: WebhooksPage },
  { path: 'events', title: 'Events', component: EventsPage },
  { path: 'test-clocks', title: 'Test clocks', component: TestClocksPage, testOnly: true },
  { path: 'api-keys', title: 'API keys', component: ApiKeysPage },
  { path: 'agents', title: 'Agents', component: AgentsPage },
  { path: 'storefront', title: 'Storefront', component: StorefrontPage },
  { path: 'settings', title: 'Settings', component: SettingsPage },
  { path: 'go-live', title: 'Go live', component: GoLivePage },
];

/** The refund button of the payment page: the one-click refund dialog (no button once nothing is left to refund). */
const REFUND_ACTION: RefundAction = ({ session, onRefunded }) => (
  <RefundDialog paymentSessionId={session.id} refundable={session.amountRefundable} onDone={onRefunded} />
);

type DetailDef = { section: string; title: string; component: ComponentType<{ id: string }> };

/** Pages of one object, at /dashboard/<section>/<id>. */
export const DETAILS: DetailDef[] = [
  { section: 'payments', title: 'Payment', component: ({ id }) => <PaymentDetailPage id={id} refundAction={REFUND_ACTION} /> },
  { section: 'subscriptions', title: 'Subscription', component: SubscriptionDetailPage },
  { section: 'customers', title: 'Customer', component: CustomerDetailPage },
  { section: 'invoices', title: 'Invoice', component: InvoiceDetailPage },
  { section: 'events', title: 'Event', component: EventDetailPage },
];

/** The page of a path: a section ("payments") or one object of a section ("payments/ps_…"). */
function resolve(path: string): { title: string; section: string; render: () => ReactNode } | undefined {
  const [section = '', id, ...rest] = path.split('/');
  if (id !== undefined) {
    const detail = rest.length === 0 && id ? DETAILS.find((d) => d.section === section) : undefined;
    if (!detail) return undefined;
    const Detail = detail.component;
    const objectId = decodeURIComponent(id);
    return { title: detail.title, section, render: () => <Detail key={objectId} id={objectId} /> };
  }
  const page = PAGES.find((p) => p.path === section);
  if (!page) return undefined;
  const Page = page.component;
  return { title: page.title, section, render: () => <Page /> };
}

function Shell() {
  const page = usePage();
  const { mode, merchant, error } = useSession();
  const current = resolve(page);
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    document.title = `${current?.title ?? 'Not found'} · StablePay Dashboard`;
    setMenuOpen(false);
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [page, current?.title]);
  return (
    <div className={`shell mode-${mode}`}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="brand">
          <button
            type="button"
            className="menu-toggle secondary"
            aria-expanded={menuOpen}
            aria-controls="nav"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            Menu
          </button>
          <strong>StablePay</strong>
          <span className="merchant-name">{merchant?.name}</span>
        </div>
        <ModeSwitch />
        <button
          type="button"
          className="secondary sign-out"
          onClick={() => {
            signOut();
            location.assign('/dashboard');
          }}
        >
          Sign out
        </button>
      </header>
      {mode === 'live' ? (
        <div className="mode-banner live" role="status">
          Live mode: real funds.
        </div>
      ) : (
        <div className="mode-banner test" role="status">
          Test mode: nothing here moves real funds.
        </div>
      )}
      <div className="body">
        <nav id="nav" className={menuOpen ? 'open' : undefined} aria-label="Dashboard">
          <ul>
            {PAGES.filter((p) => !p.testOnly || mode === 'test').map((p) => (
              <li key={p.path}>
                <a
                  href={p.path ? `/dashboard/${p.path}` : '/dashboard'}
                  aria-current={p.path === page ? 'page' : p.path === current?.section ? 'location' : undefined}
                  onClick={(event) => {
                    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                    event.preventDefault();
                    navigate(p.path);
                  }}
                >
                  {p.title}
                </a>
              </li>
            ))}
          </ul>
          {/* The guides live beside the API, not in the app: plain links leave the dashboard. */}
          <ul aria-label="Developer docs">
            <li>
              <a href="/docs/quickstart">Quickstart</a>
            </li>
            <li>
              <a href="/docs">API reference</a>
            </li>
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          <ErrorMessage error={error} />
          {current ? (
            <>
              <h1>{current.title}</h1>
              <Fragment key={`${mode}|${page}`}>{current.render()}</Fragment>
            </>
          ) : (
            <>
              <h1>Page not found</h1>
              <p>
                <a href="/dashboard">Back to the dashboard</a>
              </p>
            </>
          )}
        </main>
      </div>
    </div>
  );
}

function SignIn({ error }: { error: unknown }) {
  const [starting, setStarting] = useState<unknown>(null);
  return (
    <main className="signin" id="main">
      <div className="card">
        <h1>StablePay Dashboard</h1>
        <p>Sign in with your identity provider to manage payments, subscriptions, keys and webhooks.</p>
        <ErrorMessage error={error ?? starting} />
        <button type="button" onClick={() => startLogin().catch(setStarting)}>
          Sign in
        </button>
      </div>
    </main>
  );
}

export function App() {
  const [state, setState] = useState<{ signedIn: boolean; error: unknown; finishing: boolean }>(() => ({
    signedIn: Boolean(accessToken()),
    error: null,
    finishing: location.pathname === CALLBACK_PATH,
  }));

  useEffect(() => {
    whenSignedOut(() => setState((s) => ({ ...s, signedIn: false })));
    if (location.pathname !== CALLBACK_PATH) return;
    finishLogin()
      .then((returnTo) => {
        history.replaceState(null, '', returnTo);
        setState({ signedIn: true, error: null, finishing: false });
      })
      .catch((error: unknown) => {
        history.replaceState(null, '', '/dashboard');
        setState({ signedIn: false, error, finishing: false });
      });
  }, []);

  if (state.finishing) return <p className="signin">Signing in…</p>;
  if (!state.signedIn) return <SignIn error={state.error} />;
  return (
    <SessionProvider>
      <Shell />
    </SessionProvider>
  );
}
