// A test clock's own chain end to end (issue 39, item 7; TEST_CLOCK_CHAINS=fork), on one stack: the real API
// (which forks the test chain per clock), worker, indexer with its clock-chain followers, the Temporal dev server,
// Postgres and anvil with Circle's USDC. What a wallet or session on the clock does happens on the clock's fork:
//   a subscription enrolled through the API relay by a wallet on the clock is recorded with the fork's chain id
//   and charged there, period 0 at once and period 1 when the clock is advanced a month, never on the test chain;
//   a session created on the clock is paid by a transfer on the fork, credited, swept and refunded there;
//   the fork's follower starts after the fork block: the test chain's history is not recorded under the fork's id;
//   a transfer on the TEST chain to a clock session's deposit address is a late deposit on the test chain
//   (recorded, swept to the payout address there, refundable), never credited to the session nor lost;
//   after a year's advance of the clock, an x402 settle and hosted enrolments of another merchant and of the same
//   merchant from a wallet off the clock, all signed with wall-clock deadlines, succeed on the test chain.
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import {
  type Address,
  type Hex,
  type PrivateKeyAccount,
  type PublicClient,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  http,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { subscriptionManagerV2Of, type ChainSettings } from '../../src/chain/config.js';
import { subscriptionManagerAbi } from '../../src/chain/generated/contracts.js';
import { PERMIT_TYPES, readDomain } from '../../src/chain/typed-data.js';
import { forkStartBlock } from '../../src/indexer/clock-chain-followers.js';
import { addMerchantChainAddress, setPayoutAddress } from '../../src/merchants/repo.js';
import { refundOperatorOf } from '../../src/refunds/allowance.js';
import { clockChainSettings } from '../../src/test-clocks/chain-registry.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { seedMerchant, type SeededMerchant } from '../support/app.js';
import { signEnrolmentBody, type EnrolmentOffer } from '../support/enrolment-signing.js';
import { startPaymentsStack, type PaymentsStack } from '../support/payments-stack.js';
import { until } from '../support/until.js';
import { launchBrowser } from '../support/browser.js';
import { openWalletPage } from '../support/test-wallet.js';
import { exactRequirements, facilitatorFor, signedPayment } from '../support/x402.js';

const DAY = 86_400_000;
const USDC = (n: number) => BigInt(n) * 1_000_000n;
const iso = (ms: number) => new Date(ms).toISOString();
const payout = DEV_ACCOUNTS.merchant.address;
const payoutAccount = privateKeyToAccount(DEV_ACCOUNTS.merchant.privateKey);
const payer = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);
const subscriber = privateKeyToAccount(generatePrivateKey());

let stack: PaymentsStack;
let test: ChainSettings;
let merchant: SeededMerchant;
let clockId: string;
let fork: ChainSettings;
let forkPub: PublicClient;
/** A session on the test chain paid before the clock was created: history the fork serves but must not re-record. */
let paidBeforeFork: { id: string; hash: Hex };

const clientOf = (s: ChainSettings) => (s === fork ? forkPub : stack.pub);
const api = (method: 'GET' | 'POST', url: string, payload?: object, key = merchant.secretKey, extra: Record<string, string> = {}) =>
  stack.t.app.inject({ method, url, headers: { authorization: `Bearer ${key}`, ...extra }, ...(payload ? { payload } : {}) });
const chainNowMs = async (s: ChainSettings) => Number((await clientOf(s).getBlock()).timestamp) * 1000;
const balanceOn = (s: ChainSettings, who: Address) =>
  clientOf(s).readContract({ address: s.token, abi: erc20Abi, functionName: 'balanceOf', args: [who] });

async function transferOn(s: ChainSettings, to: Address, value: bigint): Promise<Hex> {
  const wallet = createWalletClient({ account: payer, chain: chainDefinition(s.chainId, s.rpcUrl), transport: http(s.rpcUrl) });
  const hash = await wallet.writeContract({ address: s.token, abi: erc20Abi, functionName: 'transfer', args: [to, value], gas: 200_000n });
  expect((await waitForDevReceipt(clientOf(s), hash)).status).toBe('success');
  return hash;
}

async function advanceClock(toMs: number) {
  const advanced = await api('POST', `/v1/test-clocks/${clockId}/advance`, { frozenTime: iso(toMs) });
  expect(advanced.statusCode, advanced.body).toBe(200);
  await until(
    async () => (await api('GET', `/v1/test-clocks/${clockId}`)).json(),
    (c) => c.status === 'ready',
    `the clock at ${iso(toMs)}`,
    { intervalMs: 50 },
  );
}

/** The subscriber's permit and Enrolment of `offer`'s terms, both signed for chain `s`, valid until `deadline`. */
const signedEnrolmentOn = (offer: EnrolmentOffer, signer: PrivateKeyAccount, s: ChainSettings, deadline: bigint) =>
  signEnrolmentBody(
    offer,
    signer,
    { permit: { client: clientOf(s), token: s.token }, enrolment: { client: clientOf(s), token: s.token } },
    deadline,
  );
const enrolmentUsed = (s: ChainSettings, who: Address, nonce: Hex) =>
  clientOf(s).readContract({
    address: subscriptionManagerV2Of(s),
    abi: subscriptionManagerAbi,
    functionName: 'enrolmentNonceUsed',
    args: [who, nonce],
  });
const offerOf = async (planId: string): Promise<EnrolmentOffer> => {
  const res = await stack.t.app.inject({ method: 'GET', url: `/checkout/plans/${planId}/enrolment` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const createPlan = async (key: string, name: string, amount: bigint): Promise<string> => {
  const res = await api('POST', '/v1/subscription-plans', { name, amount: amount.toString(), interval: 'monthly' }, key);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
};
const depositRows = (sessionId: string) =>
  stack.db.sql<{ chainId: string; status: string; swept: boolean }[]>`
    select chain_id::text as "chainId", status, swept_at is not null as swept from deposits where payment_session_id = ${sessionId} order by id`;
const chargeTransactions = (chainId: number) =>
  stack.db.sql<{ hash: string }[]>`
    select transaction_hash as hash from chain_transactions
    where chain_id = ${chainId} and (purpose like 'charge:%' or purpose like 'chargeMany:%')`;

beforeAll(async () => {
  stack = await startPaymentsStack({ depositIndexer: true, subscriptions: true, clockChains: true, listen: true });
  test = stack.settings;
  merchant = await seedMerchant(stack.db.sql, 'Clock-chain merchant');
  await setPayoutAddress(stack.db.sql, merchant.merchantId, payout);
  // Enrolments are matched to the merchant by the address they pay.
  await addMerchantChainAddress(stack.db.sql, { merchantId: merchant.merchantId, livemode: false, address: payout });

  // Test-chain history before the fork: a session paid by transfer, indexed on the test chain.
  const before = (await api('POST', '/v1/payment-sessions', { amount: '1000000' })).json();
  const hash = await transferOn(test, before.deposit.address, 1_000_000n);
  await until(
    async () => (await api('GET', `/v1/payment-sessions/${before.id}`)).json(),
    (s) => s.status === 'completed',
    'the test-chain session paid',
  );
  paidBeforeFork = { id: before.id, hash };

  const frozenTime = Math.ceil(((await chainNowMs(test)) + 3_600_000) / 1000) * 1000;
  const created = await api('POST', '/v1/test-clocks', { name: 'Own chain', frozenTime: iso(frozenTime), wallets: [subscriber.address] });
  expect(created.statusCode, created.body).toBe(200);
  clockId = created.json().id;
  const [row] = await stack.db.sql<{ chainId: string; rpcUrl: string }[]>`
    select chain_id::text as "chainId", rpc_url as "rpcUrl" from test_clocks where id = ${clockId}`;
  fork = clockChainSettings(test, row!);
  forkPub = createPublicClient({
    chain: chainDefinition(fork.chainId, fork.rpcUrl),
    transport: http(fork.rpcUrl),
    pollingInterval: 50,
  }) as PublicClient;
  expect(fork.chainId).not.toBe(test.chainId);
}, 180_000);

afterAll(async () => stack?.stop());

describe('a subscription of a wallet on a fork clock', () => {
  it('is enrolled by the API relay on the fork, recorded with the fork’s chain id, and charged there once per period as the clock moves', async () => {
    const plan = await createPlan(merchant.secretKey, 'Monthly on the clock', USDC(2));
    await transferOn(fork, subscriber.address, USDC(10));
    const testChainChargesBefore = (await chargeTransactions(test.chainId)).length;
    // Signed on the fork's time (the clock's), as a wallet on the clock's chain would.
    const body = await signedEnrolmentOn(await offerOf(plan), subscriber, fork, BigInt((await chainNowMs(fork)) / 1000) + 3600n);
    const key = `enrol-on-clock-${Date.now()}`;
    const posted = await api('POST', '/v1/relay/subscriptions', body, merchant.secretKey, { 'idempotency-key': key });
    expect(posted.statusCode, posted.body).toBe(200);
    expect(posted.json()).toMatchObject({ kind: 'subscription', chainId: fork.chainId });
    const submitted = await until(
      async () => (await api('GET', `/v1/relay/submissions/${key}`)).json(),
      (s) => s.status === 'confirmed' || s.status === 'failed',
      'the relayed enrolment',
    );
    expect(submitted).toMatchObject({ status: 'confirmed', chainId: fork.chainId });
    expect(await enrolmentUsed(fork, subscriber.address, body.enrolment.nonce)).toBe(true);
    expect(await enrolmentUsed(test, subscriber.address, body.enrolment.nonce)).toBe(false);

    // Recorded by the fork's follower, with the fork's chain id (its workflow on the clock: the advance below charges it).
    const [subscription] = await until(
      () =>
        stack.db.sql<{ id: string; chainId: string }[]>`
          select id, chain_id::text as "chainId" from subscriptions where subscriber_address = ${subscriber.address.toLowerCase()}`,
      (rows) => rows.length > 0,
      'the subscription recorded',
    );
    expect(subscription).toMatchObject({ chainId: String(fork.chainId) });
    // The fork's time is the clock's, frozen between advances: the enrolment's period 0 starts at the clock's
    // time (on a chain that ran on with the wall clock it started seconds later and waited for an advance).
    const clockTime = Date.parse((await api('GET', `/v1/test-clocks/${clockId}`)).json().frozenTime);
    expect(await chainNowMs(fork)).toBe(clockTime);
    expect(Date.parse((await api('GET', `/v1/subscriptions/${subscription!.id}`)).json().firstPeriodStart)).toBe(clockTime);
    const charges = () =>
      stack.db.sql<{ periodIndex: number; status: string; chainId: string; txHash: Hex | null }[]>`
        select period_index as "periodIndex", status, chain_id::text as "chainId", tx_hash as "txHash"
        from subscription_charges where subscription_id = ${subscription!.id} order by period_index`;
    await until(charges, (rows) => rows.some((c) => c.periodIndex === 0 && c.status === 'succeeded'), 'period 0 charged');

    // A month on the clock: period 1 is charged, once, on the fork.
    const next = (await api('GET', `/v1/subscriptions/${subscription!.id}`)).json().nextChargeAt as string;
    expect(Date.parse(next)).toBeGreaterThan(await chainNowMs(fork));
    await advanceClock(Date.parse(next));
    const charged = await until(charges, (rows) => rows.some((c) => c.periodIndex === 1 && c.status !== 'pending'), 'period 1 charged');
    expect(charged.map((c) => [c.periodIndex, c.status, c.chainId])).toEqual([
      [0, 'succeeded', String(fork.chainId)],
      [1, 'succeeded', String(fork.chainId)],
    ]);
    for (const charge of charged) {
      expect((await forkPub.getTransactionReceipt({ hash: charge.txHash! })).status).toBe('success');
      await expect(stack.pub.getTransactionReceipt({ hash: charge.txHash! })).rejects.toThrow();
    }
    expect(await balanceOn(fork, subscriber.address)).toBe(USDC(10) - 2n * USDC(2));
    expect(await balanceOn(test, subscriber.address)).toBe(0n);
    expect((await chargeTransactions(fork.chainId)).length).toBe(2);
    expect((await chargeTransactions(test.chainId)).length).toBe(testChainChargesBefore);
  });
});

describe('a payment session on a fork clock', () => {
  it('is paid by a transfer on the fork, credited and swept there, and refunded there', async () => {
    const created = await api('POST', '/v1/payment-sessions', { amount: '1000000', testClock: clockId });
    expect(created.statusCode, created.body).toBe(200);
    const session = created.json();
    expect(session).toMatchObject({ chainId: fork.chainId, acceptedChainIds: [fork.chainId] });
    const [forkPayout, testPayout] = await Promise.all([balanceOn(fork, payout), balanceOn(test, payout)]);
    const hash = await transferOn(fork, session.deposit.address, 1_000_000n);
    const paid = await until(
      async () => (await api('GET', `/v1/payment-sessions/${session.id}`)).json(),
      (s) => s.status !== 'open',
      'the session paid',
    );
    expect(paid).toMatchObject({ status: 'completed', transactionHash: hash });
    await until(
      () => depositRows(session.id),
      (rows) => rows[0]?.swept === true,
      'the deposit swept',
    );
    expect(await depositRows(session.id)).toEqual([{ chainId: String(fork.chainId), status: 'credited', swept: true }]);
    expect(await balanceOn(fork, payout)).toBe(forkPayout + 1_000_000n);
    expect(await balanceOn(test, payout)).toBe(testPayout);

    // The refund allowance granted on the fork (a permit for the fork's USDC), then a refund out on the fork.
    const allowance = (await api('GET', `/v1/refunds/allowance?chainId=${fork.chainId}`)).json();
    expect(allowance).toMatchObject({ chainId: fork.chainId, permit: { domain: { chainId: fork.chainId } } });
    const deadline = BigInt(Math.floor((await chainNowMs(fork)) / 1000)) + 3600n;
    const signature = await payoutAccount.signTypedData({
      domain: { ...allowance.permit.domain, chainId: BigInt(fork.chainId) },
      types: PERMIT_TYPES,
      primaryType: 'Permit',
      message: { owner: payout, spender: refundOperatorOf(fork)!, value: 5_000_000n, nonce: BigInt(allowance.permit.nonce), deadline },
    });
    const granted = await api('POST', '/v1/refunds/allowance/permit', {
      chainId: fork.chainId,
      value: '5000000',
      deadline: deadline.toString(),
      signature,
    });
    expect(granted.statusCode, granted.body).toBe(200);
    const [payerOnFork, payerOnTest] = await Promise.all([balanceOn(fork, payer.address), balanceOn(test, payer.address)]);
    const refund = await api('POST', '/v1/refunds', { paymentSessionId: session.id, amount: '400000' });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(refund.json()).toMatchObject({ chainId: fork.chainId });
    const done = await until(
      async () => (await api('GET', `/v1/refunds/${refund.json().id}`)).json(),
      (r) => r.status === 'succeeded' || r.status === 'failed',
      'the refund',
    );
    expect(done).toMatchObject({ status: 'succeeded', chainId: fork.chainId });
    expect(await balanceOn(fork, payer.address)).toBe(payerOnFork + 400_000n);
    expect(await balanceOn(test, payer.address)).toBe(payerOnTest);
    const sent = await stack.db.sql`select chain_id::text as "chainId" from chain_transactions where purpose = ${`refund:${done.id}`}`;
    expect(sent).toEqual([{ chainId: String(fork.chainId) }]);
  });

  it("a transfer on the TEST chain to a clock session's deposit address is a late deposit there: recorded, swept to the payout address on the test chain, refundable, not credited", async () => {
    const session = (await api('POST', '/v1/payment-sessions', { amount: '700000', testClock: clockId })).json();
    expect(session.acceptedChainIds).toEqual([fork.chainId]);
    const testPayout = await balanceOn(test, payout);
    await transferOn(test, session.deposit.address, 700_000n);
    await until(
      () => depositRows(session.id),
      (rows) => rows[0]?.status === 'late' && rows[0].swept,
      'late and swept',
    );
    expect(await depositRows(session.id)).toEqual([{ chainId: String(test.chainId), status: 'late', swept: true }]);
    expect(await balanceOn(test, payout)).toBe(testPayout + 700_000n);
    const now = (await api('GET', `/v1/payment-sessions/${session.id}`)).json();
    expect(now).toMatchObject({ status: 'open', amountRefundable: '700000' });
    expect(now.deposit.amountReceived).toBe('0');
    const late = await stack.db.sql`select 1 from events where type = 'payment.late_deposit' and data->'object'->>'id' = ${session.id}`;
    expect(late).toHaveLength(1);
  });
});

describe("the fork's follower", () => {
  it('starts after the fork block: the test chain’s history is not recorded again under the fork’s id', async () => {
    const forkBlock = (await forkStartBlock(fork.rpcUrl)) - 1n;
    const [first] = await stack.db.sql<{ events: string | null; blocks: string | null; n: number }[]>`
      select (select min(block_number)::text from chain_events where chain_id = ${fork.chainId}) as events,
             (select min(block_number)::text from indexer_blocks where chain_id = ${fork.chainId}) as blocks,
             (select count(*)::int from chain_events where chain_id = ${fork.chainId}) as n`;
    // The fork's own transfers and enrolment above were recorded, none at or before the fork block.
    expect(first!.n).toBeGreaterThan(0);
    expect(BigInt(first!.events!)).toBeGreaterThan(forkBlock);
    expect(BigInt(first!.blocks!)).toBeGreaterThan(forkBlock);
    const shared = await stack.db.sql`
      select f.transaction_hash from chain_events f join chain_events t
        on t.transaction_hash = f.transaction_hash and t.log_index = f.log_index and t.chain_id = ${test.chainId}
      where f.chain_id = ${fork.chainId}`;
    expect(shared).toEqual([]);
    // The session paid on the test chain before the fork has its one deposit, on the test chain.
    expect(await depositRows(paidBeforeFork.id)).toEqual([{ chainId: String(test.chainId), status: 'credited', swept: true }]);
    expect(
      await stack.db.sql`select 1 from chain_events where transaction_hash = ${paidBeforeFork.hash} and chain_id = ${fork.chainId}`,
    ).toEqual([]);
  });
});

describe("a year on one clock's fork", () => {
  it('leaves wall-clock signatures valid elsewhere: an x402 settle and hosted enrolments of another merchant and of the same merchant off the clock', async () => {
    const testBefore = await chainNowMs(test);
    await advanceClock((await chainNowMs(fork)) + 365 * DAY);
    expect(await chainNowMs(fork)).toBeGreaterThan(Date.now() + 360 * DAY);
    expect(await chainNowMs(test)).toBeLessThan(testBefore + DAY);

    const otherPayout = privateKeyToAccount(generatePrivateKey()).address;
    const other = await seedMerchant(stack.db.sql, 'Merchant without a clock');
    await setPayoutAddress(stack.db.sql, other.merchantId, otherPayout);
    await addMerchantChainAddress(stack.db.sql, { merchantId: other.merchantId, livemode: false, address: otherPayout });
    const wallNow = () => BigInt(Math.floor(Date.now() / 1000));

    // x402: the official facilitator client, an authorization valid from a minute before wall time for five minutes.
    const buyer = privateKeyToAccount(DEV_ACCOUNTS.payers[1]!.privateKey);
    const domain = await readDomain(stack.pub, test.token);
    const requirements = exactRequirements(`eip155:${test.chainId}`, test.token, domain, otherPayout, 1_500_000n);
    const payment = await signedPayment(requirements, domain, buyer, wallNow());
    const settled = await facilitatorFor(stack.t, other.secretKey).settle(payment, requirements);
    expect(settled).toMatchObject({ success: true, network: `eip155:${test.chainId}`, payer: buyer.address });
    expect(await balanceOn(test, otherPayout)).toBe(1_500_000n);

    // Hosted enrolments with wall-clock deadlines (ten minutes), on the test chain.
    for (const [key, name] of [
      [other.secretKey, 'other merchant'],
      [merchant.secretKey, 'same merchant, wallet off the clock'],
    ] as const) {
      const plan = await createPlan(key, `Monthly (${name})`, USDC(1));
      const wallet = privateKeyToAccount(generatePrivateKey());
      await transferOn(test, wallet.address, USDC(3));
      const body = await signedEnrolmentOn(await offerOf(plan), wallet, test, wallNow() + 600n);
      const posted = await stack.t.app.inject({ method: 'POST', url: `/checkout/plans/${plan}/enrol`, payload: body });
      expect(posted.statusCode, `${name}: ${posted.body}`).toBe(200);
      expect(posted.json()).toMatchObject({ chainId: test.chainId });
      const status = await until(
        async () => (await stack.t.app.inject({ method: 'GET', url: `/checkout/plans/${plan}/enrolments/${body.enrolment.nonce}` })).json(),
        (s) => s.submissionStatus !== 'pending' && s.submissionStatus !== 'submitted',
        `the enrolment of the ${name}`,
      );
      expect(status, name).toMatchObject({ submissionStatus: 'confirmed', chainId: test.chainId });
      expect(await enrolmentUsed(test, wallet.address, body.enrolment.nonce)).toBe(true);
    }
  });
});

describe('the hosted enrolment page for a wallet on the clock', () => {
  /** Waits until the clock wallet's subscription to `plan` is recorded with the fork's chain id (by the clock chain's follower). */
  const recordedOnFork = (plan: string) =>
    until(
      () =>
        stack.db.sql<{ chainId: string }[]>`
          select chain_id::text as "chainId" from subscriptions
          where subscriber_address = ${subscriber.address.toLowerCase()} and plan_id = ${plan}`,
      (rows) => rows[0]?.chainId === String(fork.chainId),
      `the subscription to ${plan} recorded on the fork`,
    );
  const hostedOffer = (plan: string, query: string) =>
    stack.t.app.inject({ method: 'GET', url: `/checkout/plans/${plan}/enrolment?${query}` });

  it("offers the clock's chain once the wallet is known, reads its token there, and enrols it on the fork", async () => {
    const plan = await createPlan(merchant.secretKey, 'Hosted, on the clock', USDC(3));
    // Before the page knows the wallet: the mode's chains, the test chain first.
    expect((await offerOf(plan)).terms.token).toBe(test.token);
    expect((await hostedOffer(plan, '')).json()).toMatchObject({ chainId: test.chainId, managerDomain: { chainId: test.chainId } });

    const offer = (await hostedOffer(plan, `wallet=${subscriber.address}`)).json();
    expect(offer).toMatchObject({ chainId: fork.chainId, managerDomain: { chainId: fork.chainId }, terms: { merchant: payout } });
    expect(offer.chains.map((c: { chainId: number }) => c.chainId)).toEqual([fork.chainId]);
    // A wallet off the clock still gets the test chain.
    const offClock = privateKeyToAccount(generatePrivateKey()).address;
    expect((await hostedOffer(plan, `wallet=${offClock}`)).json().chainId).toBe(test.chainId);
    // The test chain is not offered to the clock's wallet; a plan restricted to named chains is not on the fork.
    const onTest = await hostedOffer(plan, `wallet=${subscriber.address}&chainId=${test.chainId}`);
    expect(onTest.statusCode).toBe(400);
    expect(onTest.json().error).toMatchObject({ code: 'invalid_request', param: 'chainId' });
    const restricted = await api('POST', '/v1/subscription-plans', {
      name: 'Test chain only',
      amount: USDC(4).toString(),
      interval: 'monthly',
      chainIds: [test.chainId],
    });
    const refused = await hostedOffer(restricted.json().id, `wallet=${subscriber.address}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'invalid_request', param: 'wallet' });
    const malformed = await hostedOffer(plan, 'wallet=0x12');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toMatchObject({ code: 'invalid_request', param: 'wallet' });

    // A trial runs from the clock's time on the fork (a year ahead of the wall clock by now), from wall time elsewhere.
    const trial = await api('POST', '/v1/subscription-plans', {
      name: 'A week free, on the clock',
      amount: USDC(3).toString(),
      interval: 'monthly',
      trialPeriodDays: 7,
    });
    expect(trial.statusCode, trial.body).toBe(200);
    const forkNow = Math.floor((await chainNowMs(fork)) / 1000);
    expect(forkNow - Date.now() / 1000).toBeGreaterThan(300 * 86_400);
    const onClock = Number((await hostedOffer(trial.json().id, `wallet=${subscriber.address}`)).json().terms.trialEnd);
    expect(onClock - (forkNow + 7 * 86_400)).toBeGreaterThanOrEqual(0);
    expect(onClock - (forkNow + 7 * 86_400)).toBeLessThan(120);
    const offClockTrial = Number((await hostedOffer(trial.json().id, `wallet=${offClock}`)).json().terms.trialEnd);
    expect(Math.abs(offClockTrial - (Math.floor(Date.now() / 1000) + 7 * 86_400))).toBeLessThan(120);

    // The page reads the token (its EIP-712 domain) and the permit nonce on the fork.
    const token = await stack.t.app.inject({ method: 'GET', url: `/v1/tokens/${test.token}?mode=test&chainId=${fork.chainId}` });
    expect(token.statusCode, token.body).toBe(200);
    expect(token.json().domain).toMatchObject({ chainId: fork.chainId });

    // Signed for the fork on its time, posted without a chain: the clock's wallet enrols on the fork.
    await transferOn(fork, subscriber.address, USDC(5));
    const body = await signedEnrolmentOn(offer, subscriber, fork, BigInt((await chainNowMs(fork)) / 1000) + 3600n);
    const posted = await stack.t.app.inject({ method: 'POST', url: `/checkout/plans/${plan}/enrol`, payload: body });
    expect(posted.statusCode, posted.body).toBe(200);
    expect(posted.json()).toMatchObject({ chainId: fork.chainId });
    const status = await until(
      async () => (await stack.t.app.inject({ method: 'GET', url: `/checkout/plans/${plan}/enrolments/${body.enrolment.nonce}` })).json(),
      (s) => s.submissionStatus === 'confirmed' || s.submissionStatus === 'failed',
      'the hosted enrolment on the fork',
    );
    expect(status).toMatchObject({ submissionStatus: 'confirmed', chainId: fork.chainId });
    expect(await enrolmentUsed(fork, subscriber.address, body.enrolment.nonce)).toBe(true);
    expect(await enrolmentUsed(test, subscriber.address, body.enrolment.nonce)).toBe(false);
    await recordedOnFork(plan);
  });

  it("in the browser: the page shows the test chain, then, once the clock's wallet connects, switches it to the fork and signs there on the fork's time", async () => {
    // An amount no other plan of the merchant has: the indexer records an enrolment with the oldest plan of its terms.
    const plan = await createPlan(merchant.secretKey, 'Hosted in the browser, on the clock', 1_250_000n);
    await transferOn(fork, subscriber.address, USDC(2));
    const baseUrl = `http://127.0.0.1:${(stack.t.app.server.address() as AddressInfo).port}`;
    const { context, userDataDir } = await launchBrowser();
    try {
      const { page, log } = await openWalletPage(context, {
        account: subscriber,
        chainId: test.chainId,
        rpcUrl: test.rpcUrl,
        otherChains: { [fork.chainId]: fork.rpcUrl },
      });
      await page.goto(`${baseUrl}/checkout/plans/${plan}`);
      await expect.poll(() => page.locator('#pay').isEnabled(), { timeout: 30_000 }).toBe(true);
      expect(await page.textContent('#details')).toContain(String(test.chainId));
      await page.locator('#pay').click();
      await expect.poll(() => page.textContent('#message'), { timeout: 60_000 }).toMatch(/You are subscribed/);
      expect(await page.textContent('#details')).toContain(String(fork.chainId));

      // EIP-3326 to the fork, then the permit and the Enrolment both for the fork, with deadlines on its time
      // (a year ahead of the device's: a deadline on the device's time would have expired there).
      const switches = log.requests.filter((r) => r.method === 'wallet_switchEthereumChain');
      expect(switches.map((r) => r.params)).toEqual([[{ chainId: `0x${fork.chainId.toString(16)}` }]]);
      const signed = log.requests
        .filter((r) => r.method === 'eth_signTypedData_v4')
        .map((r) => JSON.parse((r.params as [string, string])[1]) as { domain: { chainId: number }; message: { deadline: string } });
      expect(signed.map((d) => Number(d.domain.chainId))).toEqual([fork.chainId, fork.chainId]);
      const forkNow = BigInt(Math.floor((await chainNowMs(fork)) / 1000));
      for (const data of signed) expect(BigInt(data.message.deadline)).toBeGreaterThan(forkNow);
      await recordedOnFork(plan);
    } finally {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
