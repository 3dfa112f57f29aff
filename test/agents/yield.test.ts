// autoConvertToYield (docs/agents.md, Cashflow) on a private anvil with the dev
// ERC-4626 vault deployed at its fixed address, run by agentDailyWorkflow on a real
// worker (Temporal dev server): the agent wallet's funds above the reserve go into
// the vault, a re-run of the same day sends nothing again, and a raised reserve
// takes funds back. Every call is one recorded transaction under its purpose.
import { randomBytes } from 'node:crypto';
import { erc4626Abi, getAddress, parseEther, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as agentRepo from '../../src/agents/repo.js';
import { defaultAgentConfig, ensureAgentWallet, mergeAgentConfig } from '../../src/agents/service.js';
import type { UpdateAgentConfigBody } from '../../src/agents/schemas.js';
import type { ChainConfig } from '../../src/chain/config.js';
import { DEV_YIELD_VAULT_ADDRESS } from '../../src/chain/test-mode-defaults.js';
import { DEV_SECRETS_KEY } from '../../src/config.js';
import { devChainSettings } from '../../tools/dev/chain/settings.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { ensureDevYieldVault } from '../../tools/dev/yield-vault.js';
import { createSecretBox } from '../../src/security/encryption.js';
import { agentDailyWorkflow } from '../../workflows/agent-daily.js';
import { seedMerchant, type SeededMerchant } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startTestChain, type TestChain } from '../support/subscriptions.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';

const USDC = (n: number) => BigInt(n) * 1_000_000n;

let db: TestDatabase;
let chain: TestChain;
let temporal: DevServerWorker;
let merchant: SeededMerchant;
let wallet: Address;

beforeAll(async () => {
  db = await createTestDatabase();
  chain = await startTestChain(db.sql);
  const vault = await ensureDevYieldVault({
    rpcUrl: chain.anvil.rpcUrl,
    token: chain.deployed.token,
    funderKey: DEV_ACCOUNTS.deployer.privateKey,
  });
  expect(vault).toBe(DEV_YIELD_VAULT_ADDRESS);
  // A second call finds it and deploys nothing.
  expect(
    await ensureDevYieldVault({ rpcUrl: chain.anvil.rpcUrl, token: chain.deployed.token, funderKey: DEV_ACCOUNTS.deployer.privateKey }),
  ).toBe(vault);
  const config: ChainConfig = {
    test: {
      ...devChainSettings({
        rpcUrl: chain.anvil.rpcUrl,
        chainId: chain.anvil.chainId,
        token: chain.deployed.token,
        subscriptionManager: chain.deployed.subscriptionManager,
        escrow: chain.deployed.escrow,
      }),
      yieldVault: vault,
    },
  };
  temporal = await startDevServerWorker(db.sql, { chain: config });
  merchant = await seedMerchant(db.sql, 'Yield merchant');
  wallet = getAddress(
    (await ensureAgentWallet(db.sql, createSecretBox(DEV_SECRETS_KEY), { merchantId: merchant.merchantId, livemode: false })).address,
  );
  await chain.testClient.setBalance({ address: wallet, value: parseEther('1') });
  await chain.mint(wallet, USDC(80));
}, 240_000);

afterAll(async () => {
  await temporal?.stop();
  await chain?.stop();
  await db?.drop();
});

async function configure(patch: UpdateAgentConfigBody): Promise<void> {
  const scope = { merchantId: merchant.merchantId, livemode: false };
  const current = await agentRepo.ensureConfig(db.sql, scope, defaultAgentConfig());
  await agentRepo.updateConfig(db.sql, scope, mergeAgentConfig(current.config, patch));
}

const runDay = async (day: string) =>
  temporal.client.workflow.execute(agentDailyWorkflow, {
    workflowId: `agent-daily-${randomBytes(4).toString('hex')}`,
    taskQueue: temporal.taskQueue,
    args: [{ day }],
  });
const inVault = () =>
  chain.pub.readContract({ address: DEV_YIELD_VAULT_ADDRESS, abi: erc4626Abi, functionName: 'maxWithdraw', args: [wallet] });
const yieldTransactions = () =>
  db.sql<
    { purpose: string; outcome: string | null }[]
  >`select purpose, outcome from chain_transactions where purpose like 'yield:%' order by nonce`;
const feed = () =>
  db.sql<{ actionType: string; outcome: string; transactionId: string | null; details: Record<string, unknown> }[]>`
    select action_type as "actionType", outcome, transaction_id as "transactionId", details from agent_activity
    where merchant_id = ${merchant.merchantId} and action_type like 'yield_%' order by id`;

describe('autoConvertToYield', () => {
  it('parks what is above the reserve in the vault once a day, and takes back what the reserve lacks', async () => {
    // Off: nothing moves.
    await configure({ enabledCapabilities: ['cashflow'], cashflow: { autoConvertToYield: false, minimumLiquidReserveCents: 5_000 } });
    expect((await runDay('2026-01-01')).cashflow).toEqual([expect.objectContaining({ yield: { action: 'disabled' } })]);
    expect(await chain.balanceOf(wallet)).toBe(USDC(80));

    // On, reserve $50: the 30 USDC above it go into the vault.
    await configure({ cashflow: { autoConvertToYield: true } });
    const first = (await runDay('2026-01-02')).cashflow[0]!.yield;
    expect(first).toMatchObject({
      action: 'deposit',
      amount: USDC(30).toString(),
      liquid: USDC(50).toString(),
      inVault: USDC(30).toString(),
    });
    expect(await chain.balanceOf(wallet)).toBe(USDC(50));
    expect(await inVault()).toBe(USDC(30));
    expect(
      await chain.pub.readContract({ address: DEV_YIELD_VAULT_ADDRESS, abi: erc4626Abi, functionName: 'balanceOf', args: [wallet] }),
    ).toBe(USDC(30));

    // The same day again (an overlapping or re-run schedule): the recorded deposit is followed, nothing new is sent or recorded.
    const again = (await runDay('2026-01-02')).cashflow[0]!.yield;
    expect(again).toMatchObject({
      action: 'deposit',
      amount: USDC(30).toString(),
      transactionId: (first as { transactionId: string }).transactionId,
    });
    expect(await inVault()).toBe(USDC(30));

    // Reserve raised to $70: 20 USDC come back from the vault.
    await configure({ cashflow: { minimumLiquidReserveCents: 7_000 } });
    const back = (await runDay('2026-01-03')).cashflow[0]!.yield;
    expect(back).toMatchObject({
      action: 'withdraw',
      amount: USDC(20).toString(),
      liquid: USDC(70).toString(),
      inVault: USDC(10).toString(),
    });
    expect(await chain.balanceOf(wallet)).toBe(USDC(70));

    // Balanced: nothing to do.
    expect((await runDay('2026-01-04')).cashflow[0]!.yield).toEqual({
      action: 'none',
      liquid: USDC(70).toString(),
      inVault: USDC(10).toString(),
    });

    const vault = DEV_YIELD_VAULT_ADDRESS;
    expect(await yieldTransactions()).toEqual([
      { purpose: `yield:${vault}:allowance:${wallet}`, outcome: 'success' },
      { purpose: `yield:${vault}:${wallet}:2026-01-02:deposit`, outcome: 'success' },
      { purpose: `yield:${vault}:${wallet}:2026-01-03:withdraw`, outcome: 'success' },
    ]);
    const records = await feed();
    expect(records.map((r) => [r.actionType, r.outcome])).toEqual([
      ['yield_deposited', 'succeeded'],
      ['yield_withdrawn', 'succeeded'],
    ]);
    expect(records[0]!.transactionId).toBe((first as { transactionId: string }).transactionId);
    expect(records[1]!.details).toMatchObject({
      day: '2026-01-03',
      amount: USDC(20).toString(),
      liquidAfter: USDC(70).toString(),
      inVaultAfter: USDC(10).toString(),
    });
  }, 180_000);
});
