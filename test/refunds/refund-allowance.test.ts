// Refunds that execute: the merchant's payout wallet grants the operator a refund allowance once
// (here a plain approve, as the dashboard explains it), and POST /v1/refunds then completes by
// itself: the refund workflow sends transferFrom(payout -> customer) through the one sender, follows
// it to the confirmations and records refund.succeeded. On a private anvil with Circle's USDC, the
// real app, and the real worker on the Temporal dev server.
import { type Address, type PublicClient, createPublicClient, createTestClient, createWalletClient, http } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import type { ChainSettings } from '../../src/chain/config.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { type Authorization, PERMIT_TYPES, randomNonce, readDomain, signAuthorization } from '../../src/chain/typed-data.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { refundOperatorOf } from '../../src/refunds/allowance.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, startPrivateChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { payRelayedSession } from '../support/relayed-session.js';
import { until } from '../support/until.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { recordHistory } from '../support/histories.js';
import { refundWorkflowId } from '../../workflows/refund.js';

let chain: DevChain;
let settings: ChainSettings;
let db: TestDatabase;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let pub: PublicClient;
let operator: Address;

const payout = DEV_ACCOUNTS.merchant.address;
const merchantAccount = privateKeyToAccount(DEV_ACCOUNTS.merchant.privateKey);
const payer = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);
const elsewhere = privateKeyToAccount(DEV_ACCOUNTS.payers[1]!.privateKey);

beforeAll(async () => {
  chain = await startPrivateChain();
  settings = settingsOf(chain.info);
  operator = refundOperatorOf(settings)!;
  pub = createPublicClient({
    chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
    transport: http(chain.info.rpcUrl),
    pollingInterval: 100,
  });
  db = await createTestDatabase();
  temporal = await startDevServerWorker(db.sql, { chain: { test: settings } });
  t = await createTestApp(db.sql, { temporal: temporal.client, taskQueue: temporal.taskQueue, chain: { test: settings } });
  merchant = await seedMerchant(db.sql, 'Refund merchant');
  await setPayoutAddress(db.sql, merchant.merchantId, payout);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await temporal?.stop();
  await db?.drop();
  await chain?.stop();
});

const auth = () => ({ authorization: `Bearer ${merchant.secretKey}` });
const get = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: auth() })).json();
const balanceOf = (who: Address) =>
  pub.readContract({ address: settings.token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [who] });
const refund = (payload: object) => t.app.inject({ method: 'POST', url: '/v1/refunds', headers: auth(), payload });
const wallet = (account: PrivateKeyAccount) =>
  createWalletClient({ account, chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl), transport: http(chain.info.rpcUrl) });

/** The payout wallet's approve of the operator: the refund allowance granted without a permit. */
async function approveOperator(value: bigint): Promise<void> {
  const hash = await wallet(merchantAccount).writeContract({
    address: settings.token,
    abi: fiatTokenAbi,
    functionName: 'approve',
    args: [operator, value],
  });
  expect((await waitForDevReceipt(pub, hash)).status).toBe('success');
}

async function transferToken(from: PrivateKeyAccount, to: Address, value: bigint): Promise<void> {
  const hash = await wallet(from).writeContract({
    address: settings.token,
    abi: fiatTokenAbi,
    functionName: 'transfer',
    args: [to, value],
    gas: 200_000n,
  });
  expect((await waitForDevReceipt(pub, hash)).status).toBe('success');
}

/** A completed payment session paid by `payer` through the relay. */
async function paidSession(amount: bigint): Promise<string> {
  return payRelayedSession({
    app: t.app,
    secretKey: merchant.secretKey,
    pub,
    token: settings.token,
    payer: payer,
    payTo: payout,
    amount,
    keyPrefix: 'refund-test',
  });
}

const refundEvents = async (refundId: string) =>
  (await db.sql<{ type: string }[]>`select type from events where data->'object'->>'id' = ${refundId} order by created_at, id`).map(
    (e) => e.type,
  );
const transactionsOf = (refundId: string) =>
  db.sql<{ outcome: string | null }[]>`select outcome from chain_transactions where purpose = ${`refund:${refundId}`}`;

describe('refunds from the refund allowance', () => {
  /** The refund created before any allowance: the permit grant below carries it on (issue 36, item 13). */
  let waiting: { id: string; amount: string };

  it('without an allowance a refund waits for the merchant wallet (pending, with the transfer to send)', async () => {
    const sessionId = await paidSession(1_000_000n);
    const res = await refund({ paymentSessionId: sessionId, amount: '400000' });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json();
    expect(created).toMatchObject({
      status: 'pending',
      method: 'wallet',
      failureCode: null,
      instructions: { from: payout, to: payer.address, amount: '400000' },
    });
    expect(await refundEvents(created.id)).toEqual(['refund.created']);
    // Nothing is sent for it.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await transactionsOf(created.id)).toHaveLength(0);
    expect((await get(`/v1/refunds/${created.id}`)).status).toBe('pending');
    waiting = created;
  });

  it('the payout wallet grants the allowance once by EIP-2612 permit, sent by the operator; a wrong signature sends nothing; the refund that waited carries on', async () => {
    const payerBefore = await balanceOf(payer.address);
    const before = (await t.app.inject({ method: 'GET', url: '/v1/refunds/allowance', headers: auth() })).json();
    expect(before).toMatchObject({
      object: 'refund_allowance',
      owner: payout,
      spender: operator,
      allowance: '0',
      available: '0',
      token: settings.token,
    });
    expect(before.approve).toEqual({ to: settings.token, functionName: 'approve', args: [operator, before.balance] });
    const deadline = (await pub.getBlock()).timestamp + 3600n;
    const { domain, nonce } = before.permit;
    const sign = (signer: PrivateKeyAccount, value: bigint) =>
      signer.signTypedData({
        domain: { ...domain, chainId: BigInt(domain.chainId) },
        types: PERMIT_TYPES,
        primaryType: 'Permit',
        message: { owner: payout, spender: operator, value, nonce: BigInt(nonce), deadline },
      });
    const grant = (signature: string, value = '7000000') =>
      t.app.inject({
        method: 'POST',
        url: '/v1/refunds/allowance/permit',
        headers: auth(),
        payload: { value, deadline: deadline.toString(), signature },
      });
    const forged = await grant(await sign(payer, 7_000_000n));
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error).toMatchObject({ code: 'invalid_request', param: 'signature' });
    const mismatched = await grant(await sign(merchantAccount, 7_000_000n), '8000000');
    expect(mismatched.statusCode).toBe(400);
    expect(await db.sql`select 1 from chain_transactions where purpose like 'refund-permit:%'`).toHaveLength(0);

    const granted = await grant(await sign(merchantAccount, 7_000_000n));
    expect(granted.statusCode, granted.body).toBe(200);
    // Available at once is the grant less the waiting refund it carries on (its transfer may already be mined).
    expect(granted.json()).toMatchObject({ available: '6600000', permit: { nonce: String(BigInt(nonce) + 1n) } });
    expect(['7000000', '6600000']).toContain(granted.json().allowance);
    // A used permit is refused by the token's nonce (the signature no longer matches the next nonce).
    expect((await grant(await sign(merchantAccount, 7_000_000n))).statusCode).toBe(400);

    // The refund created before the allowance is the operator's now, and completes by itself, once.
    const carried = await until(
      () => get(`/v1/refunds/${waiting.id}`),
      (r) => r.status !== 'pending' && r.status !== 'processing',
      'the waiting refund settled',
    );
    expect(carried).toMatchObject({ status: 'succeeded', method: 'allowance', instructions: null });
    expect(await balanceOf(payer.address)).toBe(payerBefore + 400_000n);
    expect(await refundEvents(waiting.id)).toEqual(['refund.created', 'refund.succeeded']);
    expect(await transactionsOf(waiting.id)).toEqual([{ outcome: 'success' }]);
    expect(
      await pub.readContract({ address: settings.token, abi: fiatTokenAbi, functionName: 'allowance', args: [payout, operator] }),
    ).toBe(6_600_000n);
  });

  it('with the allowance granted, a refund completes by itself: one transferFrom, confirmations, refund.succeeded', async () => {
    await approveOperator(5_000_000n);
    const sessionId = await paidSession(2_000_000n);
    const [payerBefore, payoutBefore] = await Promise.all([balanceOf(payer.address), balanceOf(payout)]);
    const res = await refund({ paymentSessionId: sessionId, amount: '1500000', reason: 'damaged' });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json();
    expect(created).toMatchObject({ status: 'processing', method: 'allowance', instructions: null, amount: '1500000' });
    // The operator's refund is not the merchant's to cancel or to record a transaction on.
    const cancel = await t.app.inject({ method: 'POST', url: `/v1/refunds/${created.id}/cancel`, headers: auth() });
    expect(cancel.statusCode).toBe(403);

    const done = await until(
      () => get(`/v1/refunds/${created.id}`),
      (r) => r.status !== 'processing',
      'refund settled',
    );
    expect(done).toMatchObject({ status: 'succeeded', failureCode: null });
    expect(done.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = await pub.getTransactionReceipt({ hash: done.transactionHash });
    expect(receipt.status).toBe('success');
    expect(done.blockNumber).toBe(receipt.blockNumber.toString());
    expect((await pub.getBlockNumber()) - receipt.blockNumber + 1n).toBeGreaterThanOrEqual(BigInt(settings.confirmations));
    expect(await balanceOf(payer.address)).toBe(payerBefore + 1_500_000n);
    expect(await balanceOf(payout)).toBe(payoutBefore - 1_500_000n);
    expect(await refundEvents(created.id)).toEqual(['refund.created', 'refund.succeeded']);
    expect(await transactionsOf(created.id)).toEqual([{ outcome: 'success' }]);
    const run = temporal.client.workflow.getHandle(refundWorkflowId(created.id));
    expect(await run.result()).toBe('succeeded');
    await recordHistory(run, 'refund-succeeded', 'base');
    const event = (
      await db.sql<{ data: { object: { status: string; transactionHash: string } } }[]>`
      select data from events where type = 'refund.succeeded' and data->'object'->>'id' = ${created.id}`
    )[0]!;
    expect(event.data.object).toMatchObject({ status: 'succeeded', transactionHash: done.transactionHash });
    // What the operator spent of the allowance is gone from it.
    expect(
      await pub.readContract({ address: settings.token, abi: fiatTokenAbi, functionName: 'allowance', args: [payout, operator] }),
    ).toBe(3_500_000n);
  });

  it('concurrent partial refunds never exceed what was paid, and each is sent once', async () => {
    await approveOperator(10_000_000n);
    const sessionId = await paidSession(2_500_000n);
    const payerBefore = await balanceOf(payer.address);
    const attempts = await Promise.all([1, 2, 3].map(() => refund({ paymentSessionId: sessionId, amount: '1000000' })));
    const accepted = attempts.filter((a) => a.statusCode === 200).map((a) => a.json());
    expect(accepted).toHaveLength(2);
    const refused = attempts.find((a) => a.statusCode !== 200)!;
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'invalid_request', param: 'amount' });
    expect(accepted.every((r) => r.method === 'allowance')).toBe(true);
    for (const r of accepted)
      await until(
        () => get(`/v1/refunds/${r.id}`),
        (x) => x.status === 'succeeded',
        `refund ${r.id} succeeded`,
      );
    // The session says what remains, and that is exactly what a refund without an amount takes.
    expect((await get(`/v1/payment-sessions/${sessionId}`)).amountRefundable).toBe('500000');
    const rest = await refund({ paymentSessionId: sessionId });
    expect(rest.json()).toMatchObject({ amount: '500000', method: 'allowance' });
    await until(
      () => get(`/v1/refunds/${rest.json().id}`),
      (x) => x.status === 'succeeded',
      'rest succeeded',
    );
    expect(await balanceOf(payer.address)).toBe(payerBefore + 2_500_000n);
    expect((await get(`/v1/payment-sessions/${sessionId}`)).amountRefundable).toBe('0');
    for (const r of [...accepted, rest.json()]) expect(await transactionsOf(r.id)).toEqual([{ outcome: 'success' }]);
    const none = await refund({ paymentSessionId: sessionId, amount: '1' });
    expect(none.statusCode).toBe(403);
  });

  it('an allowance that does not cover the amount leaves the refund to the merchant wallet', async () => {
    await approveOperator(300_000n);
    const sessionId = await paidSession(1_000_000n);
    const short = (await refund({ paymentSessionId: sessionId, amount: '300001' })).json();
    expect(short).toMatchObject({ status: 'pending', method: 'wallet' });
    expect(short.instructions.call.functionName).toBe('transfer');
    // What it does cover is sent by the operator.
    const covered = (await refund({ paymentSessionId: sessionId, amount: '300000' })).json();
    expect(covered).toMatchObject({ status: 'processing', method: 'allowance' });
    await until(
      () => get(`/v1/refunds/${covered.id}`),
      (x) => x.status === 'succeeded',
      'covered refund succeeded',
    );

    // The uncovered one: the payout wallet signs the EIP-3009 transfer, the relayer submits it.
    const payerBefore = await balanceOf(payer.address);
    const now = (await pub.getBlock()).timestamp;
    const signTransfer = async (value: bigint, signer = merchantAccount) => {
      const message: Authorization = {
        from: payout,
        to: payer.address,
        value,
        validAfter: now - 60n,
        validBefore: now + 3600n,
        nonce: randomNonce(),
      };
      const signature = await signAuthorization(signer, await readDomain(pub, settings.token), 'TransferWithAuthorization', message);
      return {
        authorization: {
          ...message,
          value: value.toString(),
          validAfter: message.validAfter.toString(),
          validBefore: message.validBefore.toString(),
        },
        signature,
      };
    };
    const authorize = (payload: object) =>
      t.app.inject({ method: 'POST', url: `/v1/refunds/${short.id}/authorization`, headers: auth(), payload });
    const wrongAmount = await authorize(await signTransfer(300_000n));
    expect(wrongAmount.statusCode).toBe(400);
    expect(wrongAmount.json().error).toMatchObject({ code: 'invalid_request', param: 'authorization.value' });
    const wrongSigner = await authorize({ ...(await signTransfer(300_001n, payer)) });
    expect(wrongSigner.statusCode).toBe(400);
    expect(wrongSigner.json().error).toMatchObject({ code: 'invalid_request', param: 'signature' });
    expect(await transactionsOf(short.id)).toHaveLength(0);
    const signed = await authorize(await signTransfer(300_001n));
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({ status: 'processing', method: 'wallet' });
    const done = await until(
      () => get(`/v1/refunds/${short.id}`),
      (x) => x.status !== 'processing',
      'signed refund settled',
    );
    expect(done).toMatchObject({ status: 'succeeded' });
    expect(await balanceOf(payer.address)).toBe(payerBefore + 300_001n);
    expect(await refundEvents(short.id)).toEqual(['refund.created', 'refund.succeeded']);
    expect(await transactionsOf(short.id)).toEqual([{ outcome: 'success' }]);
    // Sent once: the same signed transfer again is refused (the refund is no longer pending).
    expect((await authorize(await signTransfer(300_001n))).statusCode).toBe(403);
  });

  it('a refund the token refuses when sent fails with the named refusal, refund.failed, and is refundable again', async () => {
    await approveOperator(50_000_000n);
    const sessionId = await paidSession(1_000_000n);
    // The payout wallet moves its funds away: the allowance covers the refund, the balance does not.
    const kept = await balanceOf(payout);
    await transferToken(merchantAccount, elsewhere.address, kept);
    let returned = false;
    try {
      const created = (await refund({ paymentSessionId: sessionId })).json();
      expect(created).toMatchObject({ status: 'processing', method: 'allowance', amount: '1000000' });
      const failed = await until(
        () => get(`/v1/refunds/${created.id}`),
        (r) => r.status !== 'processing',
        'refund settled',
      );
      expect(failed).toMatchObject({ status: 'failed', failureCode: 'insufficient_funds' });
      expect(failed.failedAt).not.toBeNull();
      expect(await refundEvents(created.id)).toEqual(['refund.created', 'refund.failed']);
      expect(await transactionsOf(created.id)).toHaveLength(0);
      const run = temporal.client.workflow.getHandle(refundWorkflowId(created.id));
      expect(await run.result()).toBe('failed');
      await recordHistory(run, 'refund-failed', 'base');
      // Its reservation is released: the whole payment is refundable again.
      await transferToken(elsewhere, payout, kept);
      returned = true;
      const again = (await refund({ paymentSessionId: sessionId })).json();
      expect(again).toMatchObject({ amount: '1000000', method: 'allowance' });
      await until(
        () => get(`/v1/refunds/${again.id}`),
        (x) => x.status === 'succeeded',
        'second refund succeeded',
      );
    } finally {
      if (!returned) await transferToken(elsewhere, payout, kept);
    }
  });

  // Issue 36 item 6: recorded, committed, then sent. The permit was sent from inside the request's open
  // transaction (a request with an Idempotency-Key), which held the operator's account row while it waited
  // for the receipt (every sweep, refund and charge of the operator waited) and left nothing recorded on a rollback.
  it('a permit request with an Idempotency-Key commits its record before sending: while it waits to be mined, the operator account is free', async () => {
    const current = (await t.app.inject({ method: 'GET', url: '/v1/refunds/allowance', headers: auth() })).json();
    const deadline = (await pub.getBlock()).timestamp + 3600n;
    const nonce = BigInt(current.permit.nonce);
    const signature = await merchantAccount.signTypedData({
      domain: { ...current.permit.domain, chainId: BigInt(current.permit.domain.chainId) },
      types: PERMIT_TYPES,
      primaryType: 'Permit',
      message: { owner: payout, spender: operator, value: 9_000_000n, nonce, deadline },
    });
    const anvil = createTestClient({ mode: 'anvil', transport: http(chain.info.rpcUrl) });
    await anvil.setAutomine(false);
    let granted;
    try {
      granted = t.app.inject({
        method: 'POST',
        url: '/v1/refunds/allowance/permit',
        headers: { ...auth(), 'idempotency-key': `permit-lock-${nonce}` },
        payload: { value: '9000000', deadline: deadline.toString(), signature },
      });
      // The ledger row is committed (another connection sees it) while the transaction waits in the pool.
      const purpose = `refund-permit:${payout.toLowerCase()}:${nonce}`;
      await until(
        () => db.sql`select 1 from chain_transactions where purpose = ${purpose}`,
        (rows) => rows.length === 1,
        'the permit recorded and committed',
        { timeoutMs: 20_000 },
      );
      await until(
        () => anvil.getTxpoolStatus(),
        (pool) => pool.pending > 0,
        'the permit in the pool',
        { timeoutMs: 20_000 },
      );
      // Another send of the operator can take the account's row now: no request transaction holds it.
      await db.sql.begin(async (tx) => {
        await tx`set local lock_timeout = '3s'`;
        const rows =
          await tx`select next_nonce from relayer_accounts where chain_id = ${settings.chainId} and lower(address) = ${operator.toLowerCase()} for update`;
        expect(rows).toHaveLength(1);
      });
      await anvil.mine({ blocks: 1 });
    } finally {
      await anvil.setAutomine(true);
    }
    const answer = await granted;
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ allowance: '9000000', permit: { nonce: String(nonce + 1n) } });
  }, 120_000);
});
