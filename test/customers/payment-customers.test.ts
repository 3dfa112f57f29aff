// One-off payers become customers (issue 40, item 5; docs/decisions.md "One-off payers as customers"), on a
// private anvil with Circle's USDC, the deposit indexer, the worker on the Temporal dev server and the API:
// a relayed payment belongs to its signer's customer, a transfer to its sender's, and the email typed on the
// hosted page never picks a customer (a stranger typing a customer's email attaches nothing to that customer).
import { type Address, type PrivateKeyAccount, createWalletClient, erc20Abi, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import type { ChainSettings } from '../../src/chain/config.js';
import { type Authorization, randomNonce, readDomain, signAuthorization } from '../../src/chain/typed-data.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { startPaymentsStack, type PaymentsStack } from '../support/payments-stack.js';
import { until } from '../support/until.js';

const AMOUNT = 1_000_000n;

let stack: PaymentsStack;
let chain: DevChain;
let settings: ChainSettings;
let t: TestApp;
let merchant: SeededMerchant;

const payout = DEV_ACCOUNTS.merchant.address;
const signer = privateKeyToAccount(DEV_ACCOUNTS.payers[1]!.privateKey);
const stranger = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);

type Session = { id: string; status: string; payer: string | null; customerId: string | null; customerEmail: string | null };
type Deposit = { deposit: { address: Address } };

beforeAll(async () => {
  stack = await startPaymentsStack({ depositIndexer: true });
  ({ chain, settings, t } = stack);
  merchant = await seedMerchant(stack.db.sql, 'Customers merchant');
  await setPayoutAddress(stack.db.sql, merchant.merchantId, payout);
}, 180_000);
afterAll(async () => stack?.stop());

const headers = () => ({ authorization: `Bearer ${merchant.secretKey}` });
const api = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: headers(), ...(payload ? { payload } : {}) });

async function createSession(): Promise<Session & Deposit> {
  const res = await api('POST', '/v1/payment-sessions', { amount: AMOUNT.toString() });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const getSession = async (id: string): Promise<Session> => (await api('GET', `/v1/payment-sessions/${id}`)).json();
const completed = (id: string) =>
  until(
    () => getSession(id),
    (s) => s.status === 'completed',
    `session ${id} completed`,
  );
const customerPayments = async (customerId: string) =>
  (await api('GET', `/v1/payment-sessions?customerId=${customerId}`)).json().data.map((s: { id: string }) => s.id);

/** The email field of the hosted payment page (public: no key). */
const leaveEmail = (sessionId: string, email: string) =>
  t.app.inject({ method: 'POST', url: `/checkout/${sessionId}/customer-email`, payload: { email } });

const walletOf = (account: PrivateKeyAccount) =>
  createWalletClient({ account, chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl), transport: http(chain.info.rpcUrl) });

async function relayPayment(sessionId: string) {
  const now = (await stack.pub.getBlock()).timestamp;
  const message: Authorization = {
    from: signer.address,
    to: payout,
    value: AMOUNT,
    validAfter: now - 60n,
    validBefore: now + 3600n,
    nonce: randomNonce(),
  };
  const signature = await signAuthorization(signer, await readDomain(stack.pub, settings.token), 'TransferWithAuthorization', message);
  const authorization = {
    ...message,
    value: AMOUNT.toString(),
    validAfter: message.validAfter.toString(),
    validBefore: message.validBefore.toString(),
  };
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/relay/payments',
    headers: { ...headers(), 'idempotency-key': `customers-${sessionId}` },
    payload: { authorization, signature, paymentSessionId: sessionId },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function transfer(to: Address, from: PrivateKeyAccount) {
  const hash = await walletOf(from).writeContract({
    address: settings.token,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, AMOUNT],
    gas: 200_000n,
  });
  expect((await waitForDevReceipt(stack.pub, hash)).status).toBe('success');
}

describe('one-off payers as customers', () => {
  let signerCustomer = '';
  const paidBySigner: string[] = [];

  it("a relayed payment: the signer's customer, found again on the next payment, with the email left on the page", async () => {
    const first = await createSession();
    const left = await leaveEmail(first.id, 'payer@example.com');
    expect(left.statusCode, left.body).toBe(200);
    expect(left.json()).toEqual({ object: 'checkout_customer_email', sessionId: first.id, email: 'payer@example.com' });
    expect((await getSession(first.id)).customerId).toBeNull();
    await relayPayment(first.id);
    const paid = await completed(first.id);
    expect(paid).toMatchObject({ payer: signer.address, customerEmail: 'payer@example.com', customerId: expect.stringMatching(/^cus_/) });
    signerCustomer = paid.customerId!;
    paidBySigner.push(first.id);
    const customer = (await api('GET', `/v1/customers/${signerCustomer}`)).json();
    expect(customer).toMatchObject({
      walletAddress: signer.address.toLowerCase(),
      email: 'payer@example.com',
      completedPaymentCount: 1,
      subscriptionCount: 0,
    });
    // The payment.completed event carries the customer.
    const [event] = await stack.db.sql<{ customerId: string }[]>`
      select data->'object'->>'customerId' as "customerId" from events
      where type = 'payment.completed' and data->'object'->>'id' = ${first.id}`;
    expect(event?.customerId).toBe(signerCustomer);

    // The same wallet again, another email typed: the same customer, whose first email stays.
    const second = await createSession();
    expect((await leaveEmail(second.id, 'other@example.com')).statusCode).toBe(200);
    await relayPayment(second.id);
    expect((await completed(second.id)).customerId).toBe(signerCustomer);
    paidBySigner.push(second.id);
    expect((await api('GET', `/v1/customers/${signerCustomer}`)).json()).toMatchObject({
      email: 'payer@example.com',
      completedPaymentCount: 2,
    });
    expect(await customerPayments(signerCustomer)).toEqual([...paidBySigner].reverse());
  });

  it("a stranger's transfer with that customer's email goes to the stranger's own wallet, never to that customer", async () => {
    const session = await createSession();
    expect((await leaveEmail(session.id, 'payer@example.com')).statusCode).toBe(200);
    await transfer(session.deposit.address, stranger);
    const paid = await completed(session.id);
    // The payer of a transfer is its `from`.
    expect(paid.payer).toBe(stranger.address);
    expect(paid.customerId).toMatch(/^cus_/);
    expect(paid.customerId).not.toBe(signerCustomer);
    expect((await api('GET', `/v1/customers/${paid.customerId}`)).json()).toMatchObject({
      walletAddress: stranger.address.toLowerCase(),
      completedPaymentCount: 1,
    });
    expect(await customerPayments(signerCustomer)).toEqual([...paidBySigner].reverse());
    expect(await customerPayments(paid.customerId!)).toEqual([session.id]);
    expect((await api('GET', `/v1/customers/${signerCustomer}`)).json().completedPaymentCount).toBe(2);

    // Once paid the email no longer changes; a bad email is refused; neither changes anything.
    const late = await leaveEmail(session.id, 'late@example.com');
    expect(late.statusCode, late.body).toBe(403);
    expect(late.json().error.code).toBe('session_invalid_state');
    const open = await createSession();
    const bad = await leaveEmail(open.id, 'not an email');
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'invalid_request', param: 'email' });
    expect((await getSession(session.id)).customerEmail).toBe('payer@example.com');
    expect((await getSession(open.id)).customerEmail).toBeNull();
  });

  it('refuses a customerId filter that is not a customer id, and lists nothing for another merchant', async () => {
    const bad = await api('GET', '/v1/payment-sessions?customerId=sub_123');
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'invalid_request', param: 'customerId' });
    const other = await seedMerchant(stack.db.sql, 'Other merchant');
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/payment-sessions?customerId=${signerCustomer}`,
      headers: { authorization: `Bearer ${other.secretKey}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
  });
});
