// The set-up the subscription browser tests share: a database, a private anvil with the real USDC and our contracts,
// the real worker on the Temporal dev server (it charges, relays and cancels on chain through the test chain's port),
// the real app listening on 127.0.0.1, one merchant onboarded to take subscriptions (payout and chain address), and a
// headless Chromium. Each test file brings its own stack; `stop` closes everything in reverse order.
import { rm } from 'node:fs/promises';
import type { BrowserContext } from 'playwright-core';
import type { ChainSettings } from '../../src/chain/config.js';
import type { Mailer } from '../../src/email/mailer.js';
import { addMerchantChainAddress, setPayoutAddress } from '../../src/merchants/repo.js';
import { devChainSettings } from '../../tools/dev/chain/settings.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from './app.js';
import { launchBrowser } from './browser.js';
import { createTestDatabase, type TestDatabase } from './db.js';
import { startTestChain, type TestChain } from './subscriptions.js';
import { startDevServerWorker, type DevServerWorker } from './temporal.js';

export type SubscriptionBrowserStack = {
  db: TestDatabase;
  chain: TestChain;
  settings: ChainSettings;
  temporal: DevServerWorker;
  t: TestApp;
  merchant: SeededMerchant;
  baseUrl: string;
  context: BrowserContext;
  stop: () => Promise<void>;
};

export async function startSubscriptionBrowserStack(options: {
  merchantName: string;
  /** Every deployed contract (SubscriptionManagerV2 too) and the indexer's start block; default: v1, token and escrow. */
  allContracts?: boolean;
  mailer?: (chain: TestChain) => Promise<Mailer> | Mailer;
}): Promise<SubscriptionBrowserStack> {
  const db = await createTestDatabase();
  const chain = await startTestChain(db.sql);
  const settings = options.allContracts
    ? devChainSettings({ ...chain.deployed, rpcUrl: chain.anvil.rpcUrl, startBlock: chain.deployed.deployBlock })
    : devChainSettings({
        rpcUrl: chain.anvil.rpcUrl,
        chainId: chain.anvil.chainId,
        token: chain.deployed.token,
        subscriptionManager: chain.deployed.subscriptionManager,
        escrow: chain.deployed.escrow,
      });
  const mailer = options.mailer ? await options.mailer(chain) : undefined;
  const temporal = await startDevServerWorker(db.sql, {
    chain: { test: settings },
    subscriptionChain: chain.subscriptionChain,
    ...(mailer ? { mailer } : {}),
  });
  const t = await createTestApp(db.sql, { temporal: temporal.client, taskQueue: temporal.taskQueue, chain: { test: settings } });
  const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const merchant = await seedMerchant(db.sql, options.merchantName);
  await setPayoutAddress(db.sql, merchant.merchantId, DEV_ACCOUNTS.merchant.address);
  await addMerchantChainAddress(db.sql, { merchantId: merchant.merchantId, livemode: false, address: DEV_ACCOUNTS.merchant.address });
  const { context, userDataDir } = await launchBrowser();
  const stop = async () => {
    await context.close();
    await rm(userDataDir, { recursive: true, force: true });
    await t.close();
    await temporal.stop();
    await chain.stop();
    await db.drop();
  };
  return { db, chain, settings, temporal, t, merchant, baseUrl, context, stop };
}
