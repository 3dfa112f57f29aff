// Payment sessions, invoices and refunds against a private anvil: the real app,
// the real worker on the Temporal dev server (relaySubmissionWorkflow ->
// paymentSessionWorkflow -> invoiceWorkflow) and real transfers.
import { type Address, type Hex, type PublicClient, createPublicClient, createWalletClient, encodeFunctionData, http } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import type { ChainSettings } from '../../src/chain/config.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { type Authorization, randomNonce, readDomain, signAuthorization } from '../../src/chain/typed-data.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { startSmtpSink, type SmtpSink } from '../../tools/dev/smtp-sink.js';
import { createMailer, type Mailer } from '../../src/email/mailer.js';
import { newId } from '../../src/ids.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, startPrivateChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { recordHistory } from '../support/histories.js';
import { relayWorkflowId } from '../../workflows/relay-submission.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { until } from '../support/until.js';

let chain: DevChain;
let settings: ChainSettings;
let db: TestDatabase;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let pub: PublicClient;
let token: Address;
let sink: SmtpSink;
let mailer: Mailer;

const payout = DEV_ACCOUNTS.merchant.address;
const [payerA, payerB] = DEV_ACCOUNTS.payers.map((p) => privateKeyToAccount(p.privateKey)) as [PrivateKeyAccount, PrivateKeyAccount];
const merchantWallet = () =>
  createWalletClient({
    account: privateKeyToAccount(DEV_ACCOUNTS.merchant.privateKey),
    chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
    transport: http(chain.info.rpcUrl),
  });
let keyCounter = 0;
/** The relay workflow's shape (as in test/relay/relay.test.ts), carried in the name of the history recorded here. */
const RELAY_HISTORY_SHAPE = 'base';

const newKey = () => `checkout-test-${Date.now()}-${keyCounter++}`;

beforeAll(async () => {
  chain = await startPrivateChain();
  settings = settingsOf(chain.info);
  token = chain.info.token;
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
  merchant = await seedMerchant(db.sql, 'Checkout merchant');
  await setPayoutAddress(db.sql, merchant.merchantId, payout);
});
afterAll(async () => {
  await t?.close();
  await temporal?.stop();
  mailer?.close();
  await sink?.stop();
  await db?.drop();
  await chain?.stop();
});

const auth = (key = merchant.secretKey) => ({ authorization: `Bearer ${key}` });
const balanceOf = (who: Address) => pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [who] });

async function signedPayment(signer: PrivateKeyAccount, to: Address, value: bigint) {
  const now = (await pub.getBlock()).timestamp;
  const message: Authorization = { from: signer.address, to, value, validAfter: now - 60n, validBefore: now + 3600n, nonce: randomNonce() };
  const signature = await signAuthorization(signer, await readDomain(pub, token), 'TransferWithAuthorization', message);
  return {
    authorization: {
      from: message.from,
      to: message.to,
      value: value.toString(),
      validAfter: message.validAfter.toString(),
      validBefore: message.validBefore.toString(),
      nonce: message.nonce,
    },
    signature,
  };
}

const relayPayment = (payload: object, key = newKey()) =>
  t.app.inject({ method: 'POST', url: '/v1/relay/payments', headers: { ...auth(), 'idempotency-key': key }, payload });
const get = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: auth() })).json();

async function transferFromMerchant(to: Address, data: Hex): Promise<Hex> {
  const hash = await merchantWallet().sendTransaction({ to, data });
  const receipt = await waitForDevReceipt(pub, hash);
  expect(receipt.status).toBe('success');
  return hash;
}

let paidInvoice: { id: string; sessionId: string; total: string };
let paymentTx: Hex;

describe('payment sessions and invoices paid through the relay', () => {
  it('creates a session with a publishable key and shows the checkout only what it needs', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/payment-sessions',
      headers: auth(merchant.publishableKey),
      payload: {
        amount: '2500000',
        successUrl: 'https://shop.example/ok',
        cancelUrl: 'https://shop.example/cancel',
        metadata: { order: '42' },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const session = created.json();
    expect(session).toMatchObject({
      object: 'payment_session',
      status: 'open',
      amount: '2500000',
      currency: 'USDC',
      payTo: payout,
      token,
      chainId: chain.info.chainId,
      metadata: { order: '42' },
    });
    expect(session.checkoutUrl).toMatch(new RegExp(`/checkout/${session.id}$`));
    expect(Date.parse(session.expiresAt) - Date.parse(session.createdAt)).toBeGreaterThan(29 * 60_000);

    const publicRead = await t.app.inject({ method: 'GET', url: `/v1/checkout/sessions/${session.id}` });
    expect(publicRead.statusCode).toBe(200);
    const checkout = publicRead.json();
    expect(checkout).toMatchObject({
      id: session.id,
      amount: '2500000',
      payTo: payout,
      status: 'open',
      merchantName: 'Checkout merchant',
      successUrl: 'https://shop.example/ok',
    });
    expect(checkout).not.toHaveProperty('metadata');
    expect(checkout).not.toHaveProperty('payer');

    const bad = await t.app.inject({ method: 'POST', url: '/v1/payment-sessions', headers: auth(), payload: { amount: '1.5' } });
    expect(bad.statusCode).toBe(400);
    const otherMerchant = await seedMerchant(db.sql, 'Other');
    const hidden = await t.app.inject({ method: 'GET', url: `/v1/payment-sessions/${session.id}`, headers: auth(otherMerchant.secretKey) });
    expect(hidden.statusCode).toBe(404);
  });

  it('created -> sent -> paid through a real relayed payment: session completed, payment.completed, invoice.paid', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/invoices',
      headers: auth(),
      payload: {
        customerEmail: 'payer@example.com',
        lineItems: [{ description: 'Widget', quantity: 2, unitAmount: '1750000' }],
        dueInDays: 14,
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const invoice = created.json();
    expect(invoice.total).toBe('3500000');
    // A draft is not payable yet (spec: sent -> paid): refused before anything is sent.
    const early = await relayPayment({ ...(await signedPayment(payerA, payout, 3_500_000n)), paymentSessionId: invoice.sessionId });
    expect(early.statusCode).toBe(403);
    expect(early.json().error).toMatchObject({ code: 'session_invalid_state', param: 'paymentSessionId' });
    expect(early.json().error.message).toMatch(/draft/);
    expect((await get(`/v1/payment-sessions/${invoice.sessionId}`)).status).toBe('open');
    const sent = await t.app.inject({ method: 'POST', url: `/v1/invoices/${invoice.id}/send`, headers: auth() });
    expect(sent.json().status).toBe('sent');
    await sink.waitFor((m) => m.to.includes('payer@example.com'), 30_000);
    await until(
      () => get(`/v1/invoices/${invoice.id}`),
      (i) => i.sentAt !== null,
      'invoice.sent',
    );

    // A payment of the wrong amount for the session is refused before anything is sent.
    const wrong = await relayPayment({ ...(await signedPayment(payerA, payout, 1n)), paymentSessionId: invoice.sessionId });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({ code: 'invalid_request', param: 'authorization.value' });

    const [payerBefore, payoutBefore] = await Promise.all([balanceOf(payerA.address), balanceOf(payout)]);
    const paidKey = newKey();
    const paid = await relayPayment({ ...(await signedPayment(payerA, payout, 3_500_000n)), paymentSessionId: invoice.sessionId }, paidKey);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(['processing', 'completed']).toContain((await get(`/v1/payment-sessions/${invoice.sessionId}`)).status);

    const done = await until(
      () => get(`/v1/invoices/${invoice.id}`),
      (i) => i.status === 'paid',
      'invoice paid',
    );
    // A submission that pays a session reports its outcome to it (the report other submissions skip).
    const relayRun = temporal.client.workflow.getHandle(
      relayWorkflowId({ merchantId: merchant.merchantId, livemode: false, idempotencyKey: paidKey }),
    );
    await relayRun.result();
    await recordHistory(relayRun, 'relay-session-confirmed', RELAY_HISTORY_SHAPE);
    expect(done.paidAt).not.toBeNull();
    const session = await get(`/v1/payment-sessions/${invoice.sessionId}`);
    expect(session).toMatchObject({ status: 'completed', payer: payerA.address, invoiceId: invoice.id });
    expect(session.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await balanceOf(payerA.address)).toBe(payerBefore - 3_500_000n);
    expect(await balanceOf(payout)).toBe(payoutBefore + 3_500_000n);
    const events =
      await db.sql`select type from events where merchant_id = ${merchant.merchantId} and type in ('payment.completed', 'invoice.paid')`;
    expect(events.map((e) => e.type).sort()).toEqual(['invoice.paid', 'payment.completed']);

    // A completed session cannot be paid again.
    const again = await relayPayment({ ...(await signedPayment(payerB, payout, 3_500_000n)), paymentSessionId: invoice.sessionId });
    expect(again.statusCode).toBe(403);
    expect(again.json().error.code).toBe('session_invalid_state');
    const voided = await t.app.inject({ method: 'POST', url: `/v1/invoices/${invoice.id}/void`, headers: auth() });
    expect(voided.statusCode).toBe(403);

    paidInvoice = invoice;
    paymentTx = session.transactionHash;
  });
});

describe('refunds', () => {
  it('refuses a refund of a payment that is not completed', async () => {
    const session = (
      await t.app.inject({ method: 'POST', url: '/v1/payment-sessions', headers: auth(), payload: { amount: '10' } })
    ).json();
    const response = await t.app.inject({ method: 'POST', url: '/v1/refunds', headers: auth(), payload: { paymentSessionId: session.id } });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('session_invalid_state');
  });

  it('partial, over-refund refused, wrong hash refused, then full: never above the payment', async () => {
    const partial = await t.app.inject({
      method: 'POST',
      url: '/v1/refunds',
      headers: auth(),
      payload: { invoiceId: paidInvoice.id, amount: '1000000', reason: 'one widget broken' },
    });
    expect(partial.statusCode, partial.body).toBe(200);
    const refund = partial.json();
    expect(refund).toMatchObject({
      status: 'pending',
      amount: '1000000',
      paymentSessionId: paidInvoice.sessionId,
      invoiceId: paidInvoice.id,
    });
    expect(refund.instructions).toMatchObject({ chainId: chain.info.chainId, token, from: payout, to: payerA.address, amount: '1000000' });
    expect(refund.instructions.call).toMatchObject({ to: token, value: '0', functionName: 'transfer', args: [payerA.address, '1000000'] });

    // More than remains (3.5 - 1.0 reserved) is refused.
    const over = await t.app.inject({
      method: 'POST',
      url: '/v1/refunds',
      headers: auth(),
      payload: { paymentSessionId: paidInvoice.sessionId, amount: '2500001' },
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().error).toMatchObject({ code: 'invalid_request', param: 'amount' });

    // The original payment's hash is not this refund's transfer.
    const wrong = await t.app.inject({
      method: 'POST',
      url: `/v1/refunds/${refund.id}/signature`,
      headers: auth(),
      payload: { transactionHash: paymentTx },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({ code: 'invalid_request', param: 'transactionHash' });
    expect(wrong.json().error.message).toMatch(/does not transfer exactly 1000000/);
    // A transfer of another amount is refused too.
    const payerBefore = await balanceOf(payerA.address);
    const short = await transferFromMerchant(
      token,
      encodeFunctionData({ abi: fiatTokenAbi, functionName: 'transfer', args: [payerA.address, 999_999n] }),
    );
    const shortRes = await t.app.inject({
      method: 'POST',
      url: `/v1/refunds/${refund.id}/signature`,
      headers: auth(),
      payload: { transactionHash: short },
    });
    expect(shortRes.statusCode).toBe(400);
    expect((await get(`/v1/refunds/${refund.id}`)).status).toBe('pending');

    const hash = await transferFromMerchant(refund.instructions.call.to, refund.instructions.call.data);
    const ok = await t.app.inject({
      method: 'POST',
      url: `/v1/refunds/${refund.id}/signature`,
      headers: auth(),
      payload: { transactionHash: hash },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'succeeded', transactionHash: hash });
    expect(await balanceOf(payerA.address)).toBe(payerBefore + 999_999n + 1_000_000n);

    // The same transfer cannot pay a second refund.
    const second = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/refunds',
        headers: auth(),
        payload: { paymentSessionId: paidInvoice.sessionId, amount: '1000000' },
      })
    ).json();
    const reused = await t.app.inject({
      method: 'POST',
      url: `/v1/refunds/${second.id}/signature`,
      headers: auth(),
      payload: { transactionHash: hash },
    });
    expect(reused.statusCode).toBe(400);

    // Full: the rest (3.5 - 1.0 - 1.0 reserved = 1.5).
    const rest = await t.app.inject({
      method: 'POST',
      url: '/v1/refunds',
      headers: auth(),
      payload: { paymentSessionId: paidInvoice.sessionId },
    });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json().amount).toBe('1500000');
    const restHash = await transferFromMerchant(token, rest.json().instructions.call.data);
    const restOk = await t.app.inject({
      method: 'POST',
      url: `/v1/refunds/${rest.json().id}/signature`,
      headers: auth(),
      payload: { transactionHash: restHash },
    });
    expect(restOk.json().status).toBe('succeeded');

    const none = await t.app.inject({
      method: 'POST',
      url: '/v1/refunds',
      headers: auth(),
      payload: { paymentSessionId: paidInvoice.sessionId, amount: '1' },
    });
    expect(none.statusCode).toBe(403);
    const listed = await get('/v1/refunds');
    expect(listed.data).toHaveLength(3);
  });

  it('a full refund in one go', async () => {
    const session = (
      await t.app.inject({ method: 'POST', url: '/v1/payment-sessions', headers: auth(), payload: { amount: '700000' } })
    ).json();
    const paid = await relayPayment({ ...(await signedPayment(payerB, payout, 700_000n)), paymentSessionId: session.id });
    expect(paid.statusCode, paid.body).toBe(200);
    await until(
      () => get(`/v1/payment-sessions/${session.id}`),
      (s) => s.status === 'completed',
      'session completed',
    );
    const full = (
      await t.app.inject({ method: 'POST', url: '/v1/refunds', headers: auth(), payload: { paymentSessionId: session.id } })
    ).json();
    expect(full).toMatchObject({ amount: '700000', status: 'pending', instructions: { to: payerB.address } });
    const hash = await transferFromMerchant(token, full.instructions.call.data);
    const ok = await t.app.inject({
      method: 'POST',
      url: `/v1/refunds/${full.id}/signature`,
      headers: auth(),
      payload: { transactionHash: hash },
    });
    expect(ok.json().status).toBe('succeeded');
    expect((await get(`/v1/refunds/${full.id}`)).status).toBe('succeeded');

    // A succeeded refund is final.
    const late = await t.app.inject({ method: 'POST', url: `/v1/refunds/${full.id}/cancel`, headers: auth() });
    expect(late.statusCode).toBe(403);
    expect(late.json().error).toMatchObject({ code: 'session_invalid_state', param: 'id' });
  });

  it('cancelling a pending refund releases its amount; a cancelled refund takes no transaction', async () => {
    const session = (
      await t.app.inject({ method: 'POST', url: '/v1/payment-sessions', headers: auth(), payload: { amount: '400000' } })
    ).json();
    const paid = await relayPayment({ ...(await signedPayment(payerB, payout, 400_000n)), paymentSessionId: session.id });
    expect(paid.statusCode, paid.body).toBe(200);
    await until(
      () => get(`/v1/payment-sessions/${session.id}`),
      (s) => s.status === 'completed',
      'session completed',
    );
    const first = (
      await t.app.inject({ method: 'POST', url: '/v1/refunds', headers: auth(), payload: { paymentSessionId: session.id } })
    ).json();
    expect(first).toMatchObject({ amount: '400000', status: 'pending', cancelledAt: null });
    // Everything is reserved by the pending refund.
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/v1/refunds',
      headers: auth(),
      payload: { paymentSessionId: session.id, amount: '1' },
    });
    expect(blocked.statusCode).toBe(403);

    const cancelled = await t.app.inject({ method: 'POST', url: `/v1/refunds/${first.id}/cancel`, headers: auth() });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ id: first.id, status: 'cancelled' });
    expect(Date.parse(cancelled.json().cancelledAt)).not.toBeNaN();
    expect((await get(`/v1/refunds/${first.id}`)).status).toBe('cancelled');

    const again = await t.app.inject({ method: 'POST', url: `/v1/refunds/${first.id}/cancel`, headers: auth() });
    expect(again.statusCode).toBe(403);
    expect(again.json().error).toMatchObject({ code: 'session_invalid_state', param: 'id' });

    // The transfer sent anyway is refused on the cancelled refund, and accepted on a new one.
    const hash = await transferFromMerchant(token, first.instructions.call.data);
    const refused = await t.app.inject({
      method: 'POST',
      url: `/v1/refunds/${first.id}/signature`,
      headers: auth(),
      payload: { transactionHash: hash },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('session_invalid_state');
    expect((await get(`/v1/refunds/${first.id}`)).status).toBe('cancelled');
    const second = (
      await t.app.inject({ method: 'POST', url: '/v1/refunds', headers: auth(), payload: { paymentSessionId: session.id } })
    ).json();
    expect(second).toMatchObject({ amount: '400000', status: 'pending' });
    const ok = await t.app.inject({
      method: 'POST',
      url: `/v1/refunds/${second.id}/signature`,
      headers: auth(),
      payload: { transactionHash: hash },
    });
    expect(ok.json()).toMatchObject({ status: 'succeeded', transactionHash: hash });
  });

  it('cancelling needs refunds_write and an existing refund of this merchant and mode', async () => {
    const missing = await t.app.inject({ method: 'POST', url: `/v1/refunds/${newId('refund')}/cancel`, headers: auth() });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toMatchObject({ code: 'not_found', param: 'id' });
    // Ids are opaque: one of another shape does not exist either.
    const malformed = await t.app.inject({ method: 'POST', url: '/v1/refunds/not-a-refund/cancel', headers: auth() });
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json().error).toMatchObject({ code: 'not_found', param: 'id' });
    const readOnly = await merchant.keyWithScopes(['refunds_read']);
    const denied = await t.app.inject({ method: 'POST', url: `/v1/refunds/${newId('refund')}/cancel`, headers: auth(readOnly) });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('permission_denied');
  });
});
