// Every cent that reaches a merchant for a payment session is counted once and refundable
// (docs/refunds.md, "What is refundable"), on a private anvil with Circle's USDC, the real indexer,
// the worker on the Temporal dev server and the API: a relayed payment and a transfer on the same
// session, a partial payment of a session that then expires or whose invoice is voided, and a reorg
// that takes out the deposit which completed a session and then brings it back. The mode needs three
// confirmations here, so a test decides by mining blocks what the indexer and the relay see first.
import {
  type Address,
  type Hash,
  type Hex,
  type PrivateKeyAccount,
  type PublicClient,
  type TestClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  http,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import type { ChainSettings } from '../../src/chain/config.js';
import { type Authorization, randomNonce, readDomain, signAuthorization } from '../../src/chain/typed-data.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import type { TestDatabase } from '../support/db.js';
import { startPaymentsStack, type PaymentsStack } from '../support/payments-stack.js';
import { until } from '../support/until.js';

const CONFIRMATIONS = 3;
const AMOUNT = 1_000_000n;

let stack: PaymentsStack;
let chain: DevChain;
let settings: ChainSettings;
let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
let pub: PublicClient;
let testClient: TestClient;

const payout = DEV_ACCOUNTS.merchant.address;
const transferer = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);
const signer = privateKeyToAccount(DEV_ACCOUNTS.payers[1]!.privateKey);
const reorgPayer = privateKeyToAccount(DEV_ACCOUNTS.payers[2]!.privateKey);

beforeAll(async () => {
  stack = await startPaymentsStack({ depositIndexer: true, confirmations: CONFIRMATIONS });
  ({ chain, settings, pub, db, t } = stack);
  testClient = createTestClient({ mode: 'anvil', transport: http(chain.info.rpcUrl) });
  merchant = await seedMerchant(db.sql, 'Accounting merchant');
  await setPayoutAddress(db.sql, merchant.merchantId, payout);
}, 180_000);
afterAll(async () => stack?.stop());

type Session = {
  id: string;
  status: string;
  amount: string;
  transactionHash: string | null;
  amountRefundable: string;
  amountRefunded: string;
  deposit: { address: Address; amountReceived: string; amountRemaining: string; amountExcess: string; paymentUri: string };
};

const headers = () => ({ authorization: `Bearer ${merchant.secretKey}` });
const api = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: headers(), ...(payload ? { payload } : {}) });

async function createSession(body: Record<string, unknown> = {}): Promise<Session> {
  const res = await api('POST', '/v1/payment-sessions', { amount: AMOUNT.toString(), ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const getSession = async (id: string): Promise<Session> => (await api('GET', `/v1/payment-sessions/${id}`)).json();

const walletOf = (account: PrivateKeyAccount) =>
  createWalletClient({ account, chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl), transport: http(chain.info.rpcUrl) });

/** A plain ERC-20 transfer from an EOA, mined (not yet confirmed: that takes CONFIRMATIONS - 1 more blocks). */
async function transfer(to: Address, value: bigint, from = transferer): Promise<Hash> {
  const hash = await walletOf(from).writeContract({
    address: settings.token,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, value],
    gas: 200_000n,
  });
  expect((await waitForDevReceipt(pub, hash)).status).toBe('success');
  return hash;
}
const confirm = () => testClient.mine({ blocks: CONFIRMATIONS - 1 });

/** Reads until `done`, mining a block between reads (what the relay's confirmations wait for). */
const untilMining = <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) =>
  until(
    async () => {
      const value = await read();
      if (!done(value)) await testClient.mine({ blocks: 1 });
      return value;
    },
    done,
    what,
    { intervalMs: 250 },
  );

/** The payer signs an EIP-3009 authorization of `value` to the session's payTo; the merchant posts it to the relay. */
async function relayPayment(sessionId: string, value: bigint) {
  const now = (await pub.getBlock()).timestamp;
  const message: Authorization = {
    from: signer.address,
    to: payout,
    value,
    validAfter: now - 60n,
    validBefore: now + 3600n,
    nonce: randomNonce(),
  };
  const signature = await signAuthorization(signer, await readDomain(pub, settings.token), 'TransferWithAuthorization', message);
  const authorization = {
    ...message,
    value: value.toString(),
    validAfter: message.validAfter.toString(),
    validBefore: message.validBefore.toString(),
  };
  return t.app.inject({
    method: 'POST',
    url: '/v1/relay/payments',
    headers: { ...headers(), 'idempotency-key': `accounting-${sessionId}-${message.nonce}` },
    payload: { authorization, signature, paymentSessionId: sessionId },
  });
}

const depositStatuses = async (sessionId: string) =>
  (await db.sql<{ status: string }[]>`select status from deposits where payment_session_id = ${sessionId} order by created_at, id`).map(
    (r) => r.status,
  );
const eventTypes = async (sessionId: string) =>
  (await db.sql<{ type: string }[]>`select type from events where data->'object'->>'id' = ${sessionId} order by created_at, id`).map(
    (e) => e.type,
  );

/** POST /v1/refunds for the session: the whole refundable amount when `amount` is left out. */
const refund = (paymentSessionId: string, amount?: bigint) =>
  api('POST', '/v1/refunds', { paymentSessionId, ...(amount === undefined ? {} : { amount: amount.toString() }) });

describe('a relayed payment and a transfer on the same session (issue 36, item 4)', () => {
  it('a transfer confirmed while the relayed payment is in flight: both count, the second is a refundable overpayment', async () => {
    const session = await createSession();
    // The transfer is mined first but confirmed only once more blocks come: the session is still open for the relay.
    const transferHash = await transfer(session.deposit.address, AMOUNT);
    const relayed = await relayPayment(session.id, AMOUNT);
    expect(relayed.statusCode, relayed.body).toBe(200);
    const submissionId = relayed.json().id as string;
    const sent = await until(
      async () =>
        (await db.sql<{ hash: Hex | null }[]>`select transaction_hash as hash from relay_submissions where id = ${submissionId}`)[0]!.hash,
      (hash) => hash !== null,
      'the relayed payment sent',
    );
    await waitForDevReceipt(pub, sent!);
    expect((await getSession(session.id)).status).toBe('processing');
    // One block more: the transfer has its confirmations, the relayed payment not yet. The transfer pays the session.
    await testClient.mine({ blocks: 1 });
    const paid = await until(
      () => getSession(session.id),
      (s) => s.status === 'completed',
      'completed by the transfer',
    );
    expect(paid.transactionHash).toBe(transferHash);
    expect(await depositStatuses(session.id)).toEqual(['credited']);
    // Then the relayed payment confirms: the customer paid twice, and the second payment is an overpayment.
    const both = await untilMining(
      () => getSession(session.id),
      (s) => s.amountRefundable !== AMOUNT.toString(),
      'the relayed payment counted',
    );
    expect(both.amountRefundable).toBe((2n * AMOUNT).toString());
    expect(both.deposit).toMatchObject({ amountReceived: AMOUNT.toString(), amountRemaining: '0', amountExcess: AMOUNT.toString() });
    const refunded = await refund(session.id);
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json().amount).toBe((2n * AMOUNT).toString());
    expect(both.amountRefunded).toBe('0');
    expect(await getSession(session.id)).toMatchObject({ amountRefundable: '0', amountRefunded: (2n * AMOUNT).toString() });
  });

  it('a partial transfer first: the relay takes only what remains due, and the session counts both once', async () => {
    const session = await createSession();
    await transfer(session.deposit.address, 400_000n);
    await confirm();
    const partial = await until(
      () => getSession(session.id),
      (s) => s.deposit.amountReceived === '400000',
      'the partial transfer credited',
    );
    expect(partial.deposit.amountRemaining).toBe('600000');
    // The full amount would make the customer pay the transfer twice: refused, and nothing changes.
    const full = await relayPayment(session.id, AMOUNT);
    expect(full.statusCode, full.body).toBe(400);
    expect(full.json().error).toMatchObject({ code: 'invalid_request', param: 'authorization.value' });
    expect(full.json().error.message).toContain('600000');
    expect((await getSession(session.id)).status).toBe('open');
    const rest = await relayPayment(session.id, 600_000n);
    expect(rest.statusCode, rest.body).toBe(200);
    const done = await untilMining(
      () => getSession(session.id),
      (s) => s.status === 'completed',
      'completed by the relayed rest',
    );
    expect(done.deposit).toMatchObject({ amountReceived: '400000', amountRemaining: '0', amountExcess: '0' });
    expect(done.amountRefundable).toBe(AMOUNT.toString());
    const tooMuch = await refund(session.id, AMOUNT + 1n);
    expect(tooMuch.statusCode, tooMuch.body).toBe(400);
    expect(tooMuch.json().error).toMatchObject({ code: 'invalid_request', param: 'amount' });
    // A partial refund: the session says what its refunds took beside what is left (the dashboard's "partly refunded").
    const part = await refund(session.id, 300_000n);
    expect(part.statusCode, part.body).toBe(200);
    expect(await getSession(session.id)).toMatchObject({ amountRefunded: '300000', amountRefundable: (AMOUNT - 300_000n).toString() });
  });
});

describe('a partial payment of a session that does not complete is refundable (issue 36, item 3)', () => {
  it('the session expires (on a test clock) holding a partial transfer: it is refundable', async () => {
    const chainNow = Number((await pub.getBlock()).timestamp) * 1000;
    const start = Math.ceil((chainNow + 60_000) / 1000) * 1000;
    const clock = await api('POST', '/v1/test-clocks', { name: 'Expiry', frozenTime: new Date(start).toISOString() });
    expect(clock.statusCode, clock.body).toBe(200);
    const clockId = clock.json().id as string;
    const session = await createSession({ testClock: clockId });
    await transfer(session.deposit.address, 250_000n);
    await confirm();
    await until(
      () => getSession(session.id),
      (s) => s.deposit.amountReceived === '250000',
      'the partial transfer credited',
    );
    const advanced = await api('POST', `/v1/test-clocks/${clockId}/advance`, { frozenTime: new Date(start + 31 * 60_000).toISOString() });
    expect(advanced.statusCode, advanced.body).toBe(200);
    const expired = await until(
      () => getSession(session.id),
      (s) => s.status === 'expired',
      'expired',
    );
    expect(expired.amountRefundable).toBe('250000');
    expect(expired.deposit.amountReceived).toBe('250000');
    const refunded = await refund(session.id);
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json()).toMatchObject({ amount: '250000' });
    expect((await getSession(session.id)).amountRefundable).toBe('0');
  });

  it('the invoice is voided holding a partial transfer: it is refundable through the invoice', async () => {
    const created = await api('POST', '/v1/invoices', {
      customerName: 'Ada Customer',
      customerEmail: 'ada@example.com',
      currency: 'USDC',
      lineItems: [{ description: 'Consulting', quantity: 1, unitAmount: AMOUNT.toString() }],
    });
    expect(created.statusCode, created.body).toBe(200);
    const invoice = created.json();
    const sent = await api('POST', `/v1/invoices/${invoice.id}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    const session = await getSession(invoice.sessionId);
    await transfer(session.deposit.address, 300_000n);
    await confirm();
    await until(
      () => getSession(session.id),
      (s) => s.deposit.amountReceived === '300000',
      'the partial transfer credited',
    );
    const voided = await api('POST', `/v1/invoices/${invoice.id}/void`);
    expect(voided.statusCode, voided.body).toBe(200);
    const cancelled = await getSession(session.id);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.amountRefundable).toBe('300000');
    const tooMuch = await api('POST', '/v1/refunds', { invoiceId: invoice.id, amount: '300001' });
    expect(tooMuch.statusCode, tooMuch.body).toBe(400);
    const refunded = await api('POST', '/v1/refunds', { invoiceId: invoice.id });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json()).toMatchObject({ amount: '300000' });
  });
});

describe('a reorg that takes out the deposit which completed a session, then brings it back (issue 36, item 5)', () => {
  it('the deposit is credited again, not late: counted once', async () => {
    const session = await createSession();
    const snapshot = await testClient.snapshot();
    // Signed once and kept: the new chain includes the very same transaction (same hash and log).
    const wallet = walletOf(reorgPayer);
    const request = await wallet.prepareTransactionRequest({
      to: settings.token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [session.deposit.address, AMOUNT] }),
      gas: 200_000n,
    });
    const raw = await wallet.signTransaction(request);
    const hash = await wallet.sendRawTransaction({ serializedTransaction: raw });
    expect((await waitForDevReceipt(pub, hash)).status).toBe('success');
    await confirm();
    const paid = await until(
      () => getSession(session.id),
      (s) => s.status === 'completed',
      'completed by the transfer',
    );
    expect(paid.transactionHash).toBe(hash);
    expect(paid.amountRefundable).toBe(AMOUNT.toString());

    await testClient.revert({ id: snapshot });
    await testClient.mine({ blocks: 8 });
    await until(
      () => depositStatuses(session.id),
      (s) => s[0] === 'removed',
      'the deposit removed by the reorg',
    );
    expect(await eventTypes(session.id)).toContain('payment.deposit_reversed');

    expect(await wallet.sendRawTransaction({ serializedTransaction: raw })).toBe(hash);
    expect((await waitForDevReceipt(pub, hash)).status).toBe('success');
    await confirm();
    const statuses = await until(
      () => depositStatuses(session.id),
      (s) => s[0] === 'credited' || s[0] === 'late',
      'the deposit back',
    );
    expect(statuses).toEqual(['credited']);
    const after = await getSession(session.id);
    expect(after).toMatchObject({ status: 'completed', amountRefundable: AMOUNT.toString() });
    expect(after.deposit).toMatchObject({ amountReceived: AMOUNT.toString(), amountExcess: '0' });
    expect(await eventTypes(session.id)).not.toContain('payment.late_deposit');
  });
});
