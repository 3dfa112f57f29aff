// Batched on-chain charges through the real SubscriptionChain port: charges handed in together go
// out as one chargeMany transaction, each caller gets its own item's outcome, a refused item is
// reported by name (nothing sent for it), and a period is never charged twice. A batch reads its
// subscribers' allowances back in one round trip, not one per charge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionManagerAbi } from '../../src/chain/generated/contracts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { CHARGE_MANY_SELECTOR, createBatcher } from '../../src/subscriptions/charge-batch.js';
import { createViemSubscriptionChain, type ChargeInput, type SubscriptionChain } from '../../src/subscriptions/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startRpcRecorder } from '../support/rpc-recorder.js';
import { newPayer, startTestChain, type TestChain } from '../support/subscriptions.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { toFunctionSelector } from 'viem';

const USDC = (n: number) => BigInt(n) * 1_000_000n;
const PERIOD = 30n * 86_400n;

let db: TestDatabase;
let chain: TestChain;

beforeAll(async () => {
  db = await createTestDatabase();
  chain = await startTestChain(db.sql);
}, 120_000);

afterAll(async () => {
  await chain?.stop();
  await db?.drop();
});

async function enrolled(count: number, balance = USDC(100)): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const payer = newPayer();
    if (balance > 0n) await chain.mint(payer.address, balance);
    const log = await chain.enrol({ payer, amount: USDC(10), period: PERIOD, periods: 0 });
    ids.push(log.args.id.toString());
  }
  return ids;
}

describe('batched charges', () => {
  it('the batcher flushes after its window or when full, and gives each caller its own outcome', async () => {
    const flushed: number[][] = [];
    const batcher = createBatcher<number, string>({ windowMs: 50, maxItems: 3 }, async (items) => {
      flushed.push(items);
      return items.map((i) => (i === 4 ? { status: 'rejected', reason: new Error('four') } : { status: 'fulfilled', value: `ok ${i}` }));
    });
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((i) => batcher.add(i)));
    expect(flushed).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      'ok 1',
      'ok 2',
      'ok 3',
      'four',
      'ok 5',
    ]);
  });

  it('charges due together go out as one chargeMany; a refused one is reported by name, a charged one as already charged, none twice', async () => {
    const [a, b, c, charged] = await enrolled(4);
    const [broke] = await enrolled(1, 0n);
    const now = new Date((await chain.chainNowMs()) - 1000).toISOString();
    const input = (onChainId: string): ChargeInput => ({
      livemode: false,
      onChainId,
      periodIndex: 0,
      amount: USDC(10).toString(),
      periodStart: now,
    });
    // A port that batches for a whole second, so every charge below lands in one batch.
    const port: SubscriptionChain = await createViemSubscriptionChain(
      {
        test: {
          rpcUrl: chain.anvil.rpcUrl,
          operatorKey: DEV_ACCOUNTS.operator.privateKey,
          subscriptionManager: chain.subscriptionManagerV2,
          fromBlock: 0n,
          pollingIntervalMs: 50,
          chargeBatch: { windowMs: 1000, maxItems: 50 },
        },
      },
      { sql: db.sql },
    );
    const before = await port.charge(input(charged!));
    expect(before).toMatchObject({ ok: true, alreadyCharged: false });

    const [ra, rb, rc, rDup, rBroke] = await Promise.all([
      port.charge(input(a!)),
      port.charge(input(b!)),
      port.charge(input(c!)),
      port.charge(input(a!)), // the same period twice (a retried activity): shared, charged once
      port.charge(input(broke!)),
    ]);
    expect(ra).toMatchObject({ ok: true, alreadyCharged: false });
    expect(rDup).toEqual(ra);
    // One transaction for the three.
    expect(rb).toMatchObject({ ok: true, txHash: (ra as { txHash: string }).txHash });
    expect(rc).toMatchObject({ ok: true, txHash: (ra as { txHash: string }).txHash });
    expect(rBroke).toMatchObject({ ok: false, failure: 'insufficient_funds' });
    expect((rBroke as { reason: string }).reason).toMatch(/^InsufficientBalance\(/);

    const receipt = await chain.pub.getTransactionReceipt({ hash: (ra as { txHash: `0x${string}` }).txHash });
    const tx = await chain.pub.getTransaction({ hash: receipt.transactionHash });
    expect(tx.input.slice(0, 10)).toBe(CHARGE_MANY_SELECTOR);
    const logs = await chain.pub.getContractEvents({
      address: chain.subscriptionManagerV2,
      abi: subscriptionManagerAbi,
      eventName: 'SubscriptionCharged',
      fromBlock: 0n,
    });
    for (const id of [a, b, c, charged]) expect(logs.filter((l) => l.args.id === BigInt(id!) && l.args.periodIndex === 0)).toHaveLength(1);
    expect(logs.filter((l) => l.args.id === BigInt(broke!))).toHaveLength(0);
    expect(logs.filter((l) => l.transactionHash === receipt.transactionHash)).toHaveLength(3);

    // Charged again later (a retried activity): found through the contract's guard, nothing sent.
    expect(await port.charge(input(b!))).toEqual({ ...rb, alreadyCharged: true });
    // No subscriber named, no allowance read back.
    expect(ra).not.toHaveProperty('allowance');
    // The broke subscriber tops up: the same period is charged.
    await chain.mint(
      (
        await chain.pub.readContract({
          address: chain.subscriptionManagerV2,
          abi: subscriptionManagerAbi,
          functionName: 'getSubscription',
          args: [BigInt(broke!)],
        })
      ).subscriber,
      USDC(50),
    );
    expect(await port.charge(input(broke!))).toMatchObject({ ok: true, alreadyCharged: false });
  }, 120_000);
});

describe('allowances after a batch', () => {
  it("a chargeMany batch reads its subscribers' allowances left in one round trip, not one per charge", async () => {
    const payers = [newPayer(), newPayer(), newPayer()];
    const ids: string[] = [];
    for (const [n, payer] of payers.entries()) {
      await chain.mint(payer.address, USDC(100));
      // Different allowances, so each result must carry its own subscriber's.
      const log = await chain.enrol({ payer, amount: USDC(10), period: PERIOD, periods: 0, permitValue: USDC(30 + 10 * n) });
      ids.push(log.args.id.toString());
    }
    const now = new Date((await chain.chainNowMs()) - 1000).toISOString();
    const recorder = await startRpcRecorder(chain.anvil.rpcUrl);
    try {
      const port = await createViemSubscriptionChain(
        {
          test: {
            rpcUrl: recorder.url,
            operatorKey: DEV_ACCOUNTS.operator.privateKey,
            subscriptionManager: chain.subscriptionManagerV2,
            fromBlock: 0n,
            pollingIntervalMs: 50,
            chargeBatch: { windowMs: 1000, maxItems: 50 },
          },
        },
        { sql: db.sql },
      );
      const results = await Promise.all(
        ids.map((onChainId, n) =>
          port.charge({
            livemode: false,
            onChainId,
            periodIndex: 0,
            amount: USDC(10).toString(),
            periodStart: now,
            subscriber: payers[n]!.address,
            token: chain.deployed.token,
          }),
        ),
      );
      expect(new Set(results.map((r) => (r.ok ? r.txHash : '')))).toHaveProperty('size', 1);
      for (const [n, payer] of payers.entries()) {
        const left = await chain.pub.readContract({
          address: chain.deployed.token,
          abi: fiatTokenAbi,
          functionName: 'allowance',
          args: [payer.address, chain.subscriptionManagerV2],
        });
        expect(left).toBe(USDC(20 + 10 * n));
        expect(results[n]).toMatchObject({ ok: true, alreadyCharged: false, allowance: left.toString() });
      }
      // Every allowance read of the port, in one HTTP request (one JSON-RPC batch).
      const ALLOWANCE = toFunctionSelector('allowance(address,address)');
      const isAllowanceRead = (call: { method: string; params?: unknown[] }) =>
        call.method === 'eth_call' && String((call.params?.[0] as { data?: string } | undefined)?.data).startsWith(ALLOWANCE);
      const reads = recorder.requests.filter((calls) => calls.some(isAllowanceRead));
      expect(reads).toHaveLength(1);
      expect(reads[0]!.filter(isAllowanceRead)).toHaveLength(3);
    } finally {
      await recorder.close();
    }
  }, 120_000);
});

describe('charging at the period start', () => {
  it("a period that started after the latest block is charged at once, single and batched: simulated at the next block's time, not the latest block's", async () => {
    // A subscription whose first period starts 3 s after its enrolment block; then the chain stays
    // idle (automine: no block until a transaction comes) until the clock is past that start.
    const payers = [newPayer()];
    for (const payer of payers) await chain.mint(payer.address, USDC(100));
    const start = BigInt(Math.floor((await chain.chainNowMs()) / 1000)) + 3n;
    const ids: string[] = [];
    for (const payer of payers)
      ids.push((await chain.enrol({ payer, amount: USDC(10), period: PERIOD, periods: 0, trialEnd: start })).args.id.toString());
    while (Date.now() / 1000 < Number(start) + 1) await new Promise((r) => setTimeout(r, 200));
    expect((await chain.pub.getBlock()).timestamp).toBeLessThan(start);

    const periodStart = new Date(Number(start) * 1000).toISOString();
    const input = (onChainId: string): ChargeInput => ({
      livemode: false,
      onChainId,
      periodIndex: 0,
      amount: USDC(10).toString(),
      periodStart,
    });
    const portWith = (chargeBatch: false | { windowMs: number; maxItems: number }) =>
      createViemSubscriptionChain(
        {
          test: {
            rpcUrl: chain.anvil.rpcUrl,
            operatorKey: DEV_ACCOUNTS.operator.privateKey,
            subscriptionManager: chain.subscriptionManagerV2,
            fromBlock: 0n,
            pollingIntervalMs: 50,
            chargeBatch,
          },
        },
        { sql: db.sql },
      );
    // Alone: one `charge`.
    const single = await (await portWith(false)).charge(input(ids[0]!));
    expect(single).toMatchObject({ ok: true, alreadyCharged: false });
    expect(await chain.isCharged(ids[0]!, 0)).toBe(true);

    // Together: two more, due at a new start after another idle wait, in one `chargeMany`.
    const later = [newPayer(), newPayer()];
    for (const payer of later) await chain.mint(payer.address, USDC(100));
    const start2 = BigInt(Math.floor((await chain.chainNowMs()) / 1000)) + 3n;
    const batchIds: string[] = [];
    for (const payer of later)
      batchIds.push((await chain.enrol({ payer, amount: USDC(10), period: PERIOD, periods: 0, trialEnd: start2 })).args.id.toString());
    while (Date.now() / 1000 < Number(start2) + 1) await new Promise((r) => setTimeout(r, 200));
    expect((await chain.pub.getBlock()).timestamp).toBeLessThan(start2);
    const batched = await portWith({ windowMs: 500, maxItems: 10 });
    const at2 = (onChainId: string): ChargeInput => ({ ...input(onChainId), periodStart: new Date(Number(start2) * 1000).toISOString() });
    const results = await Promise.all(batchIds.map((id) => batched.charge(at2(id))));
    for (const result of results) expect(result).toMatchObject({ ok: true, alreadyCharged: false });
    // One chargeMany carried both.
    expect(new Set(results.map((r) => (r.ok ? r.txHash : '')))).toHaveProperty('size', 1);
  });
});
