// Subscriptions on two chains of one mode (issue 39), on two anvils (chain ids 31337 and 31338, the
// contracts at the same addresses), the time-skipping server and a real database: an enrolment on
// chain B is recorded with chain B and charged there by chain B's operator sender and batcher, while
// an enrolment on chain A (the same on-chain id on the other chain) is charged on A; neither chain's
// ledger sees the other's charge. An enrolment on B naming a contract, operator or chain we do not
// know is ignored, as on A.
import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { onSubscriptionCreatedOnChain, type SubscriptionChainEventDeps } from '../../src/subscriptions/chain-events.js';
import { ChainModeNotConfiguredError } from '../../src/subscriptions/chain.js';
import { onChainPeriodSecondsV2 } from '../../src/subscriptions/periods.js';
import type { TestDatabase } from '../support/db.js';
import { SECOND_CHAIN_ID } from '../support/chain.js';
import { startSubscriptionStack, type SubscriptionStack } from '../support/subscription-stack.js';
import { alignClocks, newPayer, type TestChain } from '../support/subscriptions.js';

const USDC = (n: number) => BigInt(n) * 1_000_000n;
const MONTH_PERIOD = BigInt(onChainPeriodSecondsV2('monthly', 1));

let stack: SubscriptionStack;
let db: TestDatabase;
let env: TestWorkflowEnvironment;
let chainA: TestChain;
let chainB: TestChain;

beforeAll(async () => {
  stack = await startSubscriptionStack({
    merchantName: 'Two-chain merchant',
    plan: { name: 'Monthly', amount: USDC(10) },
    secondChain: true,
  });
  ({ db, env, chain: chainA } = stack);
  chainB = stack.second!.chain;
}, 180_000);

afterAll(() => stack?.stop());

/** A funded customer enrolled on `chain` for one period of the plan, at the workflow's time. */
async function enrolOn(chain: TestChain, deps: SubscriptionChainEventDeps) {
  await alignClocks(env, chain);
  const payer = newPayer();
  await chain.mint(payer.address, USDC(100));
  const log = await chain.enrol({ payer, amount: USDC(10), period: MONTH_PERIOD, periods: 1 });
  const created = await onSubscriptionCreatedOnChain(deps, log);
  if (created.outcome === 'ignored') throw new Error(`enrolment ignored: ${created.reason}`);
  return { log, subscriptionId: created.subscriptionId };
}

const subscriptionRow = async (id: string) =>
  (await db.sql<{ chainId: string }[]>`select chain_id::text as "chainId" from subscriptions where id = ${id}`)[0]!;
const charge0 = async (id: string) =>
  (
    await db.sql<{ status: string; txHash: Hex | null; chainId: string }[]>`
    select status, tx_hash as "txHash", chain_id::text as "chainId" from subscription_charges
    where subscription_id = ${id} and period_index = 0`
  )[0]!;
/** The operator's charge transactions the ledger holds for a chain (chargeMany batches and single charges). */
const chargeTransactions = (chainId: number) =>
  db.sql<{ hash: string }[]>`
    select transaction_hash as hash from chain_transactions
    where chain_id = ${chainId} and (purpose like 'charge:%' or purpose like 'chargeMany:%')`;

describe('subscriptions on two chains of a mode', () => {
  it('an enrolment on chain B is recorded and charged on chain B, one on chain A on A: neither chain sends the other’s charge', async () => {
    const taskQueue = `two-chains-${randomBytes(4).toString('hex')}`;
    const deps = stack.chainEventDeps(taskQueue);
    const onA = await enrolOn(chainA, deps);
    const onB = await enrolOn(chainB, deps);
    expect(onB.log.chainId).toBe(SECOND_CHAIN_ID);
    // Both chains are fresh: the two subscriptions may share an on-chain id, which only the chain tells apart.
    expect(await subscriptionRow(onA.subscriptionId)).toEqual({ chainId: String(chainA.anvil.chainId) });
    expect(await subscriptionRow(onB.subscriptionId)).toEqual({ chainId: String(SECOND_CHAIN_ID) });
    const ledgerA = (await chargeTransactions(chainA.anvil.chainId)).length;

    const worker = await stack.newWorker(taskQueue);
    await worker.runUntil(async () => {
      expect(await env.client.workflow.getHandle(onB.subscriptionId).result()).toBe('completed');
      expect(await env.client.workflow.getHandle(onA.subscriptionId).result()).toBe('completed');
    });

    const chargedB = await charge0(onB.subscriptionId);
    expect(chargedB).toMatchObject({ status: 'succeeded', chainId: String(SECOND_CHAIN_ID) });
    expect((await chainB.pub.getTransactionReceipt({ hash: chargedB.txHash! })).status).toBe('success');
    await expect(chainA.pub.getTransactionReceipt({ hash: chargedB.txHash! })).rejects.toThrow();
    expect(await chainB.isCharged(onB.log.args.id.toString(), 0)).toBe(true);

    const chargedA = await charge0(onA.subscriptionId);
    expect(chargedA).toMatchObject({ status: 'succeeded', chainId: String(chainA.anvil.chainId) });
    expect((await chainA.pub.getTransactionReceipt({ hash: chargedA.txHash! })).status).toBe('success');
    await expect(chainB.pub.getTransactionReceipt({ hash: chargedA.txHash! })).rejects.toThrow();

    // Chain A's operator ledger holds A's one charge, never B's; B's holds B's.
    const hashesA = (await chargeTransactions(chainA.anvil.chainId)).map((r) => r.hash);
    expect(hashesA).toHaveLength(ledgerA + 1);
    expect(hashesA).toContain(chargedA.txHash);
    expect(hashesA).not.toContain(chargedB.txHash);
    expect((await chargeTransactions(SECOND_CHAIN_ID)).map((r) => r.hash)).toEqual([chargedB.txHash]);
  }, 180_000);

  it('the port never sends a charge to another chain than the one named: an unconfigured chain is an error, not the default', async () => {
    const port = stack.second!.subscriptionChain;
    await expect(port.isCharged({ livemode: false, chainId: 31_339, onChainId: '1', periodIndex: 0 })).rejects.toThrow(
      ChainModeNotConfiguredError,
    );
    await expect(
      port.charge({
        livemode: true,
        chainId: SECOND_CHAIN_ID,
        onChainId: '1',
        periodIndex: 0,
        amount: '1',
        periodStart: new Date().toISOString(),
      }),
    ).rejects.toThrow(ChainModeNotConfiguredError);
  });

  it("a stranger's enrolment on chain B (another contract, another operator, a chain we do not have) is ignored as on chain A", async () => {
    const deps = stack.chainEventDeps(`strangers-${randomBytes(4).toString('hex')}`);
    await alignClocks(env, chainB);
    const payer = newPayer();
    await chainB.mint(payer.address, USDC(100));
    const log = await chainB.enrol({ payer, amount: USDC(10), period: MONTH_PERIOD, periods: 1 });
    const stranger = newPayer().address;
    expect(await onSubscriptionCreatedOnChain(deps, { ...log, address: stranger })).toEqual({
      outcome: 'ignored',
      reason: 'unknown_contract',
    });
    expect(await onSubscriptionCreatedOnChain(deps, { ...log, args: { ...log.args, operator: stranger } })).toEqual({
      outcome: 'ignored',
      reason: 'foreign_operator',
    });
    expect(await onSubscriptionCreatedOnChain(deps, { ...log, chainId: 31_339 })).toEqual({
      outcome: 'ignored',
      reason: 'unknown_contract',
    });
    expect(await onSubscriptionCreatedOnChain(deps, { ...log, livemode: true })).toEqual({
      outcome: 'ignored',
      reason: 'unknown_contract',
    });
    const rows = await db.sql`select id from subscriptions where subscriber_address = ${payer.address.toLowerCase()}`;
    expect(rows).toHaveLength(0);
  });
});
