// Chaos: the worker process is SIGKILLed while it charges many subscriptions due at once
// (2-second blocks, so chargeMany batches are mined, sent or about to be sent at the kill),
// and another worker is started. Every subscription must be charged exactly once for its
// first period: one SubscriptionCharged log and one USDC Transfer to the merchant each on
// chain, the merchant paid the exact sum, and one succeeded charge row each in Postgres.
import {
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  http,
  keccak256,
  parseEventLogs,
  toHex,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionManagerAbi } from '../../src/chain/generated/contracts.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { fundPayers } from '../../tools/dev/chain/deploy.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { sendSignedInWaves } from '../../tools/dev/chain/waves.js';
import { createEventDispatcher } from '../../src/events/dispatch.js';
import { addMerchantChainAddress } from '../../src/merchants/repo.js';
import { createPlanService } from '../../src/subscription-plans/service.js';
import { onSubscriptionCreatedOnChain } from '../../src/subscriptions/chain-events.js';
import { onChainPeriodSeconds } from '../../src/subscriptions/periods.js';
import { connectTemporalClient } from '../../src/temporal/connection.js';
import { TASK_QUEUES } from '../../src/temporal/task-queues.js';
import { randomNonce, signEnrolment, signPermit } from '../chain/helpers.js';
import { seedMerchant, type SeededMerchant } from '../support/app.js';
import { startChaosStack, type ChaosStack } from './support/stack.js';
import { waitUntil } from './support/wait.js';

const SUBSCRIPTIONS = 50;
const AMOUNT = 1_000_000n;
const PERIOD = BigInt(onChainPeriodSeconds('monthly', 1));

let stack: ChaosStack;
let merchant: SeededMerchant;
let pub: PublicClient;

beforeAll(async () => {
  stack = await startChaosStack({ blockTime: 2 });
  merchant = await seedMerchant(stack.sql);
  await addMerchantChainAddress(stack.sql, { merchantId: merchant.merchantId, livemode: false, address: DEV_ACCOUNTS.merchant.address });
  await createPlanService({ sql: stack.sql, events: { dispatch: async () => {} } }).create(
    { merchantId: merchant.merchantId, livemode: false },
    { name: 'Chaos monthly', amount: AMOUNT.toString(), currency: 'USDC', interval: 'monthly', intervalCount: 1, trialPeriodDays: 0 },
  );
  const info = stack.chain.info;
  pub = createPublicClient({
    chain: chainDefinition(info.chainId, info.rpcUrl),
    transport: http(info.rpcUrl),
    pollingInterval: 100,
  }) as PublicClient;
}, 240_000);

afterAll(async () => stack?.stop(), 60_000);

/** Enrols a fresh payer per subscription on chain (signed by the payer, sent by the relayer in one wave) and returns the SubscriptionCreated logs. */
async function enrolOnChain(count: number) {
  const info = stack.chain.info;
  const payers = Array.from({ length: count }, (_, i) => privateKeyToAccount(keccak256(toHex(`chaos-charge-payer-${i}`))));
  await fundPayers({
    rpcUrl: info.rpcUrl,
    minterKey: DEV_ACCOUNTS.usdcMasterMinter.privateKey,
    token: info.token,
    payers: payers.map((p) => p.address),
    balance: 10n * AMOUNT,
  });
  const deadline = BigInt(Math.floor(Date.now() / 1000) + 86_400);
  const terms = {
    token: info.token,
    merchant: DEV_ACCOUNTS.merchant.address as Address,
    operator: info.operator,
    amount: AMOUNT,
    period: PERIOD,
    periods: 0,
    trialEnd: 0n,
  };
  const relayer = privateKeyToAccount(DEV_ACCOUNTS.relayer.privateKey);
  const fees = await pub.estimateFeesPerGas();
  let nonce = await pub.getTransactionCount({ address: relayer.address, blockTag: 'pending' });
  const raws: Hex[] = [];
  for (const payer of payers) {
    const permit = await signPermit(pub, payer, info.token, {
      spender: info.subscriptionManager,
      value: 1000n * AMOUNT,
      deadline,
      nonce: 0n,
    });
    const auth = await signEnrolment(pub, payer, info.subscriptionManager, terms, { nonce: randomNonce(), deadline });
    const data = encodeFunctionData({
      abi: subscriptionManagerAbi,
      functionName: 'subscribeWithPermitFor',
      args: [payer.address, terms, permit, auth],
    });
    raws.push(
      await relayer.signTransaction({
        type: 'eip1559',
        chainId: info.chainId,
        to: info.subscriptionManager,
        data,
        nonce: nonce++,
        gas: 400_000n,
        maxFeePerGas: fees.maxFeePerGas * 10n,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      }),
    );
  }
  const receipts = await sendSignedInWaves(pub, raws, count);
  return Promise.all(
    receipts.map(async (receipt) => {
      if (receipt.status !== 'success') throw new Error(`enrolment ${receipt.transactionHash} reverted`);
      const [event] = parseEventLogs({ abi: subscriptionManagerAbi, logs: receipt.logs, eventName: 'SubscriptionCreated' });
      const block = await pub.getBlock({ blockNumber: receipt.blockNumber });
      return {
        livemode: false,
        chainId: info.chainId,
        address: event!.address,
        transactionHash: receipt.transactionHash,
        blockTimestamp: block.timestamp,
        args: event!.args,
      };
    }),
  );
}

describe('the worker killed while charging subscriptions', () => {
  it('charges every subscription once for its period after a SIGKILL and a restart: none lost, none twice', async () => {
    const info = stack.chain.info;
    const created = await enrolOnChain(SUBSCRIPTIONS);
    const fromBlock = await pub.getBlockNumber();
    const merchantBefore = await pub.readContract({
      address: info.token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [DEV_ACCOUNTS.merchant.address as Address],
    });

    // What the indexer does for each SubscriptionCreated: the subscription row and its workflow, all due now.
    const temporal = await connectTemporalClient(stack.temporalAddress, 'default');
    const taskQueue = TASK_QUEUES.main;
    const deps = {
      sql: stack.sql,
      temporal,
      taskQueue,
      events: createEventDispatcher(temporal, taskQueue, () => {}),
      modes: {
        test: { chainId: info.chainId, subscriptionManagers: [info.subscriptionManager], token: info.token, operator: info.operator },
      },
    };
    for (const log of created)
      expect(await onSubscriptionCreatedOnChain(deps, log)).toMatchObject({ outcome: 'created', workflowStarted: true });

    const succeeded = async () =>
      (
        await stack.sql<{ n: number }[]>`
        select count(*)::int as n from subscription_charges c join subscriptions s on s.id = c.subscription_id
        where s.merchant_id = ${merchant.merchantId} and c.status = 'succeeded'`
      )[0]!.n;
    const worker = await stack.start('worker');
    // Kill once some batches are mined and recorded, with the rest in flight or not yet sent.
    await waitUntil('some charges recorded', 120_000, async () => ((await succeeded()) > 0 ? true : undefined), 50);
    await worker.kill();
    const atKill = await succeeded();
    expect(atKill).toBeLessThan(SUBSCRIPTIONS);

    const second = await stack.start('worker');
    await waitUntil(
      'every subscription charged after the restart',
      180_000,
      async () => ((await succeeded()) === SUBSCRIPTIONS ? true : undefined),
      500,
    );
    expect({ exitCode: second.child.exitCode, signal: second.child.signalCode }).toEqual({ exitCode: null, signal: null });
    await temporal.connection.close();

    // On chain: one SubscriptionCharged per subscription (period 0), and the merchant paid exactly once each.
    const ids = new Set(created.map((l) => l.args.id));
    const charged = (
      await pub.getContractEvents({
        address: info.subscriptionManager,
        abi: subscriptionManagerAbi,
        eventName: 'SubscriptionCharged',
        fromBlock,
      })
    ).filter((e) => ids.has(e.args.id!));
    expect(charged).toHaveLength(SUBSCRIPTIONS);
    expect(new Set(charged.map((e) => `${e.args.id}:${e.args.periodIndex}`)).size).toBe(SUBSCRIPTIONS);
    expect(charged.every((e) => e.args.periodIndex === 0)).toBe(true);
    const payers = new Set(created.map((l) => l.args.subscriber.toLowerCase()));
    const transfers = (await pub.getContractEvents({ address: info.token, abi: erc20Abi, eventName: 'Transfer', fromBlock })).filter((e) =>
      payers.has(e.args.from!.toLowerCase()),
    );
    expect(transfers).toHaveLength(SUBSCRIPTIONS);
    expect(new Set(transfers.map((e) => e.args.from!.toLowerCase())).size).toBe(SUBSCRIPTIONS);
    const merchantAfter = await pub.readContract({
      address: info.token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [DEV_ACCOUNTS.merchant.address as Address],
    });
    expect(merchantAfter - merchantBefore).toBe(AMOUNT * BigInt(SUBSCRIPTIONS));

    // In Postgres: one succeeded charge of period 0 per subscription, each with the transaction that carried it.
    const rows = await stack.sql<{ onChainId: string; periodIndex: number; n: number; hashes: number }[]>`
      select s.on_chain_id as "onChainId", c.period_index as "periodIndex", count(*)::int as n, count(distinct c.tx_hash)::int as hashes
      from subscription_charges c join subscriptions s on s.id = c.subscription_id
      where s.merchant_id = ${merchant.merchantId} and c.status = 'succeeded' group by 1, 2`;
    expect(rows).toHaveLength(SUBSCRIPTIONS);
    expect(rows.every((r) => r.periodIndex === 0 && r.n === 1 && r.hashes === 1)).toBe(true);
    const chargeTxs = new Set(charged.map((e) => e.transactionHash));
    const recorded = await stack.sql<{ hash: string }[]>`
      select distinct c.tx_hash as hash from subscription_charges c join subscriptions s on s.id = c.subscription_id where s.merchant_id = ${merchant.merchantId}`;
    for (const { hash } of recorded) expect(chargeTxs.has(hash as Hex)).toBe(true);
  }, 420_000);
});
