// The hosted enrolment's email field and the hosted renewal page in headless
// Chromium (see test/browser/checkout.test.ts for the wallet emulation): the
// real app listening on 127.0.0.1, the real worker on the Temporal dev server,
// a private anvil and the SMTP sink the renewal email reaches.
import { rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { createWalletClient, http, parseEventLogs } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionManagerAbi, subscriptionManagerV2Abi } from '../../src/chain/generated/contracts.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { type ChainSettings } from '../../src/chain/config.js';
import { devChainSettings } from '../../tools/dev/chain/settings.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { startSmtpSink, type SmtpSink } from '../../tools/dev/smtp-sink.js';
import { createMailer, type Mailer } from '../../src/email/mailer.js';
import { addMerchantChainAddress, setPayoutAddress } from '../../src/merchants/repo.js';
import { onSubscriptionCreatedOnChain } from '../../src/subscriptions/chain-events.js';
import { launchBrowser } from '../support/browser.js';
import { openWalletPage as openTestWalletPage } from '../support/test-wallet.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { newPayer, startTestChain, type TestChain } from '../support/subscriptions.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';

const USDC = (n: number) => BigInt(n) * 1_000_000n;

let db: TestDatabase;
let chain: TestChain;
let settings: ChainSettings;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let sink: SmtpSink;
let mailer: Mailer;
let baseUrl: string;
let context: BrowserContext;
let userDataDir: string;
const traffic: Promise<string>[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  [chain, sink] = await Promise.all([startTestChain(db.sql), startSmtpSink()]);
  settings = devChainSettings({
    rpcUrl: chain.anvil.rpcUrl,
    chainId: chain.anvil.chainId,
    token: chain.deployed.token,
    subscriptionManager: chain.deployed.subscriptionManager,
    escrow: chain.deployed.escrow,
  });
  mailer = createMailer({ smtpUrl: sink.smtpUrl, from: 'StablePay <no-reply@stablepay.local>' });
  temporal = await startDevServerWorker(db.sql, { chain: { test: settings }, subscriptionChain: chain.subscriptionChain, mailer });
  t = await createTestApp(db.sql, { temporal: temporal.client, taskQueue: temporal.taskQueue, chain: { test: settings } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  merchant = await seedMerchant(db.sql, 'Browser renewals');
  await setPayoutAddress(db.sql, merchant.merchantId, DEV_ACCOUNTS.merchant.address);
  await addMerchantChainAddress(db.sql, { merchantId: merchant.merchantId, livemode: false, address: DEV_ACCOUNTS.merchant.address });
  ({ context, userDataDir } = await launchBrowser());
  context.on('request', (request) =>
    traffic.push(request.allHeaders().then((h) => `${request.url()}\n${JSON.stringify(h)}\n${request.postData() ?? ''}`)),
  );
  context.on('response', (response) =>
    traffic.push(
      Promise.all([response.allHeaders(), response.body().catch(() => Buffer.alloc(0))]).then(
        ([h, b]) => `${JSON.stringify(h)}\n${b.toString('utf8')}`,
      ),
    ),
  );
}, 180_000);

afterAll(async () => {
  await context?.close();
  if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  await t?.close();
  await temporal?.stop();
  mailer?.close();
  await sink?.stop();
  await chain?.stop();
  await db?.drop();
});

/** A page with the test wallet backed by `account`, forwarding reads to anvil. */
async function openWalletPage(account: PrivateKeyAccount): Promise<{ page: Page; methods: string[] }> {
  const { page, log } = await openTestWalletPage(context, { account, chainId: chain.anvil.chainId, rpcUrl: chain.anvil.rpcUrl });
  return { page, methods: log.methods };
}

const allowanceOf = (owner: `0x${string}`) =>
  chain.pub.readContract({
    address: chain.deployed.token,
    abi: fiatTokenAbi,
    functionName: 'allowance',
    args: [owner, chain.subscriptionManagerV2],
  });

describe('subscription renewal in headless Chromium', () => {
  it('enrols with an email on the plan page, is reminded by email when the allowance runs low, and renews on the linked page', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: { authorization: `Bearer ${merchant.secretKey}` },
      payload: { name: 'Tea club', amount: USDC(5).toString(), interval: 'monthly' },
    });
    const plan = created.json();
    const subscriber = newPayer();
    await chain.mint(subscriber.address, USDC(1000));
    const email = `tea-${randomBytes(4).toString('hex')}@example.com`;

    // Enrolment: the optional email field goes with the signed permit and enrolment.
    const enrolPage = await openWalletPage(subscriber);
    await enrolPage.page.goto(`${baseUrl}/checkout/plans/${plan.id}`);
    await expect.poll(() => enrolPage.page.locator('#pay').isEnabled(), { timeout: 30_000 }).toBe(true);
    await enrolPage.page.locator('#email').fill(email);
    await enrolPage.page.locator('#pay').click();
    await expect.poll(() => enrolPage.page.locator('#message').textContent(), { timeout: 60_000 }).toMatch(/You are subscribed/);
    await enrolPage.page.close();
    const [customer] =
      await db.sql`select email from customers where merchant_id = ${merchant.merchantId} and wallet_address = ${subscriber.address.toLowerCase()}`;
    expect(customer?.email).toBe(email);
    expect(await allowanceOf(subscriber.address)).toBe(USDC(5) * 12n);

    // The indexer's part: the enrolment's SubscriptionCreated log projects the subscription.
    const [submission] = await db.sql<{ transactionHash: `0x${string}` }[]>`
      select transaction_hash as "transactionHash" from relay_submissions where merchant_id = ${merchant.merchantId} and kind = 'subscription' and status = 'confirmed'`;
    const receipt = await chain.pub.getTransactionReceipt({ hash: submission!.transactionHash });
    const [log] = parseEventLogs({ abi: subscriptionManagerAbi, logs: receipt.logs, eventName: 'SubscriptionCreated' });
    const block = await chain.pub.getBlock({ blockNumber: receipt.blockNumber });
    // As the indexer's hook does: v2's SubscriptionCreated does not carry the signed window, the contract does.
    expect(log!.address.toLowerCase()).toBe(chain.subscriptionManagerV2.toLowerCase());
    const chargeWindow = await chain.pub.readContract({
      address: log!.address,
      abi: subscriptionManagerV2Abi,
      functionName: 'chargeWindow',
      args: [log!.args.id],
    });
    // The customer lowers the allowance from their wallet to two periods before period 0 is charged,
    // so the check after that charge finds one period left: the reminder goes out.
    await chain.testClient.setBalance({ address: subscriber.address, value: 10n ** 18n });
    const wallet = createWalletClient({
      account: subscriber,
      chain: chainDefinition(chain.anvil.chainId, chain.anvil.rpcUrl),
      transport: http(chain.anvil.rpcUrl),
    });
    const approve = await wallet.writeContract({
      address: chain.deployed.token,
      abi: fiatTokenAbi,
      functionName: 'approve',
      args: [chain.subscriptionManagerV2, USDC(10)],
    });
    await waitForDevReceipt(chain.pub, approve);
    const projected = await onSubscriptionCreatedOnChain(
      {
        sql: db.sql,
        temporal: temporal.client,
        taskQueue: temporal.taskQueue,
        events: { dispatch: async () => {} },
        modes: { test: chain.mode },
      },
      {
        livemode: false,
        chainId: chain.anvil.chainId,
        address: log!.address,
        transactionHash: receipt.transactionHash,
        blockTimestamp: block.timestamp,
        args: log!.args,
        chargeWindow,
        planId: plan.id,
      },
    );
    if (projected.outcome === 'ignored') throw new Error(projected.reason);

    const [mail] = await (async () => {
      for (let i = 0; i < 300; i++) {
        const received = sink.messages({ to: email });
        if (received.length) return received;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('no renewal email');
    })();
    expect(mail!.subject).toBe('Renew your authorisation for Tea club (Browser renewals)');
    const link = /https?:\/\/\S+\/checkout\/subscriptions\/(sub_\w+)\/renew\?token=([\w-]+)/.exec(mail!.text);
    expect(link?.[1]).toBe(projected.subscriptionId);
    expect(await allowanceOf(subscriber.address)).toBe(USDC(5));

    // The renewal page of the link: one permit signed in the wallet, submitted by the server.
    const renewPage = await openWalletPage(subscriber);
    await renewPage.page.goto(`${baseUrl}/checkout/subscriptions/${link![1]}/renew?token=${link![2]}`);
    await expect.poll(() => renewPage.page.locator('#pay').isEnabled(), { timeout: 30_000 }).toBe(true);
    expect(await renewPage.page.locator('#description').textContent()).toContain('covers 1 more payment');
    expect(await renewPage.page.locator('#amount').textContent()).toBe('Allow 65.00 USDC');
    await renewPage.page.locator('#pay').click();
    await expect.poll(() => renewPage.page.locator('#message').textContent(), { timeout: 60_000 }).toMatch(/authorisation is renewed/);
    expect(renewPage.methods.filter((m) => m === 'eth_signTypedData_v4')).toHaveLength(1);
    expect(await allowanceOf(subscriber.address)).toBe(USDC(65));
    await renewPage.page.close();

    // Nothing the browser sent or received carries a secret key.
    const all = (await Promise.all(traffic)).join('\n');
    expect(all).toContain('/renew');
    expect(all).not.toContain(merchant.secretKey);
    expect(all).not.toMatch(/sk_(test|live)_/);

    await t.app.inject({
      method: 'POST',
      url: `/v1/subscriptions/${projected.subscriptionId}/cancel`,
      headers: { authorization: `Bearer ${merchant.secretKey}` },
      payload: {},
    });
  }, 120_000);
});
