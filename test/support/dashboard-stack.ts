// The dashboard as a merchant reaches it in the browser tests: the real app listening on 127.0.0.1
// (it serves the built SPA at /dashboard) with the dev identity provider as its sign-in, one merchant
// owned by a user of that provider, and a headless Chromium page. Each test brings its own database,
// worker and chain.
import { rm } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import type { Address } from 'viem';
import type { ChainConfig } from '../../src/chain/config.js';
import type { Sql } from '../../src/db/client.js';
import { startDevIdentityProvider, type DevIdentityProvider } from '../../tools/dev/identity-provider.js';
import { setIdpSubject, setPayoutAddress } from '../../src/merchants/repo.js';
import type { Resolver } from '../../src/webhooks/targets.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from './app.js';
import { launchBrowser } from './browser.js';
import type { DevServerWorker } from './temporal.js';

/** The dashboard's OIDC client id, registered with the dev identity provider. */
export const DASHBOARD_CLIENT_ID = 'stablepay-dashboard';

export type DashboardOwner = { subject: string; email: string; name: string };

export type DashboardStack = {
  t: TestApp;
  idp: DevIdentityProvider;
  merchant: SeededMerchant;
  baseUrl: string;
  context: BrowserContext;
  page: Page;
  /** Closes the browser, the app and the identity provider (not the caller's worker, database or chain). */
  close: () => Promise<void>;
};

export async function startDashboardStack(options: {
  sql: Sql;
  temporal: DevServerWorker;
  chain: ChainConfig;
  owner: DashboardOwner;
  payout: Address;
  webhookResolver?: Resolver;
}): Promise<DashboardStack> {
  const { sql, temporal, chain, owner } = options;
  const idp = await startDevIdentityProvider();
  const t = await createTestApp(sql, {
    temporal: temporal.client,
    taskQueue: temporal.taskQueue,
    chain,
    ...(options.webhookResolver ? { webhookResolver: options.webhookResolver } : {}),
    env: {
      OIDC_ISSUER: idp.issuer,
      OIDC_AUDIENCE: idp.audience,
      OIDC_JWKS_URL: idp.jwksUrl,
      DASHBOARD_OIDC_CLIENT_ID: DASHBOARD_CLIENT_ID,
    },
  });
  const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  idp.registerClient(DASHBOARD_CLIENT_ID, [`${baseUrl}/dashboard/callback`]);
  const merchant = await seedMerchant(sql, owner.name);
  await setIdpSubject(sql, merchant.merchantId, owner.subject);
  await setPayoutAddress(sql, merchant.merchantId, options.payout);
  idp.addUser(owner);
  const { context, userDataDir } = await launchBrowser();
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[dashboard page error] ${error.message}`));
  return {
    t,
    idp,
    merchant,
    baseUrl,
    context,
    page,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
      await t.close();
      await idp.stop();
    },
  };
}

/** Signs in through the dev identity provider's login form (as `email`, else its first user) and waits for the dashboard. */
export async function signInToDashboard(page: Page, baseUrl: string, email?: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/authorize\?/);
  if (email) await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${baseUrl}/dashboard`);
  await page.getByRole('navigation', { name: 'Dashboard' }).waitFor();
}
