// Receipts by email (issue 40, item 5) for a payment, a refund and a paid invoice, end to end: payments
// relayed on a private anvil with Circle's USDC, the real worker on the Temporal dev server (its event
// dispatcher queues the receipts, its delivery workflow sends them to the dev SMTP sink), the app and a
// database of its own. The subscription charge's receipt is in subscription-charge-receipts.test.ts.
import { createHash, randomBytes } from 'node:crypto';
import { type Address, type PublicClient, createPublicClient, createWalletClient, http } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { upsertCustomer } from '../../src/customers/repo.js';
import { createMailer, type Mailer } from '../../src/email/mailer.js';
import { wakeEventDispatcher } from '../../src/events/dispatch.js';
import { newId } from '../../src/ids.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { refundOperatorOf } from '../../src/refunds/allowance.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../../tools/dev/smtp-sink.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, startPrivateChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { payRelayedSession } from '../support/relayed-session.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { until } from '../support/until.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import type { ChainSettings } from '../../src/chain/config.js';

let chain: DevChain;
let settings: ChainSettings;
let pub: PublicClient;
let db: TestDatabase;
let sink: SmtpSink;
let mailer: Mailer;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let other: SeededMerchant;

const payout = DEV_ACCOUNTS.merchant.address;
const merchantAccount = privateKeyToAccount(DEV_ACCOUNTS.merchant.privateKey);
const payer = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);
const stranger = privateKeyToAccount(DEV_ACCOUNTS.payers[1]!.privateKey);
const PAYER_EMAIL = `payer-${randomBytes(3).toString('hex')}@example.com`;
const INVOICE_EMAIL = `billing-${randomBytes(3).toString('hex')}@example.com`;
const OTHER_MERCHANTS_EMAIL = `elsewhere-${randomBytes(3).toString('hex')}@example.com`;

beforeAll(async () => {
  chain = await startPrivateChain();
  settings = settingsOf(chain.info);
  pub = createPublicClient({
    chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
    transport: http(chain.info.rpcUrl),
    pollingInterval: 100,
  });
  db = await createTestDatabase();
  sink = await startSmtpSink();
  mailer = createMailer({ smtpUrl: sink.smtpUrl, from: 'StablePay <no-reply@stablepay.local>' });
  temporal = await startDevServerWorker(db.sql, { chain: { test: settings }, mailer });
  t = await createTestApp(db.sql, { temporal: temporal.client, taskQueue: temporal.taskQueue, chain: { test: settings } });
  merchant = await seedMerchant(db.sql, 'Receipt Roasters');
  other = await seedMerchant(db.sql, 'Another merchant');
  await setPayoutAddress(db.sql, merchant.merchantId, payout);
  // The payer is this merchant's customer with an email; the stranger is only the other merchant's.
  await upsertCustomer(db.sql, {
    id: newId('customer'),
    merchantId: merchant.merchantId,
    livemode: false,
    walletAddress: payer.address,
    email: PAYER_EMAIL,
  });
  await upsertCustomer(db.sql, {
    id: newId('customer'),
    merchantId: other.merchantId,
    livemode: false,
    walletAddress: stranger.address,
    email: OTHER_MERCHANTS_EMAIL,
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await temporal?.stop();
  mailer?.close();
  await sink?.stop();
  await db?.drop();
  await chain?.stop();
});

const auth = (key = merchant.secretKey) => ({ authorization: `Bearer ${key}` });
const settingsOfMode = async (key = merchant.secretKey) =>
  (await t.app.inject({ method: 'GET', url: '/v1/merchants/me/receipt-settings', headers: auth(key) })).json();
const putSettings = (payload: unknown, key = merchant.secretKey) =>
  t.app.inject({ method: 'PUT', url: '/v1/merchants/me/receipt-settings', headers: auth(key), payload: payload as object });

function pay(amount: bigint, from: PrivateKeyAccount = payer, sessionId?: string): Promise<string> {
  return payRelayedSession({
    app: t.app,
    secretKey: merchant.secretKey,
    pub,
    token: settings.token,
    payer: from,
    payTo: payout,
    amount,
    keyPrefix: 'receipts',
    ...(sessionId ? { sessionId } : {}),
  });
}

type ReceiptRow = { kind: string; objectId: string; emailId: string; tokenHash: string };
const receiptsOf = (objectId: string) =>
  db.sql<ReceiptRow[]>`
    select kind, object_id as "objectId", email_id as "emailId", token_hash as "tokenHash" from receipts where object_id = ${objectId}`;
const emailsOfKind = (kind: string) => db.sql`select id, to_address from outbound_emails where kind = ${kind}`;

/** Waits until every event of the object was dispatched (its receipt, if any, is queued by then). */
async function dispatched(objectId: string): Promise<void> {
  await until(
    () => db.sql`select 1 from events where data->'object'->>'id' = ${objectId} and dispatched_at is null`,
    (rows) => rows.length === 0,
    `the events of ${objectId} dispatched`,
  );
}

const mailFor = (to: string, text: string) => sink.waitFor((m) => m.to.includes(to) && m.text.includes(text), 60_000);
const pageLinkOf = (mail: ReceivedMail) => /Your receipt: (\S+)/.exec(mail.text)![1]!;
const pathOf = (url: string) => new URL(url).pathname;

describe('receipt settings (GET/PUT /v1/merchants/me/receipt-settings)', () => {
  it('defaults to payment and refund receipts on, per mode; refusals change nothing', async () => {
    const defaults = { object: 'receipt_settings', payment: true, subscriptionCharge: false, refund: true, invoice: false };
    expect(await settingsOfMode()).toEqual({ ...defaults, livemode: false });
    expect(await settingsOfMode(merchant.liveSecretKey)).toEqual({ ...defaults, livemode: true });

    const empty = await putSettings({});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.code).toBe('invalid_request');
    const notBoolean = await putSettings({ payment: 'yes' });
    expect(notBoolean.statusCode).toBe(400);
    expect(notBoolean.json().error).toMatchObject({ code: 'invalid_request', param: 'payment' });
    expect(notBoolean.json().error.details.issues.map((i: { path: string }) => i.path)).toContain('payment');
    const unknown = await putSettings({ refunds: false });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe('invalid_request');
    const readOnly = await putSettings({ refund: false }, await merchant.keyWithScopes(['payment_sessions_read']));
    expect(readOnly.statusCode).toBe(403);
    expect(readOnly.json().error.code).toBe('permission_denied');
    const publishable = await putSettings({ refund: false }, merchant.publishableKey);
    expect(publishable.statusCode).toBeGreaterThanOrEqual(401);
    expect(publishable.statusCode).toBeLessThan(500);
    expect(await settingsOfMode()).toEqual({ ...defaults, livemode: false });

    // A change names only what it changes; the other mode keeps its own.
    const changed = await putSettings({ invoice: true });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({ ...defaults, invoice: true, livemode: false });
    expect(await settingsOfMode(merchant.liveSecretKey)).toEqual({ ...defaults, livemode: true });
  });
});

describe('receipt emails', () => {
  let paidId: string;
  let pageUrl: string;

  it('a payment by a customer with an email: one receipt with the amount, the merchant, the transaction and the page link', async () => {
    paidId = await pay(2_500_000n);
    const mail = await mailFor(PAYER_EMAIL, 'Amount paid: 2.50 USDC');
    const session = (await t.app.inject({ method: 'GET', url: `/v1/payment-sessions/${paidId}`, headers: auth() })).json();
    expect(mail.subject).toBe('Your receipt from Receipt Roasters');
    expect(mail.text).toContain('Receipt from Receipt Roasters');
    expect(mail.text).toContain(`Transaction: ${session.transactionHash} on Anvil`);
    expect(mail.text).not.toMatch(/sk_|pk_|whsec_/);
    pageUrl = pageLinkOf(mail);
    expect(pageUrl).toMatch(/\/receipts\/[A-Za-z0-9_-]{43}$/);
    // Only the token's hash is stored.
    const token = pathOf(pageUrl).split('/').pop()!;
    const receipts = await receiptsOf(paidId);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({ kind: 'payment', tokenHash: createHash('sha256').update(token).digest('hex') });
    expect(JSON.stringify(await db.sql`select * from receipts`)).not.toContain(token);
  }, 120_000);

  it('the receipt page shows the receipt; an unknown or malformed token is the same 404 page', async () => {
    const page = await t.app.inject({ method: 'GET', url: pathOf(pageUrl) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Receipt Roasters');
    expect(page.body).toContain('2.50 USDC');
    expect(page.body).toContain('Not refunded');
    expect(page.body).toContain('Anvil (local chain');
    expect(page.body).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    const unknown = await t.app.inject({ method: 'GET', url: `/receipts/${randomBytes(32).toString('base64url')}` });
    const malformed = await t.app.inject({ method: 'GET', url: '/receipts/nope' });
    const pdfOfPayment = await t.app.inject({ method: 'GET', url: `${pathOf(pageUrl)}/receipt.pdf` });
    expect(unknown.statusCode).toBe(404);
    expect(malformed.statusCode).toBe(404);
    expect(pdfOfPayment.statusCode).toBe(404);
    expect(malformed.body).toBe(unknown.body);
    expect(pdfOfPayment.body).toBe(unknown.body);
    expect(unknown.body).not.toContain('Receipt Roasters');
  });

  it('an event processed twice queues one receipt', async () => {
    await db.sql`update events set dispatched_at = null where type = 'payment.completed' and data->'object'->>'id' = ${paidId}`;
    await wakeEventDispatcher(temporal.client, temporal.taskQueue);
    await dispatched(paidId);
    expect(await receiptsOf(paidId)).toHaveLength(1);
    expect((await emailsOfKind('receipt_payment')).filter((e) => e.to_address === PAYER_EMAIL)).toHaveLength(1);
  });

  it('no receipt to a payer whose email this merchant does not know, even if another merchant knows it', async () => {
    const sessionId = await pay(1_000_000n, stranger);
    await dispatched(sessionId);
    expect(await receiptsOf(sessionId)).toHaveLength(0);
    expect(await db.sql`select 1 from outbound_emails where to_address = ${OTHER_MERCHANTS_EMAIL}`).toHaveLength(0);
  }, 120_000);

  it('the email typed at checkout gets that payment’s receipt, before the email the merchant has for the wallet', async () => {
    const typed = 'typed-at-checkout@example.com';
    const created = await t.app.inject({ method: 'POST', url: '/v1/payment-sessions', headers: auth(), payload: { amount: '1200000' } });
    const sessionId = created.json().id as string;
    const left = await t.app.inject({ method: 'POST', url: `/checkout/${sessionId}/customer-email`, payload: { email: typed } });
    expect(left.statusCode, left.body).toBeLessThan(300);
    await pay(1_200_000n, payer, sessionId);
    const mail = await mailFor(typed, 'Amount paid: 1.20 USDC');
    expect(mail.subject).toBe('Your receipt from Receipt Roasters');
    const [receipt] = await receiptsOf(sessionId);
    const [sent] = await db.sql<{ to: string }[]>`select to_address as "to" from outbound_emails where id = ${receipt!.emailId}`;
    expect(sent!.to).toBe(typed);
  }, 120_000);

  it('a refund that succeeded on chain: one refund receipt; the payment receipt page shows the refund', async () => {
    const approve = await createWalletClient({
      account: merchantAccount,
      chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
      transport: http(chain.info.rpcUrl),
    }).writeContract({
      address: settings.token,
      abi: fiatTokenAbi,
      functionName: 'approve',
      args: [refundOperatorOf(settings)! as Address, 10_000_000n],
    });
    expect((await waitForDevReceipt(pub, approve)).status).toBe('success');
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/refunds',
      headers: auth(),
      payload: { paymentSessionId: paidId, amount: '1000000', reason: 'Damaged bag' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const refundId = created.json().id as string;
    const mail = await mailFor(PAYER_EMAIL, 'Amount refunded: 1.00 USDC');
    expect(mail.subject).toBe('Your refund from Receipt Roasters');
    expect(mail.text).toContain('Damaged bag');
    await dispatched(refundId);
    expect(await receiptsOf(refundId)).toHaveLength(1);
    const refundPage = await t.app.inject({ method: 'GET', url: pathOf(pageLinkOf(mail)) });
    expect(refundPage.body).toContain('Refund sent');
    const paymentPage = await t.app.inject({ method: 'GET', url: pathOf(pageUrl) });
    expect(paymentPage.body).toContain('Partly refunded: 1.00 USDC of 2.50 USDC');
  }, 120_000);

  it('a paid invoice (switch on): one receipt to the invoice email with its lines and the PDF link; its payment gets none of its own', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/invoices',
      headers: auth(),
      payload: {
        customerEmail: INVOICE_EMAIL,
        lineItems: [
          { description: 'Beans, 1 kg', quantity: 2, unitAmount: '1500000' },
          { description: 'Grinder service', quantity: 1, unitAmount: '500000' },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const invoice = created.json();
    // An invoice is paid once sent (its email goes to the same address; the receipt is the second mail).
    const sent = await t.app.inject({ method: 'POST', url: `/v1/invoices/${invoice.id}/send`, headers: auth() });
    expect(sent.statusCode, sent.body).toBe(200);
    await pay(3_500_000n, payer, invoice.sessionId);
    const mail = await mailFor(INVOICE_EMAIL, 'Amount paid: 3.50 USDC');
    expect(mail.subject).toBe('Your receipt from Receipt Roasters');
    expect(mail.text).toContain(`Invoice ${invoice.number}`);
    expect(mail.text).toContain('Beans, 1 kg × 2: 3.00 USDC');
    await dispatched(invoice.id);
    await dispatched(invoice.sessionId);
    expect(await receiptsOf(invoice.id)).toHaveLength(1);
    expect(await receiptsOf(invoice.sessionId)).toHaveLength(0);
    const page = await t.app.inject({ method: 'GET', url: pathOf(pageLinkOf(mail)) });
    expect(page.body).toContain('Grinder service');
    expect(page.body).toContain(`href="/checkout/${invoice.sessionId}/invoice.pdf"`);
  }, 120_000);

  it('a switch turned off: the next payment gets no receipt', async () => {
    expect((await putSettings({ payment: false })).statusCode).toBe(200);
    const sessionId = await pay(700_000n);
    await dispatched(sessionId);
    expect(await receiptsOf(sessionId)).toHaveLength(0);
    expect((await emailsOfKind('receipt_payment')).filter((e) => e.to_address === PAYER_EMAIL)).toHaveLength(1);
  }, 120_000);
});
