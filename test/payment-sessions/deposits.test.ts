// Paying by transfer to a session's deposit address, with no browser and no signature: a plain
// ERC-20 transfer from an EOA on a private anvil, the real indexer (confirmed logs, reorgs), the real
// worker on the Temporal dev server (paymentSessionWorkflow, depositSweepWorkflow) and the API.
// One test per money rule of docs/decisions.md (Deposit addresses).
import {
  type Address,
  type Hash,
  type PublicClient,
  type TestClient,
  createTestClient,
  createWalletClient,
  erc20Abi,
  http,
  keccak256,
  toHex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import type { ChainSettings } from '../../src/chain/config.js';
import { DEPOSIT_FACTORY_ADDRESS } from '../../src/chain/deposits/deposit-contracts.js';
import { depositForwarderFactoryAbi, depositForwarderFactoryV2Abi } from '../../src/chain/generated/contracts.js';
import { DEPOSIT_FACTORY_V2_ADDRESS } from '../../src/chain/deposits/deposit-contracts-v2.js';
import { depositAddressOf, depositIdOf } from '../../src/chain/deposits/deposit-address.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { checkPayoutAddress } from '../../src/merchants/payout-address-checks.js';
import { InvalidRequestError } from '../../src/errors.js';
import { seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import type { TestDatabase } from '../support/db.js';
import { startPaymentsStack, type PaymentsStack } from '../support/payments-stack.js';
import { until } from '../support/until.js';

let stack: PaymentsStack;
let chain: DevChain;
let settings: ChainSettings;
let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
let pub: PublicClient;
let testClient: TestClient;

const payout = DEV_ACCOUNTS.merchant.address;
const payer = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);

beforeAll(async () => {
  stack = await startPaymentsStack({ depositIndexer: true });
  ({ chain, settings, pub, db, t } = stack);
  testClient = createTestClient({ mode: 'anvil', transport: http(chain.info.rpcUrl) });
  merchant = await seedMerchant(db.sql, 'Deposit merchant');
  await setPayoutAddress(db.sql, merchant.merchantId, payout);
}, 120_000);
afterAll(async () => stack?.stop());

type Session = {
  id: string;
  status: string;
  amount: string;
  transactionHash: string | null;
  amountRefundable: string;
  deposit: { address: Address; amountReceived: string; amountRemaining: string; amountExcess: string; paymentUri: string };
};

const headers = () => ({ authorization: `Bearer ${merchant.secretKey}` });

async function createSession(amount: string): Promise<Session> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/payment-sessions', headers: headers(), payload: { amount } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const getSession = async (id: string): Promise<Session> =>
  (await t.app.inject({ method: 'GET', url: `/v1/payment-sessions/${id}`, headers: headers() })).json();

/** A plain ERC-20 transfer from an EOA: what a wallet or an exchange withdrawal sends. */
async function transfer(to: Address, value: bigint): Promise<Hash> {
  const wallet = createWalletClient({
    account: payer,
    chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
    transport: http(chain.info.rpcUrl),
  });
  const hash = await wallet.writeContract({
    address: settings.token,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, value],
    gas: 200_000n,
  });
  expect((await waitForDevReceipt(pub, hash)).status).toBe('success');
  return hash;
}
const balanceOf = (who: Address) => pub.readContract({ address: settings.token, abi: erc20Abi, functionName: 'balanceOf', args: [who] });
const eventTypes = async (sessionId: string) =>
  (await db.sql<{ type: string }[]>`select type from events where data->'object'->>'id' = ${sessionId} order by created_at, id`).map(
    (e) => e.type,
  );
const depositRows = (sessionId: string) =>
  db.sql<{ status: string; amount: string; sweptAt: Date | null; sweepTransactionHash: string | null }[]>`
    select status, amount::text as amount, swept_at as "sweptAt", sweep_transaction_hash as "sweepTransactionHash"
    from deposits where payment_session_id = ${sessionId} order by block_number, log_index`;
const allSwept = (sessionId: string, count: number) =>
  until(
    () => depositRows(sessionId),
    (rows) => rows.length === count && rows.every((r) => r.sweptAt !== null),
    `${count} swept deposit(s)`,
  );

let paidSession: Session;
let overpaidSession: Session;
let expiredSession: Session;

describe('pay by transfer to a deposit address', () => {
  it('shows each session its own deposit address and the EIP-681 transfer', async () => {
    const a = await createSession('1000000');
    const b = await createSession('1000000');
    expect(a.deposit.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(a.deposit.address).not.toBe(b.deposit.address);
    expect(a.deposit).toMatchObject({ amountReceived: '0', amountRemaining: '1000000', amountExcess: '0' });
    expect(a.deposit.paymentUri).toBe(
      `ethereum:${settings.token}@${settings.chainId}/transfer?address=${a.deposit.address}&uint256=1000000`,
    );
    // Counterfactual: nothing is deployed before funds arrive.
    expect(await pub.getCode({ address: a.deposit.address })).toBeUndefined();
    const checkout = (await t.app.inject({ method: 'GET', url: `/v1/checkout/sessions/${a.id}` })).json();
    expect(checkout.deposit.address).toBe(a.deposit.address);
    expect(checkout.network).toContain('31337');
  });

  it('exact payment: completes the session, then sweeps the deposit to the payout address once', async () => {
    const session = await createSession('1000000');
    const before = await balanceOf(payout);
    const hash = await transfer(session.deposit.address, 1_000_000n);
    const done = await until(
      () => getSession(session.id),
      (s) => s.status === 'completed',
      'completed',
    );
    expect(done.transactionHash).toBe(hash);
    expect(done.deposit).toMatchObject({ amountReceived: '1000000', amountRemaining: '0', amountExcess: '0' });
    expect(await eventTypes(session.id)).toContain('payment.completed');
    const [row] = await allSwept(session.id, 1);
    expect(row!.status).toBe('credited');
    expect(await balanceOf(session.deposit.address)).toBe(0n);
    expect((await balanceOf(payout)) - before).toBe(1_000_000n);
    expect(await pub.getCode({ address: session.deposit.address })).toMatch(/^0x[0-9a-f]+$/);
    paidSession = done;
  });

  it('underpayment: shows received and remaining, stays open; a top-up completes it (transfers summed)', async () => {
    const session = await createSession('1000000');
    await transfer(session.deposit.address, 400_000n);
    const partial = await until(
      () => getSession(session.id),
      (s) => s.deposit.amountReceived === '400000',
      'partial credit',
    );
    expect(partial.status).toBe('open');
    expect(partial.deposit.amountRemaining).toBe('600000');
    expect(partial.deposit.paymentUri).toContain('uint256=600000');
    expect(await eventTypes(session.id)).toEqual(['payment.partially_paid']);
    await transfer(session.deposit.address, 250_000n);
    await until(
      () => getSession(session.id),
      (s) => s.deposit.amountReceived === '650000',
      'second partial credit',
    );
    const topUp = await transfer(session.deposit.address, 350_000n);
    const done = await until(
      () => getSession(session.id),
      (s) => s.status === 'completed',
      'completed',
    );
    expect(done.transactionHash).toBe(topUp);
    expect(done.deposit).toMatchObject({ amountReceived: '1000000', amountRemaining: '0', amountExcess: '0' });
    expect((await eventTypes(session.id)).filter((e) => e === 'payment.completed')).toHaveLength(1);
    await allSwept(session.id, 3);
    expect(await balanceOf(session.deposit.address)).toBe(0n);
  });

  it('overpayment: completes with the excess recorded (refundable)', async () => {
    const session = await createSession('1000000');
    await transfer(session.deposit.address, 1_500_000n);
    const done = await until(
      () => getSession(session.id),
      (s) => s.status === 'completed',
      'completed',
    );
    expect(done.deposit).toMatchObject({ amountReceived: '1500000', amountExcess: '500000', amountRemaining: '0' });
    const types = await eventTypes(session.id);
    expect(types).toContain('payment.overpaid');
    expect(types).toContain('payment.completed');
    await allSwept(session.id, 1);
    overpaidSession = done;
  });

  it('payment after completion: a late deposit, swept, announced; the session is unchanged', async () => {
    const before = await balanceOf(payout);
    await transfer(paidSession.deposit.address, 70_000n);
    const rows = await until(
      () => depositRows(paidSession.id),
      (r) => r.length === 2 && r[1]!.status === 'late',
      'a late deposit',
    );
    expect(rows[1]!.amount).toBe('70000');
    expect(await eventTypes(paidSession.id)).toContain('payment.late_deposit');
    const after = await getSession(paidSession.id);
    expect(after.deposit.amountReceived).toBe('1000000');
    await allSwept(paidSession.id, 2);
    expect((await balanceOf(payout)) - before).toBe(70_000n);
  });

  it('payment after expiry: a late deposit, not credited', async () => {
    const session = await createSession('1000000');
    await db.sql`update payment_sessions set expires_at = now() - interval '1 second' where id = ${session.id}`;
    await transfer(session.deposit.address, 1_000_000n);
    const rows = await until(
      () => depositRows(session.id),
      (r) => r.length === 1 && r[0]!.status === 'late',
      'a late deposit',
    );
    expect(rows[0]!.amount).toBe('1000000');
    const after = await getSession(session.id);
    expect(after.status).not.toBe('completed');
    expect(after.deposit.amountReceived).toBe('0');
    expect(await eventTypes(session.id)).toContain('payment.late_deposit');
    await allSwept(session.id, 1);
    expiredSession = session;
  });

  it('a reorg that removes a deposit takes it back out of the session', async () => {
    const session = await createSession('1000000');
    // Mined but not swept yet: the sweep of this test's deposit would be reorged out too.
    const snapshot = await testClient.snapshot();
    await transfer(session.deposit.address, 300_000n);
    await until(
      () => getSession(session.id),
      (s) => s.deposit.amountReceived === '300000',
      'partial credit',
    );
    await testClient.revert({ id: snapshot });
    await testClient.mine({ blocks: 3 });
    const after = await until(
      () => getSession(session.id),
      (s) => s.deposit.amountReceived === '0',
      'the deposit taken back out',
    );
    expect(after.status).toBe('open');
    expect(after.deposit.amountRemaining).toBe('1000000');
    const rows = await depositRows(session.id);
    expect(rows.map((r) => r.status)).toEqual(['removed']);
    expect(await eventTypes(session.id)).toContain('payment.deposit_reversed');
  });

  it('the v2 factory is at its CREATE2 address and computes the addresses the API shows', async () => {
    expect(chain.info.depositFactoryV2).toBe(DEPOSIT_FACTORY_V2_ADDRESS);
    const session = await createSession('5');
    const onChain = await pub.readContract({
      address: DEPOSIT_FACTORY_V2_ADDRESS,
      abi: depositForwarderFactoryV2Abi,
      functionName: 'forwarderAddress',
      args: [depositIdOf(session.id), payout],
    });
    expect(onChain).toBe(session.deposit.address);
  });

  it('a session created before v2 keeps its v1 deposit address and sweeps through the v1 factory', async () => {
    expect(chain.info.depositFactory).toBe(DEPOSIT_FACTORY_ADDRESS);
    const session = await createSession('1000000');
    // As a session of before the upgrade is stored: version 1 and the v1 factory's address.
    const v1Address = depositAddressOf(DEPOSIT_FACTORY_ADDRESS, session.id, payout);
    await db.sql`update payment_sessions set deposit_factory_version = 1, deposit_address = ${v1Address} where id = ${session.id}`;
    expect((await getSession(session.id)).deposit.address).toBe(v1Address);
    const onChain = await pub.readContract({
      address: DEPOSIT_FACTORY_ADDRESS,
      abi: depositForwarderFactoryAbi,
      functionName: 'forwarderAddress',
      args: [depositIdOf(session.id), payout],
    });
    expect(onChain).toBe(v1Address);
    const before = await balanceOf(payout);
    await transfer(v1Address, 1_000_000n);
    await until(
      () => getSession(session.id),
      (s) => s.status === 'completed',
      'completed',
    );
    const [row] = await allSwept(session.id, 1);
    const receipt = await pub.getTransactionReceipt({ hash: row!.sweepTransactionHash as Hash });
    expect(receipt.to?.toLowerCase()).toBe(DEPOSIT_FACTORY_ADDRESS.toLowerCase());
    expect((await balanceOf(payout)) - before).toBe(1_000_000n);
  });
});

describe('a payout the token refuses (deposit forwarders v2)', () => {
  const blacklister = privateKeyToAccount(DEV_ACCOUNTS.usdcBlacklister.privateKey);
  const setBlacklisted = async (who: Address, on: boolean) => {
    const wallet = createWalletClient({
      account: blacklister,
      chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
      transport: http(chain.info.rpcUrl),
    });
    const hash = await wallet.writeContract({
      address: settings.token,
      abi: fiatTokenAbi,
      functionName: on ? 'blacklist' : 'unBlacklist',
      args: [who],
    });
    expect((await waitForDevReceipt(pub, hash)).status).toBe('success');
  };

  it('3 merchants paid in one block, one payout blacklisted: the other two are swept, the third is sweep_blocked with an event for its merchant only, and swept once unblacklisted', async () => {
    const payouts = ['refused-a', 'refused-b', 'refused-c'].map((n) => privateKeyToAccount(keccak256(toHex(n))).address);
    const merchants = [];
    const sessions: Session[] = [];
    for (const [i, address] of payouts.entries()) {
      const m = await seedMerchant(db.sql, `Payout merchant ${i}`);
      await setPayoutAddress(db.sql, m.merchantId, address);
      merchants.push(m);
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/payment-sessions',
        headers: { authorization: `Bearer ${m.secretKey}` },
        payload: { amount: '1000000' },
      });
      expect(res.statusCode, res.body).toBe(200);
      sessions.push(res.json());
    }
    await setBlacklisted(payouts[1]!, true);
    // One block with the three transfers, so one sweep claims all three deposits.
    const wallet = createWalletClient({
      account: payer,
      chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
      transport: http(chain.info.rpcUrl),
    });
    const nonce = await pub.getTransactionCount({ address: payer.address, blockTag: 'pending' });
    await testClient.setAutomine(false);
    let hashes: Hash[];
    try {
      hashes = await Promise.all(
        sessions.map((s, i) =>
          wallet.writeContract({
            address: settings.token,
            abi: erc20Abi,
            functionName: 'transfer',
            args: [s.deposit.address, 1_000_000n],
            gas: 200_000n,
            nonce: nonce + i,
          }),
        ),
      );
      await testClient.mine({ blocks: 1 });
    } finally {
      await testClient.setAutomine(true);
    }
    for (const hash of hashes) expect((await waitForDevReceipt(pub, hash)).status).toBe('success');

    await allSwept(sessions[0]!.id, 1);
    await allSwept(sessions[2]!.id, 1);
    expect(await balanceOf(payouts[0]!)).toBe(1_000_000n);
    expect(await balanceOf(payouts[2]!)).toBe(1_000_000n);
    const blockedRows = () => db.sql<{ sweepBlockedCode: string | null; sweptAt: Date | null }[]>`
      select sweep_blocked_code as "sweepBlockedCode", swept_at as "sweptAt" from deposits where payment_session_id = ${sessions[1]!.id}`;
    const [blocked] = await until(blockedRows, (rows) => rows[0]?.sweepBlockedCode != null, 'the refused deposit blocked');
    expect(blocked).toMatchObject({ sweepBlockedCode: 'merchant_blacklisted', sweptAt: null });
    const announced = await db.sql<
      { merchantId: string; data: { failureCode: string; deposit: { paymentSessionId: string }; retry: string } }[]
    >`
      select merchant_id as "merchantId", data from events where type = 'payment.deposit_sweep_blocked'`;
    expect(announced).toHaveLength(1);
    expect(announced[0]).toMatchObject({
      merchantId: merchants[1]!.merchantId,
      data: { failureCode: 'merchant_blacklisted', deposit: { paymentSessionId: sessions[1]!.id }, retry: 'later' },
    });
    expect(await balanceOf(sessions[1]!.deposit.address)).toBe(1_000_000n);

    // The cause goes away: the periodic re-check sweeps it.
    await setBlacklisted(payouts[1]!, false);
    await allSwept(sessions[1]!.id, 1);
    expect(await balanceOf(payouts[1]!)).toBe(1_000_000n);
    expect(await balanceOf(sessions[1]!.deposit.address)).toBe(0n);
    expect((await blockedRows())[0]!.sweepBlockedCode).toBeNull();
  });
});

describe('payout addresses are checked when set', () => {
  const check = (address: string) => checkPayoutAddress({ db: db.sql, chain: { test: settings } }, address);
  const refusal = async (address: string) => {
    const error = await check(address).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidRequestError);
    return (error as InvalidRequestError).details as { issues: { path: string }[]; refusalCode?: string };
  };

  it('refuses the zero address, a contract or deposit address of ours, and a blacklisted address; takes a plain wallet', async () => {
    expect((await refusal('0x0000000000000000000000000000000000000000')).issues[0]!.path).toBe('payoutAddress');
    await refusal(settings.token);
    await refusal(DEPOSIT_FACTORY_V2_ADDRESS);
    await refusal((await createSession('5')).deposit.address);
    const wallet = privateKeyToAccount(keccak256(toHex('payout-check'))).address;
    await check(wallet);
    const blacklister = createWalletClient({
      account: privateKeyToAccount(DEV_ACCOUNTS.usdcBlacklister.privateKey),
      chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
      transport: http(chain.info.rpcUrl),
    });
    expect(
      (
        await waitForDevReceipt(
          pub,
          await blacklister.writeContract({ address: settings.token, abi: fiatTokenAbi, functionName: 'blacklist', args: [wallet] }),
        )
      ).status,
    ).toBe('success');
    expect(await refusal(wallet)).toMatchObject({ refusalCode: 'merchant_blacklisted', issues: [{ path: 'payoutAddress' }] });
  });
});

describe('the hosted checkout page of paying by transfer', () => {
  it('serves the page with the transfer panel and a QR code of the EIP-681 transfer', async () => {
    const session = await createSession('2500000');
    const page = await t.app.inject({ method: 'GET', url: `/checkout/${session.id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('id="transfer"');
    expect(page.body).toContain('id="deposit-address"');
    const qr = await t.app.inject({ method: 'GET', url: `/checkout/${session.id}/deposit-qr.svg` });
    expect(qr.statusCode).toBe(200);
    expect(qr.headers['content-type']).toContain('image/svg+xml');
    expect(qr.body).toMatch(/^<svg/);
    const missing = await t.app.inject({ method: 'GET', url: '/checkout/ps_nothing/deposit-qr.svg' });
    expect(missing.statusCode).toBe(404);
  });

  it('tells the customer what they pay for: the invoice number and its line items', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/invoices',
      headers: { ...headers(), 'idempotency-key': `invoice-${Date.now()}` },
      payload: {
        lineItems: [
          { description: 'Sourdough loaf', quantity: 2, unitAmount: '4500000' },
          { description: 'Delivery', quantity: 1, unitAmount: '1000000' },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const invoice = created.json();
    const checkout = (await t.app.inject({ method: 'GET', url: `/v1/checkout/sessions/${invoice.sessionId}` })).json();
    expect(checkout.invoice).toEqual({ number: invoice.number, lineItems: invoice.lineItems });
    expect(checkout).toMatchObject({ amount: '10000000', storeName: null, productName: null });
  });
});

describe('refunds of payments by transfer', () => {
  const refund = (payload: object) =>
    t.app.inject({ method: 'POST', url: '/v1/refunds', headers: { ...headers(), 'idempotency-key': `refund-${Math.random()}` }, payload });

  it('an overpaid session refunds up to what was paid in total, to the sender, never more under concurrency', async () => {
    // What the session says remains refundable is what the refunds below may take, no more.
    expect((await getSession(overpaidSession.id)).amountRefundable).toBe('1500000');
    const attempts = await Promise.all([1, 2, 3].map(() => refund({ paymentSessionId: overpaidSession.id, amount: '1000000' })));
    const ok = attempts.filter((r) => r.statusCode === 200);
    expect(ok, attempts.map((r) => r.body).join('\n')).toHaveLength(1);
    expect(ok[0]!.json().instructions.to).toBe(payer.address);
    const refused = attempts.find((r) => r.statusCode !== 200)!;
    expect(refused.json().error).toMatchObject({ code: 'invalid_request', param: 'amount' });
    const rest = await refund({ paymentSessionId: overpaidSession.id });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json().amount).toBe('500000');
    expect((await getSession(overpaidSession.id)).amountRefundable).toBe('0');
    const none = await refund({ paymentSessionId: overpaidSession.id, amount: '1' });
    expect(none.statusCode).toBe(403);
  });

  it('a late deposit on an expired session is refundable (and only it)', async () => {
    expect((await getSession(expiredSession.id)).amountRefundable).toBe('1000000');
    const over = await refund({ paymentSessionId: expiredSession.id, amount: '1000001' });
    expect(over.statusCode).toBe(400);
    const all = await refund({ paymentSessionId: expiredSession.id });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json()).toMatchObject({ amount: '1000000', instructions: { to: payer.address, from: payout } });
    expect((await getSession(expiredSession.id)).amountRefundable).toBe('0');
  });
});
