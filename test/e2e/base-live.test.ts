// Live mode on a Base-shaped chain, every part real: anvil with chain id 8453 and 2-second blocks,
// Circle's USDC at Base's canonical address, SubscriptionManager and the escrow deployed by
// `npm run contracts:deploy`, live mode configured from the CHAIN_LIVE_* lines it prints and the
// Base preset (12 confirmations), the api, a worker on the Temporal dev server and the live indexer.
// A merchant goes live through the go-live checks; its live payment (whose block a reorg takes away
// while it waits for its confirmations), a subscription's first charge and a refund settle once.
import { type Address, type Hex, createWalletClient, getAddress, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionManagerAbi } from '../../src/chain/generated/contracts.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { subscriptionManagerV2Of, type ChainSettings } from '../../src/chain/config.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import {
  type Authorization,
  PERMIT_TYPES,
  randomNonce,
  readDomain,
  signAuthorization,
  signEnrolmentV2,
} from '../../src/chain/typed-data.js';
import { loadConfig } from '../../src/config.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { startDevIdentityProvider, type DevIdentityProvider } from '../../tools/dev/identity-provider.js';
import { startSmtpSink, type SmtpSink } from '../../tools/dev/smtp-sink.js';
import { createMailer, type Mailer } from '../../src/email/mailer.js';
import { createEventDispatcher } from '../../src/events/dispatch.js';
import { createHookRegistry } from '../../src/indexer/hooks.js';
import { createIndexer } from '../../src/indexer/indexer.js';
import { createViemSubscriptionChain } from '../../src/subscriptions/chain.js';
import { subscriptionChainModes, subscriptionIndexerHooks } from '../../src/subscriptions/indexer-hooks.js';
import { chargeWindowSeconds, onChainPeriodSecondsV2 } from '../../src/subscriptions/periods.js';
import { relayWorkflowId } from '../../workflows/relay-submission.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { BASE, type BaseChain, startBaseChain } from '../support/base-chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { goLive, type LiveMerchant } from '../support/go-live.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { until } from '../support/until.js';

const payer = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);
const subscriber = privateKeyToAccount(DEV_ACCOUNTS.payers[1]!.privateKey);
const payout = DEV_ACCOUNTS.merchant.address;

let base: BaseChain;
let live: ChainSettings;
let db: TestDatabase;
let temporal: DevServerWorker;
let t: TestApp;
let idp: DevIdentityProvider;
let sink: SmtpSink;
let mailer: Mailer;
/** Set by the go-live test; the live tests after it use its key. */
let merchant: LiveMerchant;
/** The payment session the reorg test paid (the refund test refunds it). */
let paidSession: { id: string; amount: bigint } | undefined;
/** The live indexer, following the chain as the indexer process does, until afterAll. */
const indexing = new AbortController();
let indexerRun: Promise<void> | undefined;

beforeAll(async () => {
  base = await startBaseChain({ payers: [payer.address, subscriber.address], payerBalance: 1_000n * 10n ** 6n });
  // The test looks more often than a deployment would (Base's preset polls every 2 s).
  const env = { ...base.liveEnv, CHAIN_LIVE_POLL_INTERVAL_MS: '250' };
  const config = loadConfig({ DATABASE_URL: 'postgres://unused', ...env });
  live = config.chain.live!;
  db = await createTestDatabase();
  idp = await startDevIdentityProvider();
  sink = await startSmtpSink();
  mailer = createMailer({ smtpUrl: sink.smtpUrl, from: 'StablePay <no-reply@stablepay.local>' });
  const subscriptionChain = await createViemSubscriptionChain(subscriptionChainModes(config.chain), { sql: db.sql });
  temporal = await startDevServerWorker(db.sql, { chain: config.chain, subscriptionChain, mailer });
  const events = createEventDispatcher(temporal.client, temporal.taskQueue, () => {});
  const hooks = createHookRegistry(
    subscriptionIndexerHooks(config.chain, {
      sql: db.sql,
      temporal: temporal.client,
      taskQueue: temporal.taskQueue,
      events,
    }),
  );
  indexerRun = createIndexer({ sql: db.sql, settings: live, hooks, temporal: temporal.client }).run(indexing.signal);
  const oidc = { OIDC_ISSUER: idp.issuer, OIDC_AUDIENCE: idp.audience, OIDC_JWKS_URL: idp.jwksUrl };
  t = await createTestApp(db.sql, { temporal: temporal.client, taskQueue: temporal.taskQueue, env: { ...env, ...oidc } });
});
afterAll(async () => {
  indexing.abort();
  await indexerRun;
  await t?.close();
  await temporal?.stop();
  mailer?.close();
  await sink?.stop();
  await idp?.stop();
  await db?.drop();
  await base?.stop();
});

const rpc = (method: string, params: unknown[] = []) => base.client.request({ method: method as never, params: params as never });
const balanceOf = (who: Address) =>
  base.client.readContract({ address: BASE.usdc, abi: fiatTokenAbi, functionName: 'balanceOf', args: [who] });
const liveApi = async (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${merchant.liveSecretKey}`, ...headers },
    ...(payload ? { payload } : {}),
  });

/** How long each wait of the flow may take: 12 confirmations on 2-second blocks, with the reorg's replay. */
const FLOW_WAIT = { timeoutMs: 90_000 };

/** Mines `blocks` at once and waits until the node's head shows them. */
async function mine(blocks: number): Promise<void> {
  if (blocks <= 0) return;
  const target = (await base.client.getBlockNumber()) + BigInt(blocks);
  await rpc('anvil_mine', [`0x${blocks.toString(16)}`]);
  await until(
    () => base.client.getBlockNumber(),
    (head) => head >= target,
    `block ${target}`,
    FLOW_WAIT,
  );
}

/** Polls as `until` does, mining two blocks between looks: each step of a flow waits for 12 confirmations. */
async function untilMining<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  return until(
    async () => {
      const value = await read();
      if (!done(value)) await mine(2);
      return value;
    },
    done,
    what,
    FLOW_WAIT,
  );
}

async function signedPayment(to: Address, value: bigint) {
  const now = (await base.client.getBlock()).timestamp;
  const message: Authorization = { from: payer.address, to, value, validAfter: now - 60n, validBefore: now + 3600n, nonce: randomNonce() };
  const signature = await signAuthorization(payer, await readDomain(base.client, BASE.usdc), 'TransferWithAuthorization', message);
  const authorization = {
    ...message,
    value: value.toString(),
    validAfter: message.validAfter.toString(),
    validBefore: message.validBefore.toString(),
  };
  return { authorization, signature };
}

type SubmissionRow = {
  status: string;
  blockNumber: string | null;
  blockHash: string | null;
  confirmations: number;
  transactionHash: string | null;
};
const submissionRow = async (key: string): Promise<SubmissionRow> =>
  (
    await db.sql<SubmissionRow[]>`
      select status, block_number::text as "blockNumber", block_hash as "blockHash", confirmations, transaction_hash as "transactionHash"
      from relay_submissions where merchant_id = ${merchant.merchantId} and livemode and idempotency_key = ${key}`
  )[0]!;
const completedEvents = async (sessionId: string) =>
  db.sql`select id from events where merchant_id = ${merchant.merchantId} and type = 'payment.completed' and position(${sessionId} in data::text) > 0`;

describe('live mode on a Base-shaped chain', () => {
  it('is configured from the Base preset and the lines contracts:deploy printed', async () => {
    expect(await base.client.getChainId()).toBe(8453);
    expect(await base.client.readContract({ address: BASE.usdc, abi: fiatTokenAbi, functionName: 'name' })).toBe('USD Coin');
    expect(base.liveEnv).toMatchObject({ CHAIN_LIVE_PRESET: 'base' });
    expect(live).toMatchObject({
      livemode: true,
      chainId: 8453,
      token: BASE.usdc,
      confirmations: 12,
      subscriptionManager: getAddress(base.liveEnv.CHAIN_LIVE_SUBSCRIPTION_MANAGER_ADDRESS!),
      escrow: getAddress(base.liveEnv.CHAIN_LIVE_ESCROW_ADDRESS!),
    });
    for (const address of [live.subscriptionManager, live.escrow])
      expect((await base.client.getCode({ address }))?.length).toBeGreaterThan(1000);
  });

  it('a merchant passes the go-live checks and issues a live key', async () => {
    merchant = await goLive({ t, idp, sink, businessName: 'Base merchant', payoutAddress: payout });
  });

  it('a live payment whose block is reorged away is not paid until final again, then settles exactly once', async () => {
    const amount = 25_000_000n;
    const created = await liveApi('POST', '/v1/payment-sessions', { amount: amount.toString() });
    expect(created.statusCode, created.body).toBe(200);
    const session = created.json();
    expect(session).toMatchObject({ livemode: true, status: 'open', chainId: 8453, token: BASE.usdc, payTo: payout });
    const [payerBefore, payoutBefore] = await Promise.all([balanceOf(payer.address), balanceOf(payout)]);

    const key = 'base-live-payment';
    const relayed = await liveApi(
      'POST',
      '/v1/relay/payments',
      { ...(await signedPayment(payout, amount)), paymentSessionId: session.id },
      { 'idempotency-key': key },
    );
    expect(relayed.statusCode, relayed.body).toBe(200);

    // Included, a few of its 12 confirmations in (2-second blocks), not paid.
    const included = await until(
      () => submissionRow(key),
      (s) => s.blockNumber !== null && s.confirmations >= 3,
      'the payment to be included',
      FLOW_WAIT,
    );
    expect(included.status).toBe('submitted');
    expect((await liveApi('GET', `/v1/payment-sessions/${session.id}`)).json().status).toBe('processing');
    const first = BigInt(included.blockNumber!);

    // The reorg: interval mining stops so the test decides every block from here; the blocks from
    // the payment's on are replaced with empty ones at the same height.
    await rpc('evm_setIntervalMining', [0]);
    const head = await base.client.getBlockNumber();
    await rpc('anvil_reorg', [Number(head - first + 1n), []]);
    expect((await base.client.getBlock({ blockNumber: first })).hash).not.toBe(included.blockHash);
    expect(await base.client.getTransactionReceipt({ hash: included.transactionHash as Hex }).catch(() => null)).toBeNull();

    // The relayer finds its transaction gone and sends the same bytes again; the next block holds it.
    await until(
      () => base.client.getTransaction({ hash: included.transactionHash as Hex }).catch(() => null),
      (tx) => tx !== null,
      'the payment back in the pool',
      FLOW_WAIT,
    );
    await mine(1);
    const receipt = await base.client.getTransactionReceipt({ hash: included.transactionHash as Hex });
    expect(receipt.blockNumber).toBeGreaterThan(head);

    // At the height where the orphaned block would have had its 12 confirmations, the new one has
    // fewer: once the relayer has counted them, the payment is still not reported paid.
    await mine(Number(first + 11n - receipt.blockNumber));
    const counted = Number(first + 12n - receipt.blockNumber);
    const waiting = await until(
      () => submissionRow(key),
      (s) => s.blockHash === receipt.blockHash && (s.confirmations >= counted || s.status !== 'submitted'),
      'the relayer to count the new block',
      FLOW_WAIT,
    );
    expect(waiting).toMatchObject({ status: 'submitted', confirmations: counted });
    expect((await liveApi('GET', `/v1/payment-sessions/${session.id}`)).json().status).toBe('processing');
    expect(await completedEvents(session.id)).toHaveLength(0);

    // Blocks come every 2 seconds again; the rest of the 12 are mined at once.
    await rpc('evm_setIntervalMining', [2]);
    await mine(12 - counted);
    const paid = await until(
      async () => (await liveApi('GET', `/v1/payment-sessions/${session.id}`)).json(),
      (s) => s.status === 'completed',
      'the session to complete',
      FLOW_WAIT,
    );
    expect(paid).toMatchObject({ payer: payer.address, transactionHash: receipt.transactionHash });
    const confirmed = await submissionRow(key);
    expect(confirmed).toMatchObject({ status: 'confirmed', blockNumber: receipt.blockNumber.toString(), blockHash: receipt.blockHash });
    expect(confirmed.confirmations).toBeGreaterThanOrEqual(12);

    // Exactly once: one completion event, the balances moved by one payment.
    await until(
      () => completedEvents(session.id),
      (rows) => rows.length >= 1,
      'payment.completed',
      FLOW_WAIT,
    );
    expect(await completedEvents(session.id)).toHaveLength(1);
    expect(await balanceOf(payer.address)).toBe(payerBefore - amount);
    expect(await balanceOf(payout)).toBe(payoutBefore + amount);
    paidSession = { id: session.id, amount };
  });

  it('a live subscription is enrolled through the relay and its first charge settles exactly once', async () => {
    const amount = 10_000_000n;
    const plan = await liveApi('POST', '/v1/subscription-plans', { name: 'Monthly', amount: amount.toString(), interval: 'monthly' });
    expect(plan.statusCode, plan.body).toBe(200);
    // New enrolments go to the mode's SubscriptionManagerV2 (contracts:deploy put it at its CREATE2 address).
    const manager = subscriptionManagerV2Of(live);
    expect((await base.client.getCode({ address: manager }))?.length).toBeGreaterThan(1000);
    const now = (await base.client.getBlock()).timestamp;
    const period = BigInt(onChainPeriodSecondsV2('monthly', 1));
    const chargeWindow = BigInt(chargeWindowSeconds('monthly', 1));
    const terms = { token: BASE.usdc, merchant: payout, operator: live.operator!, amount, period, periods: 12, trialEnd: 0n, chargeWindow };
    const permit = { value: 12n * amount, deadline: now + 3600n };
    const permitNonce = await base.client.readContract({
      address: BASE.usdc,
      abi: fiatTokenAbi,
      functionName: 'nonces',
      args: [subscriber.address],
    });
    const permitSignature = await subscriber.signTypedData({
      domain: await readDomain(base.client, BASE.usdc),
      types: PERMIT_TYPES,
      primaryType: 'Permit',
      message: { owner: subscriber.address, spender: manager, value: permit.value, nonce: permitNonce, deadline: permit.deadline },
    });
    const enrolment = await signEnrolmentV2(base.client, subscriber, manager, terms, { nonce: randomNonce(), deadline: now + 3600n });
    const [subscriberBefore, payoutBefore] = await Promise.all([balanceOf(subscriber.address), balanceOf(payout)]);

    const key = 'base-live-enrolment';
    const relayed = await liveApi(
      'POST',
      '/v1/relay/subscriptions',
      {
        subscriber: subscriber.address,
        terms: {
          token: BASE.usdc,
          merchant: payout,
          amount: amount.toString(),
          period: period.toString(),
          periods: 12,
          trialEnd: '0',
          chargeWindow: chargeWindow.toString(),
        },
        permit: { value: permit.value.toString(), deadline: permit.deadline.toString(), signature: permitSignature },
        enrolment: { nonce: enrolment.nonce, deadline: enrolment.deadline.toString(), signature: enrolment.signature },
      },
      { 'idempotency-key': key },
    );
    expect(relayed.statusCode, relayed.body).toBe(200);
    // The enrolment, then SubscriptionCreated (indexer), then the charge: each waits for 12 blocks, mined a few at a time.
    const relayRun = temporal.client.workflow.getHandle(
      relayWorkflowId({ merchantId: merchant.merchantId, livemode: true, idempotencyKey: key }),
    );
    const listed = await untilMining(
      async () => (await liveApi('GET', `/v1/subscriptions?planId=${plan.json().id}`)).json(),
      (page) => page.data?.length === 1 && page.data[0].status === 'active',
      'the live subscription to be active',
    );
    expect(await relayRun.result()).toEqual({ status: 'confirmed' });
    const subscription = listed.data[0];
    expect(subscription).toMatchObject({ livemode: true, planId: plan.json().id });

    const charges = await untilMining(
      async () => (await liveApi('GET', `/v1/subscription-charges?subscriptionId=${subscription.id}`)).json(),
      (page) => page.data?.length >= 1 && page.data.every((c: { status: string }) => c.status === 'succeeded'),
      'the first charge',
    );
    expect(charges.data).toHaveLength(1);
    expect(charges.data[0]).toMatchObject({ status: 'succeeded', livemode: true });
    const [row] = await db.sql<
      { onChainId: string }[]
    >`select on_chain_id::text as "onChainId" from subscriptions where id = ${subscription.id}`;
    const onChainId = BigInt(row!.onChainId);
    expect(
      await base.client.readContract({ address: manager, abi: subscriptionManagerAbi, functionName: 'isCharged', args: [onChainId, 0] }),
    ).toBe(true);
    // Exactly once: one period's amount moved.
    expect(await balanceOf(subscriber.address)).toBe(subscriberBefore - amount);
    expect(await balanceOf(payout)).toBe(payoutBefore + amount);
  });

  it('a refund of the live payment is recorded once its transfer has 12 confirmations, and only once', async () => {
    const { id: sessionId, amount } = paidSession!;
    const created = await liveApi('POST', '/v1/refunds', { paymentSessionId: sessionId, reason: 'customer returned it' });
    expect(created.statusCode, created.body).toBe(200);
    const refund = created.json();
    expect(refund).toMatchObject({ status: 'pending', amount: amount.toString(), paymentSessionId: sessionId });
    expect(refund.instructions).toMatchObject({
      chainId: 8453,
      token: BASE.usdc,
      from: payout,
      to: payer.address,
      amount: amount.toString(),
    });
    const [payerBefore, payoutBefore] = await Promise.all([balanceOf(payer.address), balanceOf(payout)]);

    // The merchant sends the transfer the instructions describe from its payout wallet.
    const wallet = createWalletClient({
      account: privateKeyToAccount(DEV_ACCOUNTS.merchant.privateKey),
      chain: chainDefinition(BASE.chainId, base.anvil.rpcUrl),
      transport: http(base.anvil.rpcUrl),
    });
    const hash = await wallet.sendTransaction({ to: refund.instructions.call.to, data: refund.instructions.call.data });
    const receipt = await base.client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');

    // Short of its 12 confirmations it is refused with a retry hint; at 12 it succeeds.
    const early = await liveApi('POST', `/v1/refunds/${refund.id}/signature`, { transactionHash: hash });
    expect(early.statusCode).toBe(400);
    expect(early.json().error.message).toMatch(/of the 12 confirmations required; retry shortly/);
    expect((await liveApi('GET', `/v1/refunds/${refund.id}`)).json().status).toBe('pending');
    await mine(12);
    const recorded = await liveApi('POST', `/v1/refunds/${refund.id}/signature`, { transactionHash: hash });
    expect(recorded.statusCode, recorded.body).toBe(200);
    expect(recorded.json()).toMatchObject({ status: 'succeeded', transactionHash: hash });

    // Exactly once: recording it again changes nothing, nothing is left to refund, the transfer moved once.
    const again = await liveApi('POST', `/v1/refunds/${refund.id}/signature`, { transactionHash: hash });
    expect(again.json()).toMatchObject({ status: 'succeeded', transactionHash: hash });
    const more = await liveApi('POST', '/v1/refunds', { paymentSessionId: sessionId, amount: '1' });
    expect(more.statusCode).toBe(403); // fully refunded: nothing left
    const refunds = (await liveApi('GET', '/v1/refunds')).json().data.filter((r: { status: string }) => r.status === 'succeeded');
    expect(refunds).toHaveLength(1);
    expect(await balanceOf(payer.address)).toBe(payerBefore + amount);
    expect(await balanceOf(payout)).toBe(payoutBefore - amount);
  });
});
