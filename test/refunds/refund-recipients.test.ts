// Who a refund goes to (issue 36, item 1; docs/refunds.md, Who gets a refund): on a private anvil with
// Circle's USDC, the real deposit indexer, the worker on the Temporal dev server and the API. A
// stranger's dust sent to a public deposit address after the customer paid never redirects the
// refund; a relayed payment refunds its signer; a late deposit refunds its own sender; the merchant
// may name the destination; several senders make the refund wait for the customer's claim.
import { type Address, type Hash, type PrivateKeyAccount, type PublicClient, createWalletClient, erc20Abi, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import type { ChainSettings } from '../../src/chain/config.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { refundOperatorOf } from '../../src/refunds/allowance.js';
import { seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import type { TestDatabase } from '../support/db.js';
import { startPaymentsStack, type PaymentsStack } from '../support/payments-stack.js';
import { payRelayedSession } from '../support/relayed-session.js';
import { until } from '../support/until.js';

let stack: PaymentsStack;
let chain: DevChain;
let settings: ChainSettings;
let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
let pub: PublicClient;

const payout = DEV_ACCOUNTS.merchant.address;
const merchantAccount = privateKeyToAccount(DEV_ACCOUNTS.merchant.privateKey);
const customer = privateKeyToAccount(DEV_ACCOUNTS.payers[2]!.privateKey);
const stranger = privateKeyToAccount(DEV_ACCOUNTS.payers[3]!.privateKey);
const friend = privateKeyToAccount(DEV_ACCOUNTS.payers[4]!.privateKey);

beforeAll(async () => {
  stack = await startPaymentsStack({ depositIndexer: true });
  ({ chain, settings, pub, db, t } = stack);
  merchant = await seedMerchant(db.sql, 'Recipient merchant');
  await setPayoutAddress(db.sql, merchant.merchantId, payout);
}, 120_000);
afterAll(async () => stack?.stop());

const headers = () => ({ authorization: `Bearer ${merchant.secretKey}` });
const get = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: headers() })).json();
const refund = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/v1/refunds', headers: { ...headers(), 'idempotency-key': `refund-${Math.random()}` }, payload });

async function createSession(amount: string): Promise<{ id: string; deposit: { address: Address } }> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/payment-sessions', headers: headers(), payload: { amount } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function sendToken(from: PrivateKeyAccount, functionName: 'transfer' | 'approve', to: Address, value: bigint): Promise<Hash> {
  const wallet = createWalletClient({
    account: from,
    chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
    transport: http(chain.info.rpcUrl),
  });
  const hash = await wallet.writeContract({ address: settings.token, abi: erc20Abi, functionName, args: [to, value], gas: 200_000n });
  expect((await waitForDevReceipt(pub, hash)).status).toBe('success');
  return hash;
}
const transfer = (from: PrivateKeyAccount, to: Address, value: bigint) => sendToken(from, 'transfer', to, value);
const balanceOf = (who: Address) => pub.readContract({ address: settings.token, abi: erc20Abi, functionName: 'balanceOf', args: [who] });

const depositsOf = (sessionId: string) =>
  db.sql<{ id: string; status: string; fromAddress: string }[]>`
    select id, status, from_address as "fromAddress" from deposits where payment_session_id = ${sessionId} order by block_number, log_index`;

/** A session the customer paid by transfer, then a stranger's dust on its public deposit address (a late deposit). */
async function paidThenDusted(): Promise<{ sessionId: string; dustDepositId: string }> {
  const session = await createSession('1000000');
  await transfer(customer, session.deposit.address, 1_000_000n);
  await until(
    () => get(`/v1/payment-sessions/${session.id}`),
    (s) => s.status === 'completed',
    'completed',
  );
  await transfer(stranger, session.deposit.address, 1n);
  const rows = await until(
    () => depositsOf(session.id),
    (r) => r.length === 2 && r[1]!.status === 'late',
    "the stranger's late deposit",
  );
  return { sessionId: session.id, dustDepositId: rows[1]!.id };
}

describe('refund recipients', () => {
  let dusted: { sessionId: string; dustDepositId: string };

  it("a stranger's dust after the customer paid does not redirect the refund: it goes to the sender of the deposit that paid", async () => {
    dusted = await paidThenDusted();
    // The payout wallet's refund allowance lets the operator send it, so it reaches the chain by itself.
    await sendToken(merchantAccount, 'approve', refundOperatorOf(settings)!, 1_000_000n);
    const [customerBefore, strangerBefore] = await Promise.all([balanceOf(customer.address), balanceOf(stranger.address)]);
    const res = await refund({ paymentSessionId: dusted.sessionId, amount: '1000000' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'processing',
      method: 'allowance',
      recipient: customer.address,
      recipientSource: 'deposit_sender',
    });
    const done = await until(
      () => get(`/v1/refunds/${res.json().id}`),
      (r) => r.status !== 'processing',
      'refund settled',
    );
    expect(done).toMatchObject({ status: 'succeeded', recipient: customer.address });
    expect(await balanceOf(customer.address)).toBe(customerBefore + 1_000_000n);
    expect(await balanceOf(stranger.address)).toBe(strangerBefore);
  });

  it('a late deposit refunds its own sender, at most what it brought', async () => {
    const over = await refund({ paymentSessionId: dusted.sessionId, depositId: dusted.dustDepositId, amount: '2' });
    expect(over.statusCode).toBe(400);
    expect(over.json().error).toMatchObject({ code: 'invalid_request', param: 'amount' });
    const own = await refund({ paymentSessionId: dusted.sessionId, depositId: dusted.dustDepositId });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({
      amount: '1',
      recipient: stranger.address,
      recipientSource: 'deposit_sender',
      depositId: dusted.dustDepositId,
    });
    const again = await refund({ paymentSessionId: dusted.sessionId, depositId: dusted.dustDepositId });
    expect(again.statusCode).toBe(403);
    const unknown = await refund({ paymentSessionId: dusted.sessionId, depositId: 'dep_01JZZZZZZZZZZZZZZZZZZZZZZZ' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toMatchObject({ param: 'depositId' });
  });

  it('a relayed payment refunds the wallet that signed it', async () => {
    const sessionId = await payRelayedSession({
      app: t.app,
      secretKey: merchant.secretKey,
      pub,
      token: settings.token,
      payer: friend,
      payTo: payout,
      amount: 500_000n,
      keyPrefix: 'recipients',
    });
    const res = await refund({ paymentSessionId: sessionId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ amount: '500000', recipient: friend.address, recipientSource: 'payer_signer' });
  });

  it('metadata on a refund: given at creation, on the object and in the list filter; bad metadata refunds nothing', async () => {
    const sessionId = await payRelayedSession({
      app: t.app,
      secretKey: merchant.secretKey,
      pub,
      token: settings.token,
      payer: friend,
      payTo: payout,
      amount: 200_000n,
      keyPrefix: 'recipients-metadata',
    });
    for (const [metadata, param] of [
      [Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])), 'metadata'],
      [{ ticket: 'v'.repeat(501) }, 'metadata.ticket'],
      // A wrong type fails both body shapes (by session, by invoice): the closest one names the field.
      [{ ticket: 7 }, 'metadata.ticket'],
    ] as const) {
      const res = await refund({ paymentSessionId: sessionId, metadata });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'invalid_request', param });
    }
    expect((await get(`/v1/payment-sessions/${sessionId}`)).amountRefundable).toBe('200000');

    const res = await refund({ paymentSessionId: sessionId, amount: '50000', metadata: { ticket: 'SUP-42', agent: 'ana' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().metadata).toEqual({ ticket: 'SUP-42', agent: 'ana' });
    const plain = await refund({ paymentSessionId: sessionId, amount: '50000' });
    expect(plain.json().metadata).toEqual({});
    expect((await get(`/v1/refunds/${res.json().id}`)).metadata).toEqual({ ticket: 'SUP-42', agent: 'ana' });
    const listed = await get('/v1/refunds?metadata[ticket]=SUP-42');
    expect(listed.data.map((r: { id: string }) => r.id)).toEqual([res.json().id]);
    expect((await get('/v1/refunds?metadata[ticket]=SUP-42&metadata[agent]=bo')).data).toEqual([]);
  });

  it('the merchant may name the destination; a destination that cannot be a customer wallet is refused and changes nothing', async () => {
    const session = await createSession('300000');
    await transfer(customer, session.deposit.address, 300_000n);
    await until(
      () => get(`/v1/payment-sessions/${session.id}`),
      (s) => s.status === 'completed',
      'completed',
    );
    const refused = async (destination: string, message?: RegExp) => {
      const res = await refund({ paymentSessionId: session.id, destination });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'invalid_request', param: 'destination' });
      if (message) expect(res.json().error.message).toMatch(message);
    };
    await refused('0x0000000000000000000000000000000000000000', /zero address/);
    await refused(session.deposit.address, /deposit address/);
    await refused(payout, /payout/);
    await refused(settings.token, /platform/);
    await refused(friend.address.slice(0, 10) + friend.address.slice(10).toUpperCase().replace('X', 'x'));
    await refused('0x1234');
    expect((await get(`/v1/payment-sessions/${session.id}`)).amountRefundable).toBe('300000');
    const both = await refund({ paymentSessionId: session.id, destination: friend.address, customerClaim: true });
    expect(both.statusCode).toBe(400);
    expect(both.json().error).toMatchObject({ param: 'customerClaim' });

    const res = await refund({ paymentSessionId: session.id, destination: friend.address.toLowerCase(), amount: '100000' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      recipient: friend.address,
      recipientSource: 'merchant_specified',
      instructions: { to: friend.address },
    });
  });

  it('several senders paid: the refund waits for the customer (requires_action, a claim link), holds its amount and can be cancelled', async () => {
    const session = await createSession('1000000');
    await transfer(customer, session.deposit.address, 600_000n);
    await until(
      () => get(`/v1/payment-sessions/${session.id}`),
      (s) => s.deposit.amountReceived === '600000',
      'first part credited',
    );
    await transfer(friend, session.deposit.address, 400_000n);
    await until(
      () => get(`/v1/payment-sessions/${session.id}`),
      (s) => s.status === 'completed',
      'completed',
    );
    const res = await refund({ paymentSessionId: session.id, amount: '700000' });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json();
    expect(created).toMatchObject({ status: 'requires_action', recipient: null, recipientSource: null, instructions: null });
    expect(created.claimUrl).toMatch(/\/refund-claims\/[A-Za-z0-9_-]{43}$/);
    expect((await get(`/v1/payment-sessions/${session.id}`)).amountRefundable).toBe('300000');
    // No transfer to record while nobody is known to receive it.
    const record = await t.app.inject({
      method: 'POST',
      url: `/v1/refunds/${created.id}/signature`,
      headers: headers(),
      payload: { transactionHash: `0x${'ab'.repeat(32)}` },
    });
    expect(record.statusCode).toBe(403);
    const cancelled = await t.app.inject({ method: 'POST', url: `/v1/refunds/${created.id}/cancel`, headers: headers() });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', claimUrl: null });
    expect((await get(`/v1/payment-sessions/${session.id}`)).amountRefundable).toBe('1000000');
    // The link of a cancelled refund takes no address.
    const path = new URL(created.claimUrl, 'http://localhost').pathname;
    const late = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `address=${customer.address}`,
    });
    expect(late.statusCode).toBe(409);
    expect((await get(`/v1/refunds/${created.id}`)).recipient).toBeNull();
  });
});
