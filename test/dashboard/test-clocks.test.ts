// The dashboard's Test clocks page in headless Chromium against the real app, Postgres, a worker on
// the Temporal dev server and a private anvil (a clock moves chain time, which must not touch the
// suite's shared chain): the page is in the navigation in test mode only; a merchant creates a
// clock, attaches a wallet, advances it with the +1 day and +1 month presets (advancing, then
// ready), sees what fired on it (an invoice created on the clock going overdue) and deletes it.
import type { Page } from 'playwright-core';
import { createPublicClient, http } from 'viem';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { startSmtpSink, type SmtpSink } from '../../tools/dev/smtp-sink.js';
import { createMailer, type Mailer } from '../../src/email/mailer.js';
import type { SeededMerchant } from '../support/app.js';
import { settingsOf, startPrivateChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { signInToDashboard, startDashboardStack, type DashboardStack } from '../support/dashboard-stack.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';

const OWNER = { subject: 'dev|test-clocks-owner', email: 'clocks@example.com', name: 'Clockwork Coffee' };
const DAY = 86_400_000;

let chain: DevChain;
let db: TestDatabase;
let sink: SmtpSink;
let mailer: Mailer;
let temporal: DevServerWorker;
let merchant: SeededMerchant;
let baseUrl: string;
let dashboard: DashboardStack;
let page: Page;

beforeAll(async () => {
  chain = await startPrivateChain();
  const settings = { test: settingsOf(chain.info, { pollIntervalMs: 100 }) };
  db = await createTestDatabase();
  sink = await startSmtpSink();
  mailer = createMailer({ smtpUrl: sink.smtpUrl, from: 'StablePay <no-reply@stablepay.local>' });
  temporal = await startDevServerWorker(db.sql, { chain: settings, mailer });
  dashboard = await startDashboardStack({ sql: db.sql, temporal, chain: settings, owner: OWNER, payout: DEV_ACCOUNTS.merchant.address });
  ({ merchant, baseUrl, page } = dashboard);
}, 120_000);

afterAll(async () => {
  await dashboard?.close();
  await temporal?.stop();
  mailer?.close();
  await sink?.stop();
  await db?.drop();
  await chain?.stop();
});

async function api(method: string, path: string, body?: object) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${merchant.secretKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await response.json()) as Record<string, any>;
}

const clockTime = () => page.getByTestId('clock-time').locator('time').first().getAttribute('datetime');

describe('the Test clocks page', () => {
  it('creates a clock, attaches a wallet, advances it with presets, shows what fired, and deletes it', async () => {
    await signInToDashboard(page, baseUrl);
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    // The navigation links the quickstart and the API reference (issue 38: the quickstart was linked from nowhere).
    expect(await nav.getByRole('link', { name: 'Quickstart', exact: true }).getAttribute('href')).toBe('/docs/quickstart');
    expect(await nav.getByRole('link', { name: 'API reference', exact: true }).getAttribute('href')).toBe('/docs');
    await nav.getByRole('link', { name: 'Test clocks', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Test clocks' }).waitFor();

    // Create at a whole minute well after the chain's time (the form speaks the browser's local time).
    const chainNow = Math.max(
      Date.now(),
      Number((await createPublicClient({ transport: http(chain.info.rpcUrl) }).getBlock()).timestamp) * 1000,
    );
    const start = new Date(Math.ceil((chainNow + 2 * 3_600_000) / 60_000) * 60_000);
    const local = await page.evaluate((iso) => {
      const d = new Date(iso);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
    }, start.toISOString());
    const create = page.getByRole('form', { name: 'Create a test clock' });
    await create.getByLabel('Name').fill('Renewal rehearsal');
    await create.getByLabel('Frozen time').fill(local);
    await create.getByRole('button', { name: 'Create clock' }).click();
    const detail = page.getByRole('region', { name: 'Test clock Renewal rehearsal' });
    await detail.waitFor({ timeout: 10_000 }).catch(async (error: unknown) => {
      throw new Error(`no clock detail; the form says: ${await create.innerText()}`, { cause: error });
    });
    expect(await clockTime()).toBe(start.toISOString());
    await expect.poll(async () => page.getByRole('table', { name: 'Test clocks' }).getByText('Renewal rehearsal').count()).toBe(1);
    const [clock] = (await api('GET', '/v1/test-clocks')).data;
    expect(clock).toMatchObject({ name: 'Renewal rehearsal', frozenTime: start.toISOString(), status: 'ready' });

    // Attach a wallet: it is listed as attached, and the API agrees.
    const wallet = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
    const attach = detail.getByRole('form', { name: 'Attach payer wallets' });
    await attach.getByLabel('Wallet addresses').fill(wallet);
    await attach.getByRole('button', { name: 'Attach' }).click();
    await detail.getByRole('list', { name: 'Attached wallets' }).getByText(wallet).waitFor();
    expect((await api('GET', `/v1/test-clocks/${clock.id}`)).wallets.map((w: { walletAddress: string }) => w.walletAddress)).toEqual([
      wallet,
    ]);

    // An invoice on the clock, due in 20 days on the clock's time.
    const invoice = await api('POST', '/v1/invoices', {
      customerEmail: 'ada@example.com',
      lineItems: [{ description: 'Beans', quantity: 1, unitAmount: '5000000' }],
      dueInDays: 20,
      testClock: clock.id,
    });
    expect(invoice.testClock).toBe(clock.id);
    await api('POST', `/v1/invoices/${invoice.id}/send`);

    // +1 day: advancing, then ready at the new time (the page polls).
    await detail.getByRole('button', { name: '+1 day' }).click();
    await expect.poll(clockTime, { timeout: 30_000 }).toBe(new Date(start.getTime() + DAY).toISOString());
    await detail.getByText('ready', { exact: true }).waitFor({ timeout: 30_000 });
    // +1 month: the same time one calendar month later, past the invoice's dueAt.
    const oneMonth = new Date(start.getTime() + DAY);
    oneMonth.setUTCMonth(oneMonth.getUTCMonth() + 1);
    await detail.getByRole('button', { name: '+1 month' }).click();
    await expect.poll(clockTime, { timeout: 30_000 }).toBe(oneMonth.toISOString());
    await detail.getByText('ready', { exact: true }).waitFor({ timeout: 30_000 });
    expect((await api('GET', `/v1/invoices/${invoice.id}`)).status).toBe('overdue');

    // The timeline shows what fired on this clock.
    const timeline = detail.getByRole('region', { name: 'What fired on this clock' });
    await expect.poll(async () => timeline.getByText('invoice.overdue').count(), { timeout: 15_000 }).toBe(1);

    // Delete: the clock leaves the list and is gone from the API; its invoice is void.
    await detail.getByRole('button', { name: 'Delete clock' }).click();
    await detail
      .getByRole('group', { name: /Delete this clock/ })
      .getByRole('button', { name: 'Delete clock' })
      .click();
    await detail.waitFor({ state: 'detached' });
    await expect.poll(async () => page.getByRole('table', { name: 'Test clocks' }).getByText('Renewal rehearsal').count()).toBe(0);
    expect((await api('GET', `/v1/test-clocks/${clock.id}`)).error.code).toBe('not_found');
    expect((await api('GET', `/v1/invoices/${invoice.id}`)).status).toBe('void');

    // Live mode has no test clocks: the navigation does not offer the page. (Only the browser is told
    // live mode is unlocked: the onboarding that unlocks it is dashboard.test.ts's subject.)
    await page.route('**/v1/merchants/me/live-mode-eligibility', (route) =>
      route.fulfill({ json: { eligible: true, checks: {}, reasons: [] } }),
    );
    await page.reload();
    await nav.getByRole('link', { name: 'Test clocks', exact: true }).waitFor();
    const live = page.getByRole('radio', { name: /Live mode/ });
    await expect.poll(() => live.isDisabled()).toBe(false);
    await page.locator('label').filter({ has: live }).click();
    await page.getByText('Live mode: real funds.').waitFor();
    expect(await nav.getByRole('link', { name: 'Test clocks', exact: true }).count()).toBe(0);
    await page
      .locator('label')
      .filter({ has: page.getByRole('radio', { name: /Test mode/ }) })
      .click();
    await nav.getByRole('link', { name: 'Test clocks', exact: true }).waitFor();
  }, 180_000);
});
