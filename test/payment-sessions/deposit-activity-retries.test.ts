// The deposit activities when they are retried or race each other, as after a worker dies: they run
// as the worker runs them (an activity context, the real ledger, chain and database), without the
// indexer, so the test decides when each one runs.
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { type Address, type Hash, createWalletClient, erc20Abi, getAddress, http, parseEventLogs } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDepositActivities, type DepositActivities, type SweepStep } from '../../activities/deposits.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { createEventDispatcher } from '../../src/events/dispatch.js';
import { newId } from '../../src/ids.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import * as deposits from '../../src/payment-sessions/deposits-repo.js';
import { seedMerchant, type SeededMerchant } from '../support/app.js';
import { startPaymentsStack, type PaymentsStack } from '../support/payments-stack.js';

const AMOUNT = 700_000n;
const payout = getAddress(DEV_ACCOUNTS.merchant.address);
const payer = privateKeyToAccount(DEV_ACCOUNTS.payers[1]!.privateKey);

let stack: PaymentsStack;
let merchant: SeededMerchant;
let activities: DepositActivities;
// The claim conflict makes the activity fail once on purpose: keep its warning out of the report.
const activity = new MockActivityEnvironment(undefined, { logger: new DefaultLogger('ERROR', () => {}) });

beforeAll(async () => {
  stack = await startPaymentsStack();
  merchant = await seedMerchant(stack.db.sql, 'Sweep claims merchant');
  await setPayoutAddress(stack.db.sql, merchant.merchantId, payout);
  const events = createEventDispatcher(stack.temporal.client, stack.temporal.taskQueue, () => {});
  activities = createDepositActivities({
    sql: stack.db.sql,
    events,
    chain: { test: stack.settings },
    publicBaseUrl: 'http://localhost:3000',
  });
}, 120_000);
afterAll(async () => stack?.stop());

const balanceOf = (who: Address) =>
  stack.pub.readContract({ address: stack.settings.token, abi: erc20Abi, functionName: 'balanceOf', args: [who] });

/** A session paid by a plain transfer to its deposit address, and the deposit the indexer would record for it. */
async function paidDeposit(): Promise<deposits.DepositRow> {
  const res = await stack.t.app.inject({
    method: 'POST',
    url: '/v1/payment-sessions',
    headers: { authorization: `Bearer ${merchant.secretKey}` },
    payload: { amount: AMOUNT.toString() },
  });
  expect(res.statusCode, res.body).toBe(200);
  const session = res.json<{ id: string; deposit: { address: Address } }>();
  const { chainId, rpcUrl } = stack.chain.info;
  const wallet = createWalletClient({ account: payer, chain: chainDefinition(chainId, rpcUrl), transport: http(rpcUrl) });
  const hash = await wallet.writeContract({
    address: stack.settings.token,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [session.deposit.address, AMOUNT],
    gas: 200_000n,
  });
  const receipt = await waitForDevReceipt(stack.pub, hash);
  const [log] = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs });
  return deposits.upsertDeposit(stack.db.sql, {
    id: newId('deposit'),
    paymentSessionId: session.id,
    merchantId: merchant.merchantId,
    livemode: false,
    chainId: String(chainId),
    token: getAddress(stack.settings.token),
    depositAddress: getAddress(session.deposit.address),
    payoutAddress: payout,
    fromAddress: payer.address,
    amount: AMOUNT.toString(),
    transactionHash: hash,
    logIndex: log!.logIndex,
    blockNumber: receipt.blockNumber.toString(),
  });
}

/** What the deposit sweep workflow does: claim and send, then follow, until the deposit is swept. */
async function sweep(depositId: string): Promise<void> {
  for (;;) {
    const step = (await activity.run(activities.sendDepositSweep, depositId)) as SweepStep;
    if (step.kind === 'done') return;
    if (step.kind !== 'settle') throw new Error(`deposit ${depositId}: sweep ${step.kind}`);
    await activity.run(activities.settleDepositSweep, step.purpose);
  }
}

/** How much the recorded sweep transaction moved out of the deposit's address to the payout address. */
async function movedBySweep(deposit: deposits.DepositRow): Promise<bigint> {
  const receipt = await stack.pub.getTransactionReceipt({ hash: deposit.sweepTransactionHash as Hash });
  return parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs })
    .filter((log) => log.args.from === deposit.depositAddress && log.args.to === payout)
    .reduce((sum, log) => sum + log.args.value, 0n);
}

describe('crediting a session again', () => {
  it('answers paid when the first attempt committed the crediting and its worker died before reporting it', async () => {
    const deposit = await paidDeposit();
    const first = await activity.run(activities.creditSessionDeposits, deposit.paymentSessionId);
    expect(first).toEqual({ paid: true, transactionHash: deposit.transactionHash, amountReceived: AMOUNT.toString(), amountExcess: '0' });
    // The retry: nothing is pending any more, and the session still has to be completed by its workflow.
    const retried = await activity.run(activities.creditSessionDeposits, deposit.paymentSessionId);
    expect(retried).toEqual(first);
    // Swept, so the next test's claims find only its own deposits.
    await sweep(deposit.id);
  });
});

describe('claiming deposits for a sweep', () => {
  // A deposit's claim found its own row held by another claim (row locked), so it put only the other
  // deposits under its purpose, whose transaction was then sent and mined: the deposit's retry must not
  // join that purpose.
  it('a deposit held by another claim is never marked swept by a transaction sent without it', async () => {
    const held = await paidDeposit();
    const other = await paidDeposit();
    const payoutBefore = await balanceOf(payout);

    // Another claim holds the deposit's row: its own claim takes only the other deposit, and the activity fails to retry.
    const holder = await stack.db.sql.reserve();
    try {
      await holder`begin`;
      await holder`select 1 from deposits where id = ${held.id} for update`;
      await expect(activity.run(activities.sendDepositSweep, held.id)).rejects.toThrow(/being claimed by another sweep/);
    } finally {
      await holder`rollback`;
      holder.release();
    }
    const claimed = (await deposits.findDeposit(stack.db.sql, other.id))!;
    expect(claimed.sweepPurpose).not.toBeNull();
    expect((await deposits.findDeposit(stack.db.sql, held.id))!.sweepPurpose).toBeNull();

    // The other deposit's sweep is sent and mined; then the held deposit's retry runs.
    await sweep(other.id);
    await sweep(held.id);

    const [heldAfter, otherAfter] = await Promise.all([
      deposits.findDeposit(stack.db.sql, held.id),
      deposits.findDeposit(stack.db.sql, other.id),
    ]);
    expect(heldAfter!.sweepPurpose).not.toBe(otherAfter!.sweepPurpose);
    for (const deposit of [heldAfter!, otherAfter!]) {
      expect(deposit.sweptAt).not.toBeNull();
      expect(await movedBySweep(deposit)).toBe(AMOUNT);
      expect(await balanceOf(deposit.depositAddress as Address)).toBe(0n);
    }
    expect((await balanceOf(payout)) - payoutBefore).toBe(2n * AMOUNT);
  });
});
