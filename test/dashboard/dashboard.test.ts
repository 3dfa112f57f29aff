// The web dashboard in a real browser: headless Chromium (playwright-core)
// against the real app on 127.0.0.1 (which serves the built SPA at
// /dashboard), Postgres, a worker on the Temporal dev server, the dev identity
// provider (authorization code + PKCE) and an SMTP sink. A merchant signs in
// and walks the main journeys; screenshots of every page at desktop and phone
// widths go to .data/screenshots/dashboard/ (git-ignored; `npm run
// dashboard:screenshots` runs this file).
import { mkdir, readFile } from 'node:fs/promises';
import { generate as totpCode } from 'otplib';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { describeRefusal } from '../../src/chain/refusals.js';
import type { DevIdentityProvider } from '../../tools/dev/identity-provider.js';
import { startSmtpSink, type SmtpSink } from '../../tools/dev/smtp-sink.js';
import { createMailer, type Mailer } from '../../src/email/mailer.js';
import { newId } from '../../src/ids.js';
import type { SeededMerchant } from '../support/app.js';
import { settingsOf, sharedChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { DASHBOARD_CLIENT_ID, signInToDashboard, startDashboardStack, type DashboardStack } from '../support/dashboard-stack.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';

const SCREENSHOT_DIR = '.data/screenshots/dashboard';
const OWNER = { subject: 'dev|dashboard-test-owner', email: 'owner@example.com', name: 'North Roastery' };
/** Webhook hosts the api's URL check resolves to a public address (the machine has no DNS). */
const dns: Record<string, string[]> = { 'hooks.example': ['93.184.215.14'] };

let db: TestDatabase;
let sink: SmtpSink;
let mailer: Mailer;
let temporal: DevServerWorker;
let idp: DevIdentityProvider;
let merchant: SeededMerchant;
let baseUrl: string;
let context: BrowserContext;
let dashboard: DashboardStack;
let page: Page;
/** Console errors and warnings of the dashboard page (e.g. an invalid `pattern` attribute). */
const consoleProblems: string[] = [];

/** A few months of subscriptions, charges and payments, so every chart has data. */
async function seedAnalytics(merchantId: string): Promise<void> {
  const sql = db.sql;
  const monthsAgo = (n: number, day = 5) => {
    const now = new Date();
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - n, day)).toISOString();
  };
  const plan = newId('plan');
  await sql`insert into subscription_plans (id, merchant_id, livemode, name, amount, currency, interval, interval_count, trial_period_days)
            values (${plan}, ${merchantId}, false, 'Coffee club', 30000000, 'USDC', 'monthly', 1, 0)`;
  for (let i = 0; i < 8; i++) {
    const createdAt = monthsAgo(6 - (i % 6), 3 + i);
    const customer = newId('customer');
    const wallet = `0x${(0xd00 + i).toString(16).padStart(40, '0')}`;
    await sql`insert into customers (id, merchant_id, livemode, wallet_address, created_at) values (${customer}, ${merchantId}, false, ${wallet}, ${createdAt})`;
    const subscription = newId('subscription');
    await sql`
      insert into subscriptions (id, merchant_id, livemode, plan_id, customer_id, status, chain_id, contract_address, on_chain_id,
        subscriber_address, token_address, amount, period_seconds, periods, first_period_start, current_period_index,
        next_charge_at, created_at, updated_at)
      values (${subscription}, ${merchantId}, false, ${plan}, ${customer}, 'active', 31337,
        '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512', ${1000 + i}, ${wallet},
        '0x5fbdb2315678afecb367f032d93f642f64180aa3', ${String(10_000_000 * (1 + (i % 3)))}, 2592000, 0, ${createdAt}, 0,
        now() + interval '10 days', ${createdAt}, ${createdAt})`;
    await sql`insert into subscription_charges (id, merchant_id, livemode, subscription_id, period_index, period_start, amount, status, attempts, settled_at)
              values (${newId('subscriptionCharge')}, ${merchantId}, false, ${subscription}, 0, ${createdAt}, ${String(10_000_000 * (1 + (i % 3)))}, 'succeeded', 1, ${createdAt})`;
    if (i % 4 === 3) {
      const cancelledAt = monthsAgo(1, 10 + i);
      await sql`update subscriptions set status = 'cancelled', cancelled_at = ${cancelledAt}, updated_at = ${cancelledAt} where id = ${subscription}`;
    }
  }
  for (let i = 0; i < 10; i++) {
    const createdAt = monthsAgo(i % 5, 12);
    await sql`insert into payment_sessions (id, merchant_id, livemode, amount, currency, status, pay_to, token, chain_id, expires_at, created_at)
              values (${newId('paymentSession')}, ${merchantId}, false, ${String(2_500_000 * (i + 1))}, 'USDC', ${i % 3 === 0 ? 'expired' : 'completed'},
                      ${DEV_ACCOUNTS.merchant.address}, '0x5fbdb2315678afecb367f032d93f642f64180aa3', 31337,
                      ${createdAt}::timestamptz + interval '1 day', ${createdAt})`;
  }
}

async function apiCall(method: string, path: string, key: string, body?: object) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as { error?: { code: string }; [field: string]: unknown } };
}

/** The KPI cards form full rows: no card sits alone on a row (the sixth wrapped alone at 1280 px). */
async function expectEvenMetricRows(): Promise<void> {
  const tops = await page
    .getByTestId('metrics')
    .locator('.metric')
    .evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().top)));
  const perRow = [...tops.reduce((rows, top) => rows.set(top, (rows.get(top) ?? 0) + 1), new Map<number, number>()).values()];
  expect(tops.length).toBe(6);
  expect(new Set(perRow).size).toBe(1);
}

/**
 * Elements that stick out of the viewport to the right (the page scrolls sideways). Content inside a
 * container that scrolls or clips horizontally (a table's own scroll box) is fine.
 */
async function horizontalOverflow(target: Page): Promise<string[]> {
  return target.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clipped = (element: Element): boolean => {
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const overflowX = getComputedStyle(parent).overflowX;
        if (overflowX === 'auto' || overflowX === 'scroll' || overflowX === 'hidden' || overflowX === 'clip') return true;
      }
      return false;
    };
    const offenders: string[] = [];
    for (const element of document.body.querySelectorAll('*')) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.right <= width + 1 || clipped(element)) continue;
      const style = getComputedStyle(element);
      if (style.position === 'fixed' || style.visibility === 'hidden') continue;
      const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${element.className && typeof element.className === 'string' ? `.${element.className.split(' ').join('.')}` : ''}`;
      offenders.push(`${name} right=${Math.round(rect.right)} (viewport ${width}): ${(element.textContent ?? '').trim().slice(0, 40)}`);
    }
    if (document.documentElement.scrollWidth > width + 1)
      offenders.push(`document scrollWidth ${document.documentElement.scrollWidth} > ${width}`);
    return offenders;
  });
}

/** Clicks `button` and returns the text of the file the page downloads. */
async function downloaded(button: Locator): Promise<{ name: string; text: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const bytes = await readFile((await file.path())!);
  return { name: file.suggestedFilename(), text: bytes.toString('utf8'), bytes };
}

/**
 * True once the API document has this operation (and query parameter): the API half of #28 (events, list
 * search, invoice PDFs) is built on another branch, and the browser tests of those parts wait for it.
 */
async function apiHas(path: string, param?: string): Promise<boolean> {
  const doc = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as {
    paths: Record<string, { get?: { parameters?: { name: string }[] } }>;
  };
  const get = doc.paths[path]?.get;
  return Boolean(get) && (!param || Boolean(get!.parameters?.some((p) => p.name === param)));
}

/** A timestamp column of a payment session as the API renders it (ISO, milliseconds, Z). */
async function rowTime(id: string, column: 'created_at' | 'completed_at'): Promise<string> {
  const [row] = await db.sql<{ at: Date }[]>`select ${db.sql(column)} as at from payment_sessions where id = ${id}`;
  return row!.at.toISOString();
}

/** Detail pages the layout test visits too (filled by the tests that open them). */
const DETAIL_PAGES: { path: string; heading: string }[] = [];

async function open(name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

beforeAll(async () => {
  db = await createTestDatabase();
  sink = await startSmtpSink();
  mailer = createMailer({ smtpUrl: sink.smtpUrl, from: 'StablePay <no-reply@stablepay.local>' });
  const chain = { test: settingsOf(sharedChain()) };
  temporal = await startDevServerWorker(db.sql, { chain, mailer });
  dashboard = await startDashboardStack({
    sql: db.sql,
    temporal,
    chain,
    owner: OWNER,
    payout: DEV_ACCOUNTS.merchant.address,
    webhookResolver: async (host) => dns[host] ?? [],
  });
  ({ idp, merchant, baseUrl, context, page } = dashboard);
  await seedAnalytics(merchant.merchantId);
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') consoleProblems.push(message.text());
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
});

afterAll(async () => {
  await dashboard?.close();
  await temporal?.stop();
  mailer?.close();
  await sink?.stop();
  await db?.drop();
});

describe('serving', () => {
  it('serves index.html without caching, hashed assets as immutable, SPA paths, config and the / redirect', async () => {
    const index = await fetch(`${baseUrl}/dashboard`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-security-policy')).toContain(`connect-src 'self' ${idp.issuer}`);
    const html = await index.text();
    const asset = /\/dashboard\/assets\/index-[A-Za-z0-9_-]+\.js/.exec(html)?.[0];
    expect(asset).toBeDefined();
    const script = await fetch(`${baseUrl}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(script.headers.get('content-type')).toContain('text/javascript');

    const deep = await fetch(`${baseUrl}/dashboard/webhooks`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toBe(html);
    expect((await fetch(`${baseUrl}/dashboard/assets/..%2F..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${baseUrl}/dashboard/assets/nope-123.js`)).status).toBe(404);

    const root = await fetch(`${baseUrl}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/dashboard');
    expect(await (await fetch(`${baseUrl}/dashboard/config.json`)).json()).toEqual({
      issuer: idp.issuer,
      clientId: DASHBOARD_CLIENT_ID,
      audience: idp.audience,
    });
  });
});

describe('journeys', () => {
  it('signs in through the identity provider (authorization code + PKCE)', async () => {
    await page.goto(`${baseUrl}/dashboard`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/authorize\?/);
    expect(await page.getByLabel('Email').inputValue()).toBe(OWNER.email); // prefilled with the first known user
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${baseUrl}/dashboard`);
    // The merchant loads after the token exchange: on a busy machine that took longer than the poll's default second.
    await expect.poll(() => page.locator('.merchant-name').textContent(), { timeout: 15_000 }).toBe(OWNER.name);
    // The token stays in this tab's sessionStorage and reaches only the API.
    expect(await page.evaluate(() => Object.keys(sessionStorage))).toContain('stablepay.session');
  });

  it('renders the analytics charts with data', async () => {
    await page.getByTestId('chart-mrr').locator('.recharts-line-curve').first().waitFor();
    for (const chart of ['chart-mrr', 'chart-conversion']) {
      expect(await page.getByTestId(chart).locator('.recharts-line-curve').count()).toBeGreaterThan(0);
    }
    for (const chart of ['chart-churn', 'chart-forecast']) {
      await page.getByTestId(chart).locator('.recharts-bar-rectangle path').first().waitFor();
    }
    const metrics = await page.getByTestId('metrics').textContent();
    expect(metrics).toMatch(/MRR\s*[1-9][\d,]*\.\d{2} USDC/);
    await page.getByRole('table', { name: 'Recent payment sessions' }).getByText('USDC').first().waitFor();
    for (const chart of ['chart-mrr', 'chart-churn', 'chart-conversion', 'chart-forecast'])
      expect(await page.getByTestId(`${chart}-empty`).count()).toBe(0);
    await expectEvenMetricRows();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-home.png`, fullPage: true });
  });

  it('issues a read-only key that is refused on a write, then revokes it', async () => {
    await open('API keys');
    await page.getByLabel('Name').fill('Reporting');
    await page.getByLabel('Preset: read-only').check();
    await page.getByRole('button', { name: 'Issue key' }).click();
    const secret = (await page.getByTestId('secret-value').textContent())!.trim();
    expect(secret).toMatch(/^sk_test_/);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-key-secret.png` });

    const read = await apiCall('GET', '/v1/subscription-plans', secret);
    expect(read.status).toBe(200);
    const write = await apiCall('POST', '/v1/subscription-plans', secret, { name: 'Nope', amount: '1000000', interval: 'monthly' });
    expect(write.status).toBe(403);
    expect(write.body.error?.code).toBe('permission_denied');

    await page.getByRole('button', { name: 'Done' }).click();
    const last4 = secret.slice(-4);
    await page.getByRole('button', { name: `Revoke sk_test_…${last4}` }).click();
    await page.getByRole('button', { name: 'Revoke', exact: true }).click();
    const row = page.getByRole('row').filter({ hasText: `sk_test_…${last4}` });
    await row.getByText('revoked').waitFor();
    expect((await apiCall('GET', '/v1/subscription-plans', secret)).body.error?.code).toBe('authentication_error');
    await page.getByRole('table', { name: 'Key audit log' }).getByText('revoked').first().waitFor();
  });

  it('registers a webhook endpoint (secret shown once)', async () => {
    await open('Webhooks');
    await page.getByLabel('Endpoint URL').fill('https://hooks.example/stablepay');
    await page.getByLabel('Description').fill('Main');
    await page.getByLabel('Every event (*)').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect((await page.getByTestId('secret-value').textContent())!.trim()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('table', { name: 'Endpoints' }).getByText('https://hooks.example/stablepay').waitFor();
  });

  it('creates a plan', async () => {
    await open('Plans');
    await page.getByLabel('Name').fill('Espresso monthly');
    await page.getByLabel('Price (USDC)').fill('12.5');
    await page.getByLabel('Interval', { exact: true }).selectOption('monthly');
    await page.getByLabel('If the first charge after the trial fails').selectOption('pause');
    await page.getByRole('button', { name: 'Create plan' }).click();
    await page.getByRole('status').filter({ hasText: 'Espresso monthly' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Espresso monthly' });
    expect(await row.textContent()).toContain('12.50 USDC');
    const [stored] = await db.sql<{ trialEndBehavior: string }[]>`
      select trial_end_behavior as "trialEndBehavior" from subscription_plans where merchant_id = ${merchant.merchantId} and name = 'Espresso monthly'`;
    expect(stored!.trialEndBehavior).toBe('pause');
  });

  it('words a multi-period plan plainly and copies plan ids', async () => {
    await page.getByLabel('Name').fill('Beans every half year');
    await page.getByLabel('Price (USDC)').fill('60');
    await page.getByLabel('Interval', { exact: true }).selectOption('quarterly');
    await page.getByLabel('Interval count').fill('2');
    await page.getByRole('button', { name: 'Create plan' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'Beans every half year' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('60.00 USDC every 2 quarters');
    const row = page.getByRole('table', { name: 'Plans' }).getByRole('row').filter({ hasText: 'Beans every half year' });
    expect(await row.locator('td[data-label="Interval"]').textContent()).toBe('every 2 quarters');
    const id = (await row.locator('td[data-label="Id"] code').textContent())!;
    expect(id).toMatch(/^plan_/);
    await row.getByRole('button', { name: `Copy ${id}` }).click();
    await row
      .getByRole('button', { name: `Copy ${id}` })
      .getByText('Copied')
      .waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(id);
  });

  it('renames a plan (only its name: the price stays) and archives it after a confirmation', async () => {
    const table = page.getByRole('table', { name: 'Plans' });
    const row = table.getByRole('row').filter({ hasText: 'Beans every half year' });
    const id = (await row.locator('td[data-label="Id"] code').textContent())!;
    await row.getByRole('button', { name: 'Edit Beans every half year' }).click();
    const form = page.getByRole('form', { name: 'Edit “Beans every half year”' });
    // The signed terms are not editable: the form offers the name only.
    expect(await form.locator('input').count()).toBe(1);
    await form.getByLabel('Plan name').fill('Beans twice a year');
    await form.getByRole('button', { name: 'Save plan' }).click();
    await page.getByRole('status').filter({ hasText: 'Plan renamed to “Beans twice a year”.' }).waitFor();
    const renamed = table.getByRole('row').filter({ hasText: id });
    await renamed.getByText('Beans twice a year').waitFor();
    expect(await renamed.textContent()).toContain('60.00 USDC');

    // Archive asks first; Keep changes nothing.
    await renamed.getByRole('button', { name: 'Archive Beans twice a year' }).click();
    await renamed
      .getByRole('group', { name: /Archive “Beans twice a year”\? It takes no new subscribers/ })
      .getByRole('button', { name: 'Keep' })
      .click();
    expect((await apiCall('GET', `/v1/subscription-plans/${id}`, merchant.secretKey)).body.archived).toBe(false);
    await renamed.getByRole('button', { name: 'Archive Beans twice a year' }).click();
    await renamed.getByRole('button', { name: 'Archive', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Plan “Beans twice a year” archived.' }).waitFor();
    await renamed.locator('td[data-label="Name"]').getByText('archived').waitFor();
    // No edit, no archive, no enrolment link for an archived plan.
    expect(await renamed.getByRole('button', { name: /Edit|Archive/ }).count()).toBe(0);
    expect(await renamed.locator('td[data-label="Enrol link"]').textContent()).toBe('—');
    const stored = (await apiCall('GET', `/v1/subscription-plans/${id}`, merchant.secretKey)).body;
    expect(stored).toMatchObject({ name: 'Beans twice a year', amount: '60000000', archived: true });
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-plan-archived.png`, fullPage: true });
    // The actions column fits at 1280 px (no sideways scroll hiding Archive).
    expect(await table.evaluate((element) => element.scrollWidth <= element.parentElement!.clientWidth)).toBe(true);
  });

  it('creates an invoice with line items, sends it (the mail reaches the sink), resends it and voids it', async () => {
    await open('Invoices');
    await page.getByLabel('Customer name').fill('Ada Lovelace');
    await page.getByLabel('Customer email').fill('ada@example.com');
    await page.getByLabel('Description 1').fill('Consulting');
    await page.getByLabel('Quantity 1').fill('3');
    await page.getByLabel('Unit price 1 (USDC)').fill('100.25');
    await page.getByRole('button', { name: 'Add line item' }).click();
    await page.getByLabel('Description 2').fill('Travel');
    await page.getByLabel('Unit price 2 (USDC)').fill('0.000001');
    expect(await page.getByTestId('invoice-total').textContent()).toBe('300.750001 USDC');
    await page.getByRole('button', { name: 'Create invoice' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Ada Lovelace' });
    await row.getByText('draft').waitFor();
    const number = (await row.getByRole('cell').first().textContent())!.trim();
    await row.getByRole('button', { name: `Send ${number}` }).click();
    await row.getByText('sent', { exact: true }).waitFor();
    const mail = await sink.waitFor((m) => m.to.includes('ada@example.com'), 45_000);
    expect(mail.text).toContain(number);
    // The Sent column shows when the mail went out without a reload (it stayed "—" before).
    await expect.poll(() => row.locator('td[data-label="Sent"]').textContent(), { timeout: 30_000 }).toMatch(/\d{4}/);
    // Resend: the customer gets the same invoice once more.
    await row.getByRole('button', { name: `Resend ${number}` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Invoice ${number} emailed again to ada@example.com.` })
      .waitFor();
    await expect
      .poll(() => sink.messages({ to: 'ada@example.com' }).filter((m) => m.text.includes(number)).length, { timeout: 45_000 })
      .toBe(2);

    await row.getByRole('button', { name: `Void ${number}` }).click();
    await row.getByRole('button', { name: 'Void', exact: true }).click();
    await row.getByText('void', { exact: true }).waitFor();
  });

  it('lists the deliveries of the endpoint and replays one', async () => {
    await open('Webhooks');
    await page.getByRole('table', { name: 'Endpoints' }).getByRole('button', { name: 'https://hooks.example/stablepay' }).click();
    const deliveries = page.getByRole('table', { name: 'Delivery attempts' });
    // Events of the plan and invoice above were delivered (and failed: the host does not resolve on the worker).
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return deliveries.getByRole('button', { name: 'Replay' }).count();
        },
        { timeout: 45_000, interval: 1_000 },
      )
      .toBeGreaterThan(0);
    expect(await deliveries.textContent()).toMatch(/subscription_plan\.created|invoice\.created/);
    await deliveries.getByRole('button', { name: 'Replay' }).first().click();
    await page
      .getByRole('status')
      .filter({ hasText: /Replay 1 of evt_/ })
      .waitFor();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-webhook-deliveries.png`, fullPage: true });
  });

  it('sends a test event to the endpoint and shows its first attempt', async () => {
    const endpoints = page.getByRole('table', { name: 'Endpoints' });
    await endpoints.getByRole('button', { name: 'Send test event' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Test event evt_\w+ sent to https:\/\/hooks\.example\/stablepay/ })
      .waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('table', { name: 'Delivery attempts' }).getByText('webhook_endpoint.test').first().waitFor();
  });

  it('lists customers', async () => {
    await open('Customers');
    await page
      .getByRole('table', { name: 'Customers' })
      .getByText(`0x${(0xd00).toString(16).padStart(40, '0')}`)
      .waitFor();
    await page.getByLabel('Wallet address or email').fill(`0x${(0xd01).toString(16).padStart(40, '0')}`);
    await page.getByRole('button', { name: 'Search' }).click();
    const customers = page.getByRole('table', { name: 'Customers' });
    await customers.locator('tbody tr', { hasText: `0x${(0xd01).toString(16).padStart(40, '0')}` }).waitFor();
    await expect.poll(() => customers.locator('tbody tr').count()).toBe(1);
  });

  it('filters subscriptions, shows one with its charges and cancels it after a confirmation', async () => {
    await open('Subscriptions');
    await page.getByLabel('Status').selectOption('active');
    await page.getByLabel('Plan').selectOption({ label: 'Coffee club' });
    const table = page.getByRole('table', { name: 'Subscriptions' });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(6);
    await table.locator('tbody tr').first().getByRole('button').click();
    const detail = page.getByRole('region', { name: 'Subscription detail' });
    await detail.getByRole('table', { name: 'Charges of this subscription' }).getByText('succeeded').waitFor();
    await detail.getByRole('button', { name: 'Cancel subscription' }).click();
    await detail.getByLabel('Reason (optional)').fill('Customer asked');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-subscription-cancel.png`, fullPage: true });
    await detail.getByRole('button', { name: 'Yes, cancel' }).click();
    await detail.getByText('Customer asked').waitFor();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(5);
  });

  it('sets a subscription to cancel at the period end, shows the pending cancellation, and undoes it', async () => {
    const table = page.getByRole('table', { name: 'Subscriptions' });
    await table.locator('tbody tr').first().getByRole('button').click();
    const detail = page.getByRole('region', { name: 'Subscription detail' });
    await detail.getByRole('button', { name: 'Cancel at period end' }).click();
    await detail.getByLabel('Reason (optional)').fill('Moving to annual');
    await detail.getByRole('button', { name: 'Yes, cancel then' }).click();
    await detail.getByText('Cancels at period end').waitFor();
    await detail.getByText(/Moving to annual/).waitFor();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-subscription-cancel-at-period-end.png`, fullPage: true });
    // Still active: nothing was cancelled yet.
    await expect.poll(() => table.locator('tbody tr').count()).toBe(5);
    await detail.getByRole('button', { name: "Don't cancel" }).click();
    await detail.getByRole('button', { name: 'Yes, keep it' }).click();
    await detail.getByRole('button', { name: 'Cancel at period end' }).waitFor();
    expect(await detail.getByText('Cancels at period end').count()).toBe(0);
  });

  it('pauses an active subscription and resumes it from its detail', async () => {
    const table = page.getByRole('table', { name: 'Subscriptions' });
    await table.locator('tbody tr').first().getByRole('button').click();
    const detail = page.getByRole('region', { name: 'Subscription detail' });
    const id = (await detail.locator('h2 code').textContent())!;
    const status = async () => (await db.sql<{ status: string }[]>`select status from subscriptions where id = ${id}`)[0]!.status;
    expect(await status()).toBe('active');
    await detail.getByRole('button', { name: 'Pause subscription' }).click();
    await detail.getByRole('button', { name: 'Resume subscription' }).waitFor();
    expect(await status()).toBe('paused');
    expect(await detail.getByRole('button', { name: 'Pause subscription' }).count()).toBe(0);
    await detail.getByRole('button', { name: 'Resume subscription' }).click();
    await detail.getByRole('button', { name: 'Pause subscription' }).waitFor();
    expect(await status()).toBe('active');
  });

  it("shows a subscription's pending plan change on its page", async () => {
    const [row] = await db.sql<{ id: string }[]>`
      select id from subscriptions where merchant_id = ${merchant.merchantId} and status = 'active' order by id limit 1`;
    const lite = await apiCall('POST', '/v1/subscription-plans', merchant.secretKey, {
      name: 'Coffee lite',
      amount: '5000000',
      interval: 'monthly',
    });
    expect(lite.status).toBe(200);
    const changed = await apiCall('POST', `/v1/subscriptions/${row!.id}/change-plan`, merchant.secretKey, { planId: lite.body.id });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.pendingPlanChange).toMatchObject({ planId: lite.body.id, status: 'scheduled' });
    await page.goto(`${baseUrl}/dashboard/subscriptions/${row!.id}`);
    const detail = page.getByRole('region', { name: 'Subscription detail' });
    await detail.getByText('Pending plan change').waitFor();
    expect(await detail.getByText(/^To Coffee lite at 5\.00 USDC: from /).count()).toBe(1);
  });

  it('creates a coupon with its options and a promotion code on it, deactivates the code, and applies the coupon to a subscription', async () => {
    await open('Coupons');
    await page.getByLabel('Name').fill('Spring 20');
    await page.getByLabel('Discount', { exact: true }).selectOption('percent');
    await page.getByLabel('Percent off').fill('20');
    await page.getByLabel('Duration').selectOption('repeating');
    await page.getByLabel('Periods').fill('3');
    await page.getByLabel('Max redemptions').fill('100');
    await page.getByLabel('Redeem by').fill('2099-12-31');
    await page
      .getByRole('group', { name: /Only for these plans/ })
      .getByLabel('Coffee club')
      .check();
    await page.getByRole('button', { name: 'Create coupon' }).click();
    await page.getByRole('status').filter({ hasText: 'Coupon “Spring 20” created: 20% off, 3 periods.' }).waitFor();
    const coupons = page.getByRole('table', { name: 'Coupons' });
    const row = coupons.getByRole('row').filter({ hasText: 'Spring 20' });
    await row.getByText('0 of 100').waitFor();
    expect(await row.locator('td[data-label="Plans"]').textContent()).toBe('Coffee club');
    const [plan] = await db.sql<
      { id: string }[]
    >`select id from subscription_plans where merchant_id = ${merchant.merchantId} and name = 'Coffee club'`;
    const listed = (await apiCall('GET', '/v1/coupons?limit=100', merchant.secretKey)).body.data as Record<string, unknown>[];
    const coupon = listed.find((c) => c.name === 'Spring 20')!;
    expect(coupon).toMatchObject({
      percentOff: 20,
      amountOff: null,
      duration: 'repeating',
      durationInPeriods: 3,
      maxRedemptions: 100,
      redeemBy: '2099-12-31T23:59:59.000Z',
      appliesTo: { planIds: [plan!.id] },
      valid: true,
    });

    // A promotion code on it, first-time customers only, redeemable once; then deactivated.
    await row.getByRole('button', { name: 'Promotion codes of Spring 20' }).click();
    const codes = page.getByRole('region', { name: 'Promotion codes of “Spring 20”' });
    await codes.getByLabel('Code', { exact: true }).fill('SPRING20');
    await codes.getByLabel('Code max redemptions').fill('1');
    await codes.getByLabel('First-time customers only').check();
    await codes.getByRole('button', { name: 'Create code' }).click();
    await codes.getByRole('status').filter({ hasText: 'Promotion code SPRING20 created.' }).waitFor();
    const codeRow = codes.getByRole('table', { name: 'Promotion codes' }).getByRole('row').filter({ hasText: 'SPRING20' });
    await codeRow.getByText('active').waitFor();
    const stored = async () =>
      ((await apiCall('GET', '/v1/promotion-codes?code=SPRING20', merchant.secretKey)).body.data as Record<string, unknown>[])[0];
    expect(await stored()).toMatchObject({ coupon: coupon.id, maxRedemptions: 1, firstTimeTransaction: true, active: true });
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-coupon-codes.png`, fullPage: true });
    await codeRow.getByRole('button', { name: 'Deactivate SPRING20' }).click();
    await codeRow.getByText('inactive').waitFor();
    expect(await stored()).toMatchObject({ active: false });

    // The coupon on a subscription: shown with what is left of it, then removed.
    await open('Subscriptions');
    await page.getByLabel('Status').selectOption('active');
    await page.getByLabel('Plan').selectOption({ label: 'Coffee club' });
    await page.getByRole('table', { name: 'Subscriptions' }).locator('tbody tr').first().getByRole('button').click();
    const detail = page.getByRole('region', { name: 'Subscription detail' });
    const subscriptionId = (await detail.getByRole('heading', { level: 2 }).locator('code').textContent())!;
    await detail.getByLabel('Coupon').selectOption({ label: 'Spring 20 (20% off, 3 periods)' });
    await detail.getByRole('button', { name: 'Apply coupon' }).click();
    await detail.getByText(/^Spring 20: 20% off, 3 periods \(3 periods left, until /).waitFor();
    const discounted = (await apiCall('GET', `/v1/subscriptions/${subscriptionId}`, merchant.secretKey)).body;
    expect(discounted.discount).toMatchObject({ coupon: { id: coupon.id }, periodsRemaining: 3 });
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-subscription-discount.png`, fullPage: true });
    await detail.getByRole('button', { name: 'Remove discount' }).click();
    await detail.getByRole('button', { name: 'Remove', exact: true }).click();
    await detail.getByRole('button', { name: 'Apply coupon' }).waitFor();
    expect((await apiCall('GET', `/v1/subscriptions/${subscriptionId}`, merchant.secretKey)).body.discount).toBeNull();
  });

  it("creates a meter, charts a customer's usage sent through the API by day and by hour, renames, deactivates and reactivates it", async () => {
    await open('Meters');
    const create = page.getByRole('form', { name: 'Create a meter' });
    await create.getByLabel('Display name').fill('API calls');
    await create.getByLabel('Event name').fill('api_calls');
    await create.getByLabel('Aggregation').selectOption('sum');
    await create.getByLabel('Value key').fill('calls');
    await create.getByRole('button', { name: 'Create meter' }).click();
    await page.getByRole('status').filter({ hasText: 'Meter “API calls” created for the event name api_calls.' }).waitFor();
    const table = page.getByRole('table', { name: 'Meters' });
    const row = table.getByRole('row').filter({ hasText: 'api_calls' });
    expect(await row.locator('td[data-label="Status"]').textContent()).toBe('active');
    const meterId = (await row.locator('td[data-label="Id"] code').textContent())!;
    expect(meterId).toMatch(/^mtr_/);

    // Usage sent as a merchant's server would: three events yesterday (UTC), one the day before, one duplicate.
    const [customer] = await db.sql<{ id: string }[]>`
      select id from customers where merchant_id = ${merchant.merchantId} and livemode = false and wallet_address = ${`0x${(0xd00).toString(16).padStart(40, '0')}`}`;
    const today = new Date();
    const day = (back: number, time: string) => {
      const d = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - back));
      return `${d.toISOString().slice(0, 10)}T${time}Z`;
    };
    const event = (identifier: string, timestamp: string, calls: string) => ({
      eventName: 'api_calls',
      identifier,
      timestamp,
      payload: { customerId: customer!.id, calls },
    });
    const sent = await apiCall('POST', '/v1/billing/meter-events/batch', merchant.secretKey, {
      events: [
        event('dash-1', day(1, '01:10:00'), '2.5'),
        event('dash-2', day(1, '01:50:00'), '4'),
        event('dash-3', day(1, '02:05:00'), '1'),
        event('dash-4', day(2, '10:00:00'), '1.5'),
        event('dash-2', day(1, '01:50:00'), '4'),
      ],
    });
    expect(sent.body).toMatchObject({ accepted: 4, duplicates: 1, refused: 0 });

    const usage = page.getByRole('form', { name: 'Usage' });
    await usage.getByLabel('Meter', { exact: true }).selectOption({ label: 'API calls (api_calls)' });
    await usage.getByLabel('Customer', { exact: true }).selectOption(customer!.id);
    await usage.getByLabel('Window').selectOption('day');
    await usage.getByRole('button', { name: 'Show usage' }).click();
    const chart = page.getByTestId('usage-chart');
    await chart.getByRole('table', { name: 'Usage by day' }).waitFor();
    expect(await chart.getByTestId('usage-total').textContent()).toBe('9');
    const rows = async (name: string) =>
      chart
        .getByRole('table', { name })
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(await rows('Usage by day')).toEqual([
      [day(2, '').slice(0, 10), '1.5'],
      [day(1, '').slice(0, 10), '7.5'],
    ]);
    // One bar per day with usage (recharts draws no rectangle for a zero).
    await chart.locator('.recharts-bar-rectangle path').first().waitFor();
    expect(await chart.locator('.recharts-bar-rectangle path').count()).toBe(2);

    await usage.getByLabel('Window').selectOption('hour');
    await usage.getByRole('button', { name: 'Show usage' }).click();
    await chart.getByRole('table', { name: 'Usage by hour' }).waitFor();
    expect(await rows('Usage by hour')).toEqual([
      [`${day(2, '').slice(0, 10)} 10:00`, '1.5'],
      [`${day(1, '').slice(0, 10)} 01:00`, '6.5'],
      [`${day(1, '').slice(0, 10)} 02:00`, '1'],
    ]);
    expect(await chart.getByTestId('usage-total').textContent()).toBe('9');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-meter-usage.png`, fullPage: true });
    // Readable on a phone: nothing sticks out of a 390 px viewport with the chart and its table shown.
    await page.setViewportSize({ width: 390, height: 844 });
    await chart.locator('.recharts-bar-rectangle path').first().waitFor();
    // The chart's container measures its new width after a resize observer fires: wait for the redraw (a chart
    // that never fits fails here, by the timeout), then list whatever still sticks out.
    await page
      .waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, undefined, { timeout: 15_000 })
      .catch(() => {});
    expect(await horizontalOverflow(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-meter-usage-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    // Rename: only the display name is offered.
    await row.getByRole('button', { name: 'Edit API calls' }).click();
    const edit = page.getByRole('form', { name: 'Edit “API calls”' });
    expect(await edit.locator('input').count()).toBe(1);
    await edit.getByLabel('Display name').fill('API requests');
    await edit.getByRole('button', { name: 'Save meter' }).click();
    await page.getByRole('status').filter({ hasText: 'Meter renamed to “API requests”.' }).waitFor();
    const renamed = table.getByRole('row').filter({ hasText: meterId });
    await renamed.getByText('API requests').waitFor();
    expect(await renamed.locator('td[data-label="Counts"]').textContent()).toBe('Sum of the values in calls');
    // The actions column fits at 1280 px (no sideways scroll hiding Deactivate).
    expect(await table.evaluate((element) => element.scrollWidth <= element.parentElement!.clientWidth)).toBe(true);

    // Deactivate asks first; then the API refuses the meter's events, and Reactivate takes them again.
    await renamed.getByRole('button', { name: 'Deactivate API requests' }).click();
    await renamed.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Meter “API requests” deactivated.' }).waitFor();
    await renamed.locator('td[data-label="Status"]').getByText('inactive').waitFor();
    const refused = await apiCall('POST', '/v1/billing/meter-events', merchant.secretKey, event('dash-5', day(1, '03:00:00'), '1'));
    expect(refused.status).toBe(400);
    await renamed.getByRole('button', { name: 'Reactivate API requests' }).click();
    await page.getByRole('status').filter({ hasText: 'Meter “API requests” reactivated.' }).waitFor();
    await renamed.locator('td[data-label="Status"]').getByText('active', { exact: true }).waitFor();
    expect((await apiCall('POST', '/v1/billing/meter-events', merchant.secretKey, event('dash-5', day(1, '03:00:00'), '1'))).status).toBe(
      200,
    );
    expect((await apiCall('GET', `/v1/billing/meters/${meterId}`, merchant.secretKey)).body).toMatchObject({
      displayName: 'API requests',
      status: 'active',
    });
  });

  it("shows a metered subscription's upcoming invoice (usage so far, total, pulled, over the cap) and its period closes", async () => {
    // A metered plan on the meter above (2 USDC a call, 25 USDC cap) and a subscription in its period 0 for the customer
    // whose 10 calls were sent above; seeded as the analytics are (the enrolment itself is the workflow tests' matter).
    const [meter] = await db.sql<{ id: string }[]>`
      select id from billing_meters where merchant_id = ${merchant.merchantId} and event_name = 'api_calls'`;
    const plan = await apiCall('POST', '/v1/subscription-plans', merchant.secretKey, {
      name: 'API metered',
      amount: '10000000',
      interval: 'monthly',
      meteredPrices: [{ model: 'per_unit', meterId: meter!.id, unitAmount: '2000000' }],
      usageCap: '25000000',
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    const [customer] = await db.sql<{ id: string }[]>`
      select id from customers where merchant_id = ${merchant.merchantId} and livemode = false and wallet_address = ${`0x${(0xd00).toString(16).padStart(40, '0')}`}`;
    // An id of an early time (a valid ULID) so that it sorts last: later tests open the list's first row (Coffee club).
    const subscription = `sub_00${newId('subscription').slice('sub_00'.length)}`;
    const start = new Date(Date.now() - 5 * 86_400_000);
    await db.sql`
      insert into subscriptions (id, merchant_id, livemode, plan_id, customer_id, status, chain_id, contract_address, on_chain_id,
        subscriber_address, token_address, amount, period_seconds, periods, first_period_start, current_period_index,
        next_charge_at, created_at, updated_at)
      values (${subscription}, ${merchant.merchantId}, false, ${String(plan.body.id)}, ${customer!.id}, 'active', 31337,
        '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512', 2000, ${`0x${(0xd00).toString(16).padStart(40, '0')}`},
        '0x5fbdb2315678afecb367f032d93f642f64180aa3', 25000000, 2592000, 0, ${start}, 0,
        ${new Date(start.getTime() + 30 * 86_400_000)}, ${start}, ${start})`;
    await db.sql`
      insert into subscription_usage_closes (id, merchant_id, livemode, subscription_id, period_index, usage_start, usage_end, lines,
        total, charged, remainder, remainder_invoice_id)
      values (${newId('usageClose')}, ${merchant.merchantId}, false, ${subscription}, 0, null, null,
        ${db.sql.json([{ type: 'fixed', description: 'API metered, period 1', amount: '10000000' }])}, 10000000, 10000000, 0, null)`;
    await page.goto(`${baseUrl}/dashboard/subscriptions/${subscription}`);
    const detail = page.getByRole('region', { name: 'Subscription detail' });
    const upcoming = detail.getByRole('region', { name: 'Upcoming invoice' });
    const lines = upcoming.getByRole('table', { name: 'Lines of the next charge' });
    await lines.waitFor();
    expect(
      await lines.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))),
    ).toEqual([
      ['API metered, period 2', '—', '10.00 USDC'],
      ['API requests: 10 units', 'quantity 10', '20.00 USDC'],
    ]);
    const facts = await upcoming.locator('dl.facts').textContent();
    expect(facts).toContain('Total30.00 USDC');
    expect(facts).toContain('To be pulled25.00 USDC');
    expect(facts).toContain('Over the cap5.00 USDC');
    const closes = detail.getByRole('table', { name: 'Period closes of this subscription' });
    await closes.getByText('API metered, period 1: 10.00 USDC').waitFor();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-subscription-upcoming-invoice.png`, fullPage: true });
  });

  it('saves the agent configuration and approves a proposed escrow job', async () => {
    await open('Agents');
    await page.getByLabel('Recovery', { exact: true }).check();
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByRole('status').filter({ hasText: 'Configuration saved.' }).waitFor();
    expect(await page.getByLabel('Recovery', { exact: true }).isChecked()).toBe(true);

    await page.getByLabel('Vendor address').fill(DEV_ACCOUNTS.payers[5]!.address);
    await page.getByLabel('Description', { exact: true }).fill('Logo redesign');
    await page.getByLabel('Amount (USDC)').fill('250');
    await page.getByRole('button', { name: 'Create job' }).click();
    const row = page.getByRole('table', { name: 'Jobs' }).getByRole('row').filter({ hasText: 'Logo redesign' });
    await row.getByText('proposed').waitFor();
    // Approving moves escrow money: it asks first, like Reject, and Keep changes nothing.
    await row.getByRole('button', { name: /^Approve job / }).click();
    const question = row.getByRole('group', { name: /Approve and fund the escrow with 250\.00 USDC\?/ });
    await question.getByRole('button', { name: 'Keep' }).click();
    await row.getByRole('button', { name: /^Approve job / }).click();
    expect(await row.getByText('proposed').count()).toBe(1);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-agent-approve-confirm.png`, fullPage: true });
    await question.getByRole('button', { name: 'Approve', exact: true }).click();
    await row.getByText('proposed').waitFor({ state: 'detached' });
    await page.getByRole('table', { name: 'Agent activity' }).getByText(/job/i).first().waitFor();
  });

  it('labels agent settings in words and fits the jobs table at 1280 px', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const form = page.getByRole('form', { name: 'Configuration' });
    const labels = (await form.locator('label, legend').allTextContents()).join(' | ');
    expect(labels).not.toMatch(/Usd Cents|Require Human|Cents\b(?! \))/);
    await form.getByLabel('Ask me to approve jobs from (USD cents)').waitFor();
    // The actions column was cut off: the table was wider than its box.
    const fits = await page.getByRole('table', { name: 'Jobs' }).evaluate((table) => table.scrollWidth <= table.parentElement!.clientWidth);
    expect(fits).toBe(true);
  });

  it('creates the store page, adds a product and links to the public page', async () => {
    consoleProblems.length = 0;
    await open('Storefront');
    // The slug's pattern compiles with the `v` flag (Chromium logged an error and ignored it) and still checks.
    const slug = page.getByLabel('Slug');
    await slug.fill('AB');
    expect(await slug.evaluate((input: HTMLInputElement) => input.validity.patternMismatch)).toBe(true);
    expect(consoleProblems.filter((m) => /pattern/i.test(m))).toEqual([]);
    await page.getByLabel('Slug').fill('north-roastery');
    await page.getByLabel('Shop name').fill('North Roastery');
    await page.getByRole('button', { name: 'Create store page' }).click();
    const link = page.getByRole('link', { name: /\/store\/north-roastery$/ });
    await link.waitFor();
    await page.getByLabel('Product name').fill('House blend, 250 g');
    await page.getByLabel('Price (USDC)').fill('12.5');
    await page.getByRole('button', { name: 'Add product' }).click();
    const row = page.getByRole('table', { name: 'Products' }).getByRole('row').filter({ hasText: 'House blend, 250 g' });
    expect(await row.textContent()).toContain('12.50 USDC');
    // Its id is shown in full, with a Copy button.
    expect(await row.locator('td[data-label="Product"] code').textContent()).toMatch(/^prod_/);
    // The link is on PUBLIC_BASE_URL (unset here): the same path on this server.
    const storePage = await fetch(`${baseUrl}${new URL((await link.getAttribute('href'))!).pathname}`);
    expect(storePage.status).toBe(200);
    expect(await storePage.text()).toContain('House blend, 250 g');
  });

  it('sells a subscription chosen by plan name (no plan id to paste), archived plans not offered', async () => {
    const offered = await page.getByLabel('Or sell a subscription to').locator('option').allTextContents();
    expect(offered).toContain('Espresso monthly (12.50 USDC monthly)');
    expect(offered.filter((label) => label.includes('Beans'))).toEqual([]);
    await page.getByLabel('Product name').fill('Coffee club membership');
    await page.getByLabel('Or sell a subscription to').selectOption({ label: 'Coffee club (30.00 USDC monthly)' });
    await page.getByRole('button', { name: 'Add product' }).click();
    const row = page.getByRole('table', { name: 'Products' }).getByRole('row').filter({ hasText: 'Coffee club membership' });
    expect(await row.locator('td[data-label="Kind"]').textContent()).toBe('Subscription: Coffee club');
  });

  it('shows "Payment sessions" once and names invoices by number, not id', async () => {
    await open('Payments');
    const table = page.getByRole('table', { name: 'Payment sessions' });
    await table
      .getByText(/^Invoice \d{4}-\d{4}$/)
      .first()
      .waitFor();
    expect(await table.textContent()).not.toContain('inv_');
    const shown = await page
      .getByText('Payment sessions', { exact: true })
      .evaluateAll((nodes) => nodes.filter((n) => n.getBoundingClientRect().width > 1 && n.getBoundingClientRect().height > 1).length);
    expect(shown).toBe(1);
    await open('Home');
    const recent = page.getByRole('table', { name: 'Recent payment sessions' });
    await recent
      .getByText(/^Invoice \d{4}-\d{4}$/)
      .first()
      .waitFor();
    expect(await recent.textContent()).not.toContain('inv_');
  });

  it('shows the payout address checkouts pay to, before the business profile exists', async () => {
    await open('Settings');
    expect(await page.getByTestId('payout-address').textContent()).toBe(getAddress(DEV_ACCOUNTS.merchant.address));
    expect(await page.getByRole('main').textContent()).not.toContain('Not set');

    // Payouts per chain (issue 39): the mode's one chain pays the account's address, its balance read from the chain;
    // a chain's own address is set, shown as the chain's, and cleared back to the account's.
    const chainId = settingsOf(sharedChain()).chainId;
    const row = page.getByTestId(`chain-payout-${chainId}`);
    await row.getByText('(the account’s)').waitFor();
    expect(await row.locator('td[data-label="Payout address"] code').textContent()).toBe(getAddress(DEV_ACCOUNTS.merchant.address));
    await expect.poll(() => row.locator('td[data-label="Balance"]').textContent()).toMatch(/USDC/);
    const own = getAddress(`0x${'5a'.repeat(20)}`);
    await row.getByLabel(`Payout address for Local chain ${chainId}`, { exact: true }).fill('0x1234');
    await row.getByRole('button', { name: `Set the payout address for Local chain ${chainId}` }).click();
    await row.getByText(/payoutAddress|EVM address/).waitFor();
    await row.getByLabel(`Payout address for Local chain ${chainId}`, { exact: true }).fill(own);
    await row.getByRole('button', { name: `Set the payout address for Local chain ${chainId}` }).click();
    await row.getByText("(this chain's own)").waitFor();
    expect(await row.locator('td[data-label="Payout address"] code').textContent()).toBe(own);
    await row.getByRole('button', { name: `Clear the payout address for Local chain ${chainId}` }).click();
    await row.getByText('(the account’s)').waitFor();
    expect(await row.locator('td[data-label="Payout address"] code').textContent()).toBe(getAddress(DEV_ACCOUNTS.merchant.address));
  });

  it('turns receipt emails on or off per kind in Settings (payment and refund on by default)', async () => {
    await open('Settings');
    const card = page.getByRole('form', { name: 'Customer receipts' });
    await card.getByTestId('receipt-payment').waitFor();
    expect(await card.getByTestId('receipt-payment').isChecked()).toBe(true);
    expect(await card.getByTestId('receipt-refund').isChecked()).toBe(true);
    expect(await card.getByTestId('receipt-subscriptionCharge').isChecked()).toBe(false);
    await card.getByTestId('receipt-subscriptionCharge').check();
    await card.getByTestId('receipt-payment').uncheck();
    await card.getByRole('button', { name: 'Save receipts' }).click();
    await expect
      .poll(
        async () =>
          db.sql`select payment, subscription_charge, refund, invoice from receipt_settings where merchant_id = ${merchant.merchantId} and not livemode`,
      )
      .toEqual([{ payment: false, subscription_charge: true, refund: true, invoice: false }]);
    await page.reload();
    await page.getByRole('form', { name: 'Customer receipts' }).getByTestId('receipt-subscriptionCharge').waitFor();
    expect(await page.getByRole('form', { name: 'Customer receipts' }).getByTestId('receipt-subscriptionCharge').isChecked()).toBe(true);
    // Back to the defaults: the other tests' money events keep the receipts they had.
    await db.sql`delete from receipt_settings where merchant_id = ${merchant.merchantId}`;
  });

  it('explains npm run listen for local webhook receivers', async () => {
    await open('Webhooks');
    expect(await page.getByTestId('listen-help').textContent()).toMatch(/npm run listen -- --forward-to http:\/\/localhost/);
  });

  it('keeps live mode locked with the reasons until onboarding, email and 2FA are done, then switches modes', async () => {
    const live = page.getByRole('radio', { name: /Live mode/ });
    expect(await live.isDisabled()).toBe(true);
    await page.getByText(/Live mode locked: 3 checks left/).click();
    expect(await page.locator('#live-locked').textContent()).toMatch(/email/i);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-live-locked.png` });

    await page.getByRole('button', { name: 'Complete the checks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Go live' }).waitFor();
    await page.getByLabel('Business name').fill('North Roastery Ltd');
    await page.getByLabel('Sector').selectOption('ecommerce');
    await page.getByLabel('Country (ISO code)').fill('de');
    await page.getByLabel('Payout address').fill(DEV_ACCOUNTS.merchant.address);
    await page.getByRole('button', { name: 'Save business profile' }).click();
    await page.getByText(/Business onboarding: done/).waitFor();

    await page.getByRole('button', { name: 'Send code' }).click();
    const mail = await sink.waitFor((m) => m.to.includes(OWNER.email) && /verification code/.test(m.subject), 45_000);
    // The code field survives a reload (it disappeared before, with the code already mailed).
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Go live' }).waitFor();
    await page.getByLabel('Verification code').fill(/code is (\d{6})/.exec(mail.text)![1]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText(/Email verification: done/).waitFor();

    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await page.getByRole('img', { name: 'QR code of the two-factor secret' }).waitFor();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-two-factor.png`, fullPage: true });
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    await page.getByLabel('6-digit code').fill(await totpCode({ secret }));
    await page.getByRole('button', { name: 'Confirm code' }).click();
    await page.getByRole('heading', { name: 'Live mode is available' }).waitFor();

    expect(await live.isDisabled()).toBe(false);
    await page.locator('label').filter({ has: live }).click();
    await page.getByText('Live mode: real funds.').waitFor();
    await open('Plans');
    // Live mode shows live objects only: the test plans are not here.
    await page.getByRole('table', { name: 'Plans' }).getByText('No plans yet.').waitFor();
    await page
      .locator('label')
      .filter({ has: page.getByRole('radio', { name: 'Test mode' }) })
      .click();
    await page.getByRole('table', { name: 'Plans' }).getByText('Espresso monthly').waitFor();
  });

  it('syncs a new merchant on its first login', async () => {
    const other = await context.newPage();
    await other.goto(`${baseUrl}/dashboard`);
    await other.evaluate(() => sessionStorage.clear());
    await signInToDashboard(other, baseUrl, 'newcomer@example.com');
    await expect.poll(() => other.locator('.merchant-name').textContent()).toBe('newcomer@example.com');
    // No data yet: each chart says so instead of drawing zero lines on an empty axis.
    for (const chart of ['chart-mrr', 'chart-churn', 'chart-conversion', 'chart-forecast']) {
      await other.getByTestId(`${chart}-empty`).getByText('No data yet.').waitFor();
      expect(await other.getByTestId(chart).locator('.recharts-surface').count()).toBe(0);
    }
    await other.getByRole('table', { name: 'Recent payment sessions' }).getByText('No payments yet.').waitFor();
    await other.screenshot({ path: `${SCREENSHOT_DIR}/journey-home-empty.png`, fullPage: true });
    const merchants = await db.sql<{ n: number }[]>`select count(*)::int as n from merchants where email = 'newcomer@example.com'`;
    expect(merchants[0]!.n).toBe(1);
    await other.close();
  });
});

describe('daily operations: detail pages, lists, events', () => {
  const hash = `0x${'ab'.repeat(32)}`;
  const payer = DEV_ACCOUNTS.payers[3]!.address;
  let sessionId: string;

  beforeAll(async () => {
    // A paid session on Base Sepolia, so its transaction links to that chain's explorer.
    sessionId = newId('paymentSession');
    await db.sql`insert into payment_sessions (id, merchant_id, livemode, amount, currency, status, pay_to, token, chain_id, expires_at,
                   payer, transaction_hash, completed_at, created_at)
                 values (${sessionId}, ${merchant.merchantId}, false, 42000000, 'USDC', 'completed', ${DEV_ACCOUNTS.merchant.address},
                   '0x036cbd53842c5426634e7929541ec2318f3dcf7e', 84532, now() + interval '1 day', ${payer}, ${hash},
                   now() - interval '5 minutes', now() - interval '10 minutes')`;
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('opens a payment from the list and tells what happened: created, transaction with explorer link, completed', async () => {
    await open('Payments');
    // The list's Network column names the chain and links the hash to that chain's explorer (issue 39).
    const listed = page.getByRole('row').filter({ has: page.getByRole('link', { name: `Payment ${sessionId}` }) });
    expect(await listed.textContent()).toContain('Base Sepolia');
    expect(await listed.getByRole('link', { name: `Transaction ${hash} on the explorer` }).getAttribute('href')).toBe(
      `https://sepolia.basescan.org/tx/${hash}`,
    );
    await page.getByRole('link', { name: `Payment ${sessionId}` }).click();
    await page.getByRole('heading', { level: 1, name: 'Payment' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/dashboard/payments/${sessionId}`);
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByText('Transaction confirmed on chain').waitFor();
    expect(await timeline.getByRole('link', { name: 'View on explorer' }).getAttribute('href')).toBe(
      `https://sepolia.basescan.org/tx/${hash}`,
    );
    await timeline.getByText('Completed', { exact: true }).waitFor();
    expect(await timeline.textContent()).toContain(payer);
    const facts = await page.getByRole('region', { name: 'Payment' }).textContent();
    expect(facts).toContain('42.00 USDC');
    expect(facts).toContain('Base Sepolia');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-payment-detail.png`, fullPage: true });
    // A deep link opens the same page.
    await page.reload();
    await page.getByRole('region', { name: 'Timeline' }).getByText('Transaction confirmed on chain').waitFor();
    DETAIL_PAGES.push({ path: `payments/${sessionId}`, heading: 'Payment' });
  });

  it('shows every transaction of a payment on the dev chain: copyable hashes, confirmations, a failed try, a refund, events sent', async () => {
    // A session paid on the dev chain (no explorer) after a refused first try, then partly refunded.
    const devSession = newId('paymentSession');
    const paidHash = `0x${'cd'.repeat(32)}`;
    const refundHash = `0x${'ef'.repeat(32)}`;
    const token = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
    const payTo = DEV_ACCOUNTS.merchant.address;
    await db.sql`insert into payment_sessions (id, merchant_id, livemode, amount, currency, status, pay_to, token, chain_id, expires_at,
                   payer, transaction_hash, completed_at, created_at)
                 values (${devSession}, ${merchant.merchantId}, false, 7000000, 'USDC', 'completed', ${payTo}, ${token}, 31337,
                   now() + interval '1 day', ${payer}, ${paidHash}, now() - interval '8 minutes', now() - interval '20 minutes')`;
    const call = {
      kind: 'payment',
      token,
      from: payer,
      to: payTo,
      value: '7000000',
      validAfter: '0',
      validBefore: '9999999999',
      nonce: hash,
      signature: '0x',
    };
    for (const [minutesAgo, status, txHash, block, failureCode] of [
      [15, 'failed', null, null, 'insufficient_funds'],
      [10, 'confirmed', paidHash, 50, null],
    ] as const) {
      const id = newId('relaySubmission');
      await db.sql`insert into relay_submissions (id, merchant_id, livemode, idempotency_key, kind, chain_id, authorization_digest, call, status,
                     transaction_hash, block_number, confirmations, failure_code, failure_reason, payment_session_id, created_at, updated_at)
                   values (${id}, ${merchant.merchantId}, false, ${id}, 'payment', 31337, ${id}, ${db.sql.json(call)}, ${status}, ${txHash}, ${block},
                     ${block ? 1 : 0}, ${failureCode}, ${failureCode ? 'The payer holds too little USDC.' : null}, ${devSession},
                     now() - ${`${minutesAgo} minutes`}::interval, now() - ${`${minutesAgo - 1} minutes`}::interval)`;
    }
    await db.sql`insert into refunds (id, merchant_id, livemode, payment_session_id, amount, currency, reason, status, chain_id, token,
                   from_address, to_address, transaction_hash, block_number, succeeded_at, created_at)
                 values (${newId('refund')}, ${merchant.merchantId}, false, ${devSession}, 2000000, 'USDC', 'Asked', 'succeeded', 31337, ${token},
                   ${payTo}, ${payer}, ${refundHash}, 52, now() - interval '2 minutes', now() - interval '4 minutes')`;
    await db.sql`insert into indexer_checkpoints (chain_id, livemode, block_number, block_hash) values (31337, false, 52, ${hash})
                 on conflict (chain_id, livemode) do update set block_number = excluded.block_number`;
    // The event the completion sent (already dispatched: nothing is delivered for it here).
    await db.sql`insert into events (id, merchant_id, livemode, type, data, created_at, dispatched_at)
                 values (${newId('event')}, ${merchant.merchantId}, false, 'payment.completed',
                   ${db.sql.json({ object: { id: devSession, object: 'payment_session' } })}, now() - interval '8 minutes', now())`;

    await page.goto(`${baseUrl}/dashboard/payments/${devSession}`);
    await page.getByRole('heading', { level: 1, name: 'Payment' }).waitFor();
    // 2 of its 7 USDC refunded: the status says so beside "completed".
    await page.locator('.detail-actions').getByText('partly refunded', { exact: true }).waitFor();
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const failed = timeline.getByRole('listitem').filter({ hasText: 'Payment transaction failed' });
    expect(await failed.textContent()).toMatch(/Not sent to the chain\..*insufficient_funds: The payer holds too little USDC\./);
    const paid = timeline.getByRole('listitem').filter({ hasText: 'Payment transaction confirmed' });
    await paid.getByText('Block 50 · 3 confirmations (1 required): final').waitFor();
    expect(await paid.textContent()).toContain(`7.00 USDC from ${payer} to ${payTo}`);
    // The dev chain has no explorer: the hash is there to copy.
    expect(await paid.getByRole('link', { name: 'View on explorer' }).count()).toBe(0);
    await paid.getByText('(local chain: no explorer)').waitFor();
    await paid.getByRole('button', { name: `Copy ${paidHash}` }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(paidHash);
    const refund = timeline.getByRole('listitem').filter({ hasText: 'Refund transaction confirmed' });
    await refund.getByText('Block 52 · 1 confirmation (1 required): final').waitFor();
    expect(await refund.textContent()).toContain(refundHash);
    await timeline.getByText('Completed', { exact: true }).waitFor();
    await timeline.getByText('Event payment.completed').waitFor();
    // The paying hash is listed once (as the relayed payment), not again from the session's own field.
    expect(await timeline.getByText(paidHash).count()).toBe(1);
    const titles = await timeline.locator('li > strong').allTextContents();
    expect(titles.indexOf('Payment transaction failed')).toBeLessThan(titles.indexOf('Payment transaction confirmed'));
    expect(titles.indexOf('Payment transaction confirmed')).toBeLessThan(titles.indexOf('Completed'));
    expect(titles.indexOf('Completed')).toBeLessThan(titles.indexOf('Refund transaction confirmed'));
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-payment-transactions.png`, fullPage: true });
    DETAIL_PAGES.push({ path: `payments/${devSession}`, heading: 'Payment' });
  });

  it("shows why an open payment's latest try failed (its lastPaymentError) among the payment's facts", async () => {
    // A session open again after its relayed payment was refused: the token was paused.
    const openSession = newId('paymentSession');
    const token = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
    await db.sql`insert into payment_sessions (id, merchant_id, livemode, amount, currency, status, pay_to, token, chain_id, expires_at)
                 values (${openSession}, ${merchant.merchantId}, false, 3000000, 'USDC', 'open', ${DEV_ACCOUNTS.merchant.address}, ${token}, 31337,
                   now() + interval '1 day')`;
    const id = newId('relaySubmission');
    const call = {
      kind: 'payment',
      token,
      from: payer,
      to: DEV_ACCOUNTS.merchant.address,
      value: '3000000',
      validAfter: '0',
      validBefore: '9999999999',
      nonce: hash,
      signature: '0x',
    };
    await db.sql`insert into relay_submissions (id, merchant_id, livemode, idempotency_key, kind, chain_id, authorization_digest, call, status,
                   failure_code, failure_reason, payment_session_id)
                 values (${id}, ${merchant.merchantId}, false, ${id}, 'payment', 31337, ${id}, ${db.sql.json(call)}, 'failed',
                   'token_paused', ${describeRefusal('token_paused')}, ${openSession})`;
    await page.goto(`${baseUrl}/dashboard/payments/${openSession}`);
    const facts = page.getByRole('region', { name: 'Payment' });
    const note = facts.locator('[data-failure-code="token_paused"]');
    await note.waitFor();
    expect(await note.textContent()).toBe(`token_paused: ${describeRefusal('token_paused')}`);
    await facts.getByText('Last payment error').waitFor();
    // A payment with no failed try shows no such line.
    await page.goto(`${baseUrl}/dashboard/payments/${sessionId}`);
    await page.getByRole('region', { name: 'Payment' }).getByText('Refundable').waitFor();
    expect(await page.getByRole('region', { name: 'Payment' }).getByText('Last payment error').count()).toBe(0);
  });

  it("shows a failed refund's refusal on the payment's timeline and in the refunds list: the readable reason and its code", async () => {
    // A wallet refund of this payment whose transfer the token refused (docs/events.md, refund.failed).
    const refundId = newId('refund');
    await db.sql`insert into refunds (id, merchant_id, livemode, payment_session_id, amount, currency, status, chain_id, token, from_address,
                   to_address, failure_code, failure_reason, failed_at)
                 values (${refundId}, ${merchant.merchantId}, false, ${sessionId}, 2000000, 'USDC', 'failed', 84532,
                   '0x036cbd53842c5426634e7929541ec2318f3dcf7e', ${DEV_ACCOUNTS.merchant.address}, ${payer}, 'payer_blacklisted',
                   ${describeRefusal('payer_blacklisted')}, now())`;
    await page.goto(`${baseUrl}/dashboard/payments/${sessionId}`);
    // The payment's timeline lists the refund among its transactions, with the code and its reason.
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const failed = timeline.getByRole('listitem').filter({ hasText: 'Refund transaction failed' });
    await failed.waitFor();
    expect(await failed.textContent()).toContain(`payer_blacklisted: ${describeRefusal('payer_blacklisted')}`);
    await open('Refunds');
    const row = page
      .getByRole('table', { name: /Refunds/ })
      .getByRole('row')
      .filter({ has: page.locator('[data-failure-code="payer_blacklisted"]') });
    // count() does not wait: the list loads after the page opens.
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain(describeRefusal('payer_blacklisted'));
  });

  it('exports every payment session as CSV, paging through the list', async () => {
    await open('Payments');
    const csv = await downloaded(page.getByRole('button', { name: 'Export CSV' }));
    expect(csv.name).toMatch(/^payment-sessions-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,amount,currency,status,payer,transaction_hash,invoice_id,product,created_at,completed_at,chain_id,amount_refunded,customer_id,metadata',
    );
    const counted = await db.sql<
      { n: number }[]
    >`select count(*)::int as n from payment_sessions where merchant_id = ${merchant.merchantId} and not livemode`;
    const n = counted[0]!.n;
    expect(lines.length - 1).toBe(n);
    expect(lines.find((line) => line.startsWith(sessionId))).toBe(
      `${sessionId},42,USDC,completed,${payer},${hash},,,${await rowTime(sessionId, 'created_at')},${await rowTime(sessionId, 'completed_at')},84532,0,,{}`,
    );
    await page
      .getByRole('status')
      .filter({ hasText: `${n} rows exported.` })
      .waitFor();
  });

  it("shows a payment's customer and metadata, finds it by a metadata pair, and lists it on the customer's page", async () => {
    // A one-off payment attached to its paying wallet's customer (docs/decisions.md, One-off payers as customers).
    const wallet = `0x${'c5'.repeat(20)}`;
    const customerId = newId('customer');
    await db.sql`insert into customers (id, merchant_id, livemode, wallet_address, email)
                 values (${customerId}, ${merchant.merchantId}, false, ${wallet}, 'walk-in@example.com')`;
    const paid = newId('paymentSession');
    await db.sql`insert into payment_sessions (id, merchant_id, livemode, amount, currency, status, pay_to, token, chain_id, expires_at,
                   payer, transaction_hash, completed_at, customer_id, customer_email, metadata)
                 values (${paid}, ${merchant.merchantId}, false, 7000000, 'USDC', 'completed', ${DEV_ACCOUNTS.merchant.address},
                   '0x5fbdb2315678afecb367f032d93f642f64180aa3', 31337, now() + interval '1 day', ${getAddress(wallet)}, ${`0x${'cd'.repeat(32)}`},
                   now(), ${customerId}, 'walk-in@example.com', ${db.sql.json({ order: 'D-42', channel: 'counter' })})`;
    await page.goto(`${baseUrl}/dashboard/payments/${paid}`);
    const facts = page.getByRole('region', { name: 'Payment' });
    await facts.getByTestId('metadata').getByText('D-42').waitFor();
    expect(await facts.getByTestId('metadata').textContent()).toContain('channel');
    expect(await facts.getByTestId('payment-customer').getByRole('link').textContent()).toBe(customerId);
    expect(await facts.textContent()).toContain('walk-in@example.com');

    // The Metadata search of the payments list: exact pair, only this payment.
    await open('Payments');
    const filters = page.getByRole('search', { name: 'Filters' });
    await filters.getByLabel('Metadata').fill('order=D-42');
    await filters.getByRole('button', { name: 'Search' }).click();
    const table = page.getByRole('table', { name: 'Payment sessions' });
    // The row itself, not the table's one "Loading…" row, which also counts as one.
    await table.locator('tbody tr', { hasText: 'order=D-42' }).waitFor();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    await filters.getByLabel('Metadata').fill('order=D-4');
    await filters.getByRole('button', { name: 'Search' }).click();
    await table.getByText('No payment sessions match').waitFor();

    // The customer's page lists the payments attached to the customer.
    await page.goto(`${baseUrl}/dashboard/customers/${customerId}`);
    await page.getByRole('heading', { level: 1, name: 'Customer' }).waitFor();
    await expect.poll(() => page.getByTestId('customer-payment-count').textContent()).toBe('1 completed');
    const payments = page.getByRole('table', { name: 'Payments of this customer' });
    await payments.locator('tbody tr', { hasText: 'order=D-42' }).waitFor();
    await expect.poll(() => payments.locator('tbody tr').count()).toBe(1);
  });

  it('creates a payment from the Payments page and hands back its payment link to copy', async () => {
    await open('Payments');
    const form = page.getByRole('form', { name: 'Create a payment' });
    await form.getByLabel('Amount (USDC)').fill('12.34');
    await form.getByLabel('Description (kept in metadata)').fill('Consulting, November');
    await form.getByLabel('Link expires after').selectOption('604800');
    await form.getByRole('button', { name: 'Create payment link' }).click();
    const created = page.getByRole('status', { name: 'Payment link' });
    await created.getByText(/Payment link for 12\.34 USDC/).waitFor();
    // The one countdown formatter: a week reads in days, never minutes.
    expect(await created.textContent()).toMatch(/Expires in (7 days|6 days 23 hours)/);
    const url = (await created.getByRole('link').getAttribute('href'))!;
    expect(url).toMatch(/\/checkout\/ps_\w+$/);
    const id = url.split('/').pop()!;
    const [row] = await db.sql<{ amount: string; metadata: unknown; ttl: number }[]>`
      select amount::text as amount, metadata, extract(epoch from expires_at - created_at)::int as ttl
      from payment_sessions where id = ${id} and merchant_id = ${merchant.merchantId} and not livemode`;
    expect(row).toMatchObject({ amount: '12340000', metadata: { description: 'Consulting, November' } });
    expect(Math.abs(row!.ttl - 604_800)).toBeLessThan(60);
    // The list shows it at once, and the link copies as it is.
    await page
      .getByRole('table', { name: 'Payment sessions' })
      .getByRole('link', { name: `Payment ${id}` })
      .waitFor();
    await created.getByRole('button', { name: 'Copy link' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    // A refused amount changes nothing and says why.
    const before = await db.sql`select count(*)::int as n from payment_sessions where merchant_id = ${merchant.merchantId}`;
    await form.getByLabel('Amount (USDC)').fill('9,99');
    await form.getByRole('button', { name: 'Create payment link' }).click();
    await form.getByRole('alert').first().waitFor();
    expect(await db.sql`select count(*)::int as n from payment_sessions where merchant_id = ${merchant.merchantId}`).toEqual(before);
  });

  it('opens an invoice: the customer view with lines and total, and its timeline', async () => {
    await open('Invoices');
    await page.getByLabel('Status').selectOption('void');
    const table = page.getByRole('table', { name: 'Invoices' });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    await table
      .locator('tbody tr')
      .first()
      .getByRole('link', { name: /^\d{4}-\d{4}$/ })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Invoice' }).waitFor();
    const preview = page.getByRole('region', { name: 'Invoice as the customer sees it' });
    expect(await preview.getByTestId('invoice-detail-total').textContent()).toBe('300.750001 USDC');
    expect(await preview.textContent()).toContain('Consulting');
    expect(await preview.textContent()).toContain('Ada Lovelace');
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByText('Voided').waitFor();
    await timeline.getByText('Emailed to ada@example.com').waitFor();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-invoice-detail.png`, fullPage: true });
    DETAIL_PAGES.push({ path: new URL(page.url()).pathname.replace('/dashboard/', ''), heading: 'Invoice' });
  });

  it('downloads the invoice PDF (API half of #28)', async (ctx) => {
    if (!(await apiHas('/v1/invoices/{id}/pdf'))) ctx.skip('the invoice PDF endpoint of #28 is not on this branch yet');
    const pdf = await downloaded(page.getByRole('button', { name: 'Download PDF' }));
    expect(pdf.name).toMatch(/^invoice-\d{4}-\d{4}\.pdf$/);
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('opens a customer with their subscriptions', async () => {
    const wallet = `0x${(0xd02).toString(16).padStart(40, '0')}`;
    await open('Customers');
    await page.getByRole('table', { name: 'Customers' }).getByRole('link', { name: wallet }).click();
    await page.getByRole('heading', { level: 1, name: 'Customer' }).waitFor();
    expect(await page.getByRole('region', { name: 'Customer' }).textContent()).toContain(wallet);
    if (await apiHas('/v1/subscriptions', 'q')) {
      // Searching by wallet (API half of #28): only this customer's subscription.
      const subscriptions = page.getByRole('table', { name: 'Subscriptions of this customer' });
      await expect.poll(() => subscriptions.locator('tbody tr').count()).toBe(1);
    }
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-customer-detail.png`, fullPage: true });
    DETAIL_PAGES.push({ path: new URL(page.url()).pathname.replace('/dashboard/', ''), heading: 'Customer' });
  });

  it('opens a subscription page with its charges on the timeline', async () => {
    await open('Subscriptions');
    await page.getByRole('table', { name: 'Subscriptions' }).locator('tbody tr').first().getByRole('button').click();
    await page.getByRole('link', { name: "Open the subscription's page" }).click();
    await page.getByRole('heading', { level: 1, name: 'Subscription' }).waitFor();
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByText('Subscribed to Coffee club').waitFor();
    await timeline.getByText(/^Period 1: [\d.]+ USDC succeeded$/).waitFor();
    DETAIL_PAGES.push({ path: new URL(page.url()).pathname.replace('/dashboard/', ''), heading: 'Subscription' });
  });

  it('lists events by type and shows one with its payload and delivery attempts (API half of #28)', async (ctx) => {
    if (!(await apiHas('/v1/events'))) ctx.skip('GET /v1/events of #28 is not on this branch yet');
    await open('Events');
    await page.getByLabel('Event type').selectOption('invoice.created');
    const table = page.getByRole('table', { name: 'Events' });
    await table.getByRole('link', { name: 'invoice.created' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Event' }).waitFor();
    expect(await page.getByLabel('Payload').textContent()).toContain('Ada Lovelace');
    const attempts = page.getByRole('region', { name: 'Delivery attempts' });
    await attempts.locator('summary').first().click();
    expect(await attempts.locator('pre').first().textContent()).toContain('"type": "invoice.created"');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-event-detail.png`, fullPage: true });
    DETAIL_PAGES.push({ path: new URL(page.url()).pathname.replace('/dashboard/', ''), heading: 'Event' });
  });

  it('sends a test event of a chosen type (API half of #28)', async (ctx) => {
    if (!(await apiHas('/v1/events'))) ctx.skip('typed test events of #28 are not on this branch yet');
    await open('Webhooks');
    await page.getByLabel('Test event type').selectOption('invoice.paid');
    await page.getByRole('table', { name: 'Endpoints' }).getByRole('button', { name: 'Send test event' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Test event evt_\w+ sent to/ })
      .waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('table', { name: 'Delivery attempts' }).getByText('invoice.paid').first().waitFor();
  });

  it("shows an invoice's and a customer's metadata, and finds the invoice by a metadata pair", async () => {
    const created = await apiCall('POST', '/v1/invoices', merchant.secretKey, {
      lineItems: [{ description: 'Audit', quantity: 1, unitAmount: '2000000' }],
      metadata: { project: 'P-77', team: 'audit' },
    });
    expect(created.status).toBe(200);
    const invoiceId = created.body.id as string;
    await page.goto(`${baseUrl}/dashboard/invoices/${invoiceId}`);
    const facts = page.getByRole('region', { name: 'Invoice facts' });
    await facts.getByTestId('metadata').getByText('P-77').waitFor();
    expect(await facts.getByTestId('metadata').textContent()).toContain('team');

    await open('Invoices');
    const filters = page.getByRole('search', { name: 'Filters' });
    await filters.getByLabel('Metadata').fill('project=P-77');
    await filters.getByRole('button', { name: 'Search' }).click();
    const table = page.getByRole('table', { name: 'Invoices' });
    // The invoice's own row, not the table's one "Loading…" row, which also counts as one.
    await table.locator('tbody tr', { hasText: created.body.number as string }).waitFor();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    await filters.getByLabel('Metadata').fill('project=P-7');
    await filters.getByRole('button', { name: 'Search' }).click();
    await table.locator('tbody tr', { hasText: /No invoices/ }).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(1);

    const customerId = newId('customer');
    await db.sql`insert into customers (id, merchant_id, livemode, wallet_address) values (${customerId}, ${merchant.merchantId}, false, ${`0x${'c7'.repeat(20)}`})`;
    expect((await apiCall('POST', `/v1/customers/${customerId}`, merchant.secretKey, { metadata: { crmId: 'C-9' } })).status).toBe(200);
    await page.goto(`${baseUrl}/dashboard/customers/${customerId}`);
    await page.getByRole('region', { name: 'Customer' }).getByTestId('metadata').getByText('C-9').waitFor();
  });
});

describe('hosted invoice page', () => {
  it('shows the customer number, lines, total, due date and status, fits 390 px, and Pay leads to the checkout', async () => {
    const created = await apiCall('POST', '/v1/invoices', merchant.secretKey, {
      customerName: 'Grace Hopper',
      customerEmail: 'grace@example.com',
      lineItems: [
        { description: 'Roasting workshop for a team of twelve, with tasting notes and materials', quantity: 2, unitAmount: '15000000' },
        { description: 'Green beans', quantity: 3, unitAmount: '2000000' },
      ],
      dueInDays: 14,
    });
    expect(created.status).toBe(200);
    const invoice = created.body as { id: string; number: string; dueAt: string; hostedInvoiceUrl: string; sessionId: string };
    expect((await apiCall('POST', `/v1/invoices/${invoice.id}/send`, merchant.secretKey)).status).toBe(200);
    await expect
      .poll(async () => (await apiCall('GET', `/v1/invoices/${invoice.id}`, merchant.secretKey)).body.status, { timeout: 30_000 })
      .toBe('sent');

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      // hostedInvoiceUrl is on PUBLIC_BASE_URL (unset here): the same path on this server.
      await page.goto(`${baseUrl}${new URL(invoice.hostedInvoiceUrl).pathname}`);
      await page.getByRole('heading', { level: 1, name: `Invoice ${invoice.number}` }).waitFor();
      expect(await page.locator('[data-status]').textContent()).toBe('Open');
      expect(await page.locator('dl').textContent()).toContain(`Due${invoice.dueAt.slice(0, 10)}`);
      const rows = await page
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
      expect(rows).toEqual([
        ['Roasting workshop for a team of twelve, with tasting notes and materials', '2', '15.00 USDC', '30.00 USDC'],
        ['Green beans', '3', '2.00 USDC', '6.00 USDC'],
      ]);
      expect(await page.locator('tfoot').textContent()).toBe('Total36.00 USDC');
      await page.screenshot({ path: `${SCREENSHOT_DIR}/hosted-invoice-${width}.png`, fullPage: true });
      expect(await horizontalOverflow(page)).toEqual([]);
      // The lines fit without a sideways scroll (at 390 px the amounts were cut off behind one).
      expect(await page.locator('table').evaluate((table) => table.scrollWidth <= table.parentElement!.clientWidth)).toBe(true);
    }
    // Pay leads to the invoice's checkout (on PUBLIC_BASE_URL, so followed on this server).
    const pay = new URL((await page.getByRole('link', { name: 'Pay 36.00 USDC' }).getAttribute('href'))!);
    expect(pay.pathname).toBe(`/checkout/${invoice.sessionId}`);
    await page.goto(`${baseUrl}${pay.pathname}`);
    await expect.poll(() => page.locator('#amount').textContent(), { timeout: 15_000 }).toMatch(/^36(\.0+)? USDC$/);
    await page.getByText(`Invoice ${invoice.number}`).first().waitFor();
    expect(await horizontalOverflow(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});

describe('screenshots', () => {
  const PAGES = [
    'Home',
    'Payments',
    'Subscriptions',
    'Plans',
    'Coupons',
    'Meters',
    'Invoices',
    'Refunds',
    'Customers',
    'Webhooks',
    'Events',
    'API keys',
    'Agents',
    'Storefront',
    'Settings',
    'Go live',
  ];

  it('captures every page at 1280 px and 390 px, none wider than the viewport', async () => {
    const overflowing: string[] = [];
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      for (const name of PAGES) {
        const slug = name.toLowerCase().replace(/\s+/g, '-');
        await page.goto(`${baseUrl}/dashboard${name === 'Home' ? '' : `/${slug}`}`);
        await page.getByRole('heading', { level: 1, name }).waitFor();
        await page.waitForLoadState('networkidle');
        if (name === 'Home') await expectEvenMetricRows();
        await page.screenshot({ path: `${SCREENSHOT_DIR}/${slug}-${width}.png`, fullPage: true });
        for (const offender of await horizontalOverflow(page)) overflowing.push(`${name} at ${width} px: ${offender}`);
      }
      for (const detail of DETAIL_PAGES) {
        await page.goto(`${baseUrl}/dashboard/${detail.path}`);
        await page.getByRole('heading', { level: 1, name: detail.heading }).waitFor();
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: `${SCREENSHOT_DIR}/${detail.heading.toLowerCase()}-detail-${width}.png`, fullPage: true });
        for (const offender of await horizontalOverflow(page)) overflowing.push(`${detail.path} at ${width} px: ${offender}`);
      }
    }
    expect(DETAIL_PAGES.length).toBeGreaterThanOrEqual(4);
    expect(overflowing).toEqual([]);
  }, 180_000);
});
