// Money typed into the dashboard (issue 36, item 12): "9,99" once created a 999.00 USDC plan. Every money
// input parses by one rule (src/money/parse.ts) and shows what it parsed ("= 9.99 USDC") before anything
// is created; an ambiguous separator is refused with why and creates nothing. Headless Chromium at phone
// and desktop widths against the real app, Postgres and a worker on the Temporal dev server.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import type { SeededMerchant } from '../support/app.js';
import { settingsOf, sharedChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { signInToDashboard, startDashboardStack, type DashboardStack } from '../support/dashboard-stack.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';

const OWNER = { subject: 'dev|money-inputs-owner', email: 'money@example.com', name: 'Comma Coffee' };

let db: TestDatabase;
let temporal: DevServerWorker;
let dashboard: DashboardStack;
let merchant: SeededMerchant;
let baseUrl: string;
let page: Page;

beforeAll(async () => {
  db = await createTestDatabase();
  const chain = { test: settingsOf(sharedChain()) };
  temporal = await startDevServerWorker(db.sql, { chain });
  dashboard = await startDashboardStack({ sql: db.sql, temporal, chain, owner: OWNER, payout: DEV_ACCOUNTS.merchant.address });
  ({ merchant, baseUrl, page } = dashboard);
  await signInToDashboard(page, baseUrl);
}, 120_000);

afterAll(async () => {
  await dashboard?.close();
  await temporal?.stop();
  await db?.drop();
});

const plansNamed = async (name: string) =>
  db.sql<{ amount: string }[]>`select amount::text from subscription_plans where merchant_id = ${merchant.merchantId} and name = ${name}`;

async function openPlans(width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  await page.goto(`${baseUrl}/dashboard/plans`);
  await page.getByRole('heading', { level: 1, name: 'Plans' }).waitFor();
}

describe('money inputs in the dashboard', () => {
  for (const width of [390, 1280]) {
    it(`a plan price typed "9,99" is refused with why and creates nothing; "9.99" shows "= 9.99 USDC" first (${width} px)`, async () => {
      await openPlans(width);
      const form = page.getByRole('form', { name: 'Create a plan' });
      const name = `Comma plan ${width}`;
      await form.getByLabel('Name').fill(name);
      const price = form.getByLabel('Price (USDC)');

      await price.fill('9,99');
      const refusal = form.getByRole('alert').filter({ hasText: 'Use a dot for decimals' });
      await refusal.waitFor({ timeout: 10_000 });
      await form.getByRole('button', { name: 'Create plan' }).click();
      await form.locator('.error').filter({ hasText: 'Use a dot for decimals' }).waitFor({ timeout: 10_000 });
      expect(await plansNamed(name)).toEqual([]);

      await price.fill('0.1234567');
      await form.getByRole('alert').filter({ hasText: 'At most 6 decimals' }).waitFor();

      await price.fill('9.99');
      expect(await form.locator('.amount-preview').textContent()).toBe('= 9.99 USDC');
      await form.getByRole('button', { name: 'Create plan' }).click();
      await page.getByRole('status').filter({ hasText: name }).waitFor({ timeout: 15_000 });
      expect(await plansNamed(name)).toEqual([{ amount: '9990000' }]);
    });
  }

  it('the other money inputs show the parsed amount the same way (invoice unit price, refund amount)', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${baseUrl}/dashboard/invoices`);
    const invoice = page.getByRole('form', { name: 'Create an invoice' });
    await invoice.getByLabel('Unit price 1 (USDC)').fill('1,000');
    await invoice.getByRole('alert').filter({ hasText: 'Use a dot for decimals' }).waitFor({ timeout: 15_000 });
    await invoice.getByLabel('Unit price 1 (USDC)').fill('1000');
    expect(await invoice.locator('.amount-preview').textContent()).toBe('= 1,000.00 USDC');

    await page.goto(`${baseUrl}/dashboard/refunds`);
    const refund = page.getByRole('form', { name: 'Refund a payment' });
    await refund.getByLabel('Amount (USDC, empty = all)').fill('2,5');
    await refund.getByRole('alert').filter({ hasText: 'Use a dot for decimals' }).waitFor({ timeout: 15_000 });
  });
});
