// A subscription from enrolment to cancel with every real part: the api (plan,
// relay, reads, cancel), the worker (relay submission and subscription
// workflows on the Temporal dev server), the indexer with the subscription
// hooks, and the contracts on a private anvil.
import { type Address, type PublicClient, createPublicClient, createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionManagerAbi } from '../../src/chain/generated/contracts.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import type { ChainSettings } from '../../src/chain/config.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { PERMIT_TYPES, randomNonce, readDomain, signEnrolmentV2 } from '../../src/chain/typed-data.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { createEventDispatcher } from '../../src/events/dispatch.js';
import { createHookRegistry } from '../../src/indexer/hooks.js';
import { createIndexer } from '../../src/indexer/indexer.js';
import { addMerchantChainAddress, setPayoutAddress } from '../../src/merchants/repo.js';
import { relayWorkflowId } from '../../workflows/relay-submission.js';
import { createViemSubscriptionChain } from '../../src/subscriptions/chain.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { subscriptionChainModes, subscriptionIndexerHooks } from '../../src/subscriptions/indexer-hooks.js';
import { chargeWindowSeconds, onChainPeriodSecondsV2 } from '../../src/subscriptions/periods.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, startPrivateChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';

let chain: DevChain;
let settings: ChainSettings;
let db: TestDatabase;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let pub: PublicClient;

const payout = DEV_ACCOUNTS.merchant.address;
const subscriber = privateKeyToAccount(DEV_ACCOUNTS.payers[3]!.privateKey);

beforeAll(async () => {
  chain = await startPrivateChain();
  settings = settingsOf(chain.info, { pollIntervalMs: 100 });
  pub = createPublicClient({
    chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
    transport: http(chain.info.rpcUrl),
    pollingInterval: 100,
  });
  db = await createTestDatabase();
  const subscriptionChain = await createViemSubscriptionChain(subscriptionChainModes({ test: settings }), { sql: db.sql });
  temporal = await startDevServerWorker(db.sql, { chain: { test: settings }, subscriptionChain });
  t = await createTestApp(db.sql, { temporal: temporal.client, taskQueue: temporal.taskQueue, chain: { test: settings } });
  merchant = await seedMerchant(db.sql);
  await setPayoutAddress(db.sql, merchant.merchantId, payout);
  await addMerchantChainAddress(db.sql, { merchantId: merchant.merchantId, livemode: false, address: payout });
});
afterAll(async () => {
  await t?.close();
  await temporal?.stop();
  await db?.drop();
  await chain?.stop();
});

const api = (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${merchant.secretKey}`, ...headers }, ...(payload ? { payload } : {}) });

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('subscription end to end', () => {
  it('enrols through the relay, appears through the indexer, is charged on-chain, and cancels on-chain', async () => {
    const plan = (await api('POST', '/v1/subscription-plans', { name: 'Monthly', amount: '10000000', interval: 'monthly' })).json();
    // New enrolments go to SubscriptionManagerV2 and sign the plan's charge window.
    const manager = chain.info.subscriptionManagerV2!;
    const token = chain.info.token;
    const now = (await pub.getBlock()).timestamp;
    const period = BigInt(onChainPeriodSecondsV2('monthly', 1));
    const terms = {
      token,
      merchant: payout,
      operator: DEV_ACCOUNTS.operator.address,
      amount: 10_000_000n,
      period,
      periods: 12,
      trialEnd: 0n,
      chargeWindow: BigInt(chargeWindowSeconds('monthly', 1)),
    };
    const permit = { value: 120_000_000n, deadline: now + 3600n };
    const permitNonce = await pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'nonces', args: [subscriber.address] });
    const permitSignature = await subscriber.signTypedData({
      domain: await readDomain(pub, token),
      types: PERMIT_TYPES,
      primaryType: 'Permit',
      message: { owner: subscriber.address, spender: manager, value: permit.value, nonce: permitNonce, deadline: permit.deadline },
    });
    const enrolment = await signEnrolmentV2(pub, subscriber, manager, terms, { nonce: randomNonce(), deadline: now + 3600n });
    const key = 'e2e-enrolment';
    const relayed = await api(
      'POST',
      '/v1/relay/subscriptions',
      {
        subscriber: subscriber.address,
        terms: {
          token,
          merchant: payout,
          amount: '10000000',
          period: period.toString(),
          periods: 12,
          trialEnd: '0',
          chargeWindow: terms.chargeWindow.toString(),
        },
        permit: { value: permit.value.toString(), deadline: permit.deadline.toString(), signature: permitSignature },
        enrolment: { nonce: enrolment.nonce, deadline: enrolment.deadline.toString(), signature: enrolment.signature },
      },
      { 'idempotency-key': key },
    );
    expect(relayed.statusCode).toBe(200);
    await temporal.client.workflow
      .getHandle(relayWorkflowId({ merchantId: merchant.merchantId, livemode: false, idempotencyKey: key }))
      .result();

    // The indexer sees SubscriptionCreated and its hook starts the subscription workflow.
    const events = createEventDispatcher(temporal.client, temporal.taskQueue, () => {});
    const hooks = createHookRegistry(
      subscriptionIndexerHooks({ test: settings }, { sql: db.sql, temporal: temporal.client, taskQueue: temporal.taskQueue, events }),
    );
    const indexer = createIndexer({ sql: db.sql, settings, hooks, temporal: temporal.client });
    for (let i = 0; i < 100; i++) if ((await indexer.step()).kind === 'idle') break;

    const list = await eventually(
      async () => (await api('GET', `/v1/subscriptions?planId=${plan.id}`)).json(),
      (page) => page.data.length === 1 && page.data[0].status === 'active',
      'the subscription to be active',
    );
    const subscription = list.data[0];
    expect(subscription).toMatchObject({ planId: plan.id, status: 'active' });

    // Period 0 was charged on-chain by the workflow.
    const charges = await eventually(
      async () => (await api('GET', `/v1/subscription-charges?subscriptionId=${subscription.id}`)).json(),
      (page) => page.data.length === 1 && page.data[0].status === 'succeeded',
      'the first charge',
    );
    expect(charges.data[0].transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    const [row] = await db.sql<
      { onChainId: string }[]
    >`select on_chain_id::text as "onChainId" from subscriptions where id = ${subscription.id}`;
    const onChainId = BigInt(row!.onChainId);
    expect(
      await pub.readContract({ address: manager as Address, abi: subscriptionManagerAbi, functionName: 'isCharged', args: [onChainId, 0] }),
    ).toBe(true);

    // The subscriber re-approves the SubscriptionManager on-chain: the indexer's allowance hook
    // signals the workflow of every at_risk subscription of that wallet, so its charge retries now.
    // (Reaching at_risk for real needs the next period; the read model is set to it here, and the
    // workflow's retry on walletFunded is covered on the time-skipping server.)
    await db.sql`update subscriptions set status = 'at_risk' where id = ${subscription.id}`;
    const wallet = createWalletClient({
      account: subscriber,
      chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
      transport: http(chain.info.rpcUrl),
    });
    const approval = await wallet.writeContract({
      address: token,
      abi: fiatTokenAbi,
      functionName: 'approve',
      args: [manager, 500_000_000n],
    });
    await waitForDevReceipt(pub, approval);
    for (let i = 0; i < 100; i++) if ((await indexer.step()).kind === 'idle') break;
    const workflow = temporal.client.workflow.getHandle(subscription.id);
    const signalled = async () =>
      ((await workflow.fetchHistory()).events ?? []).filter(
        (e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'walletFunded',
      ).length;
    expect(await eventually(signalled, (n) => n === 1, 'the walletFunded signal')).toBe(1);
    await db.sql`update subscriptions set status = 'active' where id = ${subscription.id}`;

    // Cancel through the API: the record first, then the on-chain cancel.
    const cancelled = await api('POST', `/v1/subscriptions/${subscription.id}/cancel`, { reason: 'customer asked' });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().status).toBe('cancelled');
    await eventually(
      async () =>
        (
          await pub.readContract({
            address: manager as Address,
            abi: subscriptionManagerAbi,
            functionName: 'getSubscription',
            args: [onChainId],
          })
        ).cancelled,
      (value) => value === true,
      'the on-chain cancel',
    );
    const again = await api('POST', `/v1/subscriptions/${subscription.id}/cancel`, {});
    expect(again.statusCode).toBe(403);
    expect(again.json().error.code).toBe('session_invalid_state');
  });
});
