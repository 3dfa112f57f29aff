// Agent jobs on a chain the merchant chooses (issue 39): two private anvils of one mode with the contracts at the
// same addresses, an indexer per chain with the agents' escrow hook, the api and the agentJob workflow. The agent
// wallet holds USDC on chain B only, so a job on B that ran anywhere else would fail for want of funds: it is
// funded, submitted, completed and paid out on B. A chain the mode lacks is refused and creates nothing; a job that
// names no chain runs on the mode's first.
import {
  type Address,
  type Hex,
  type PublicClient,
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  parseEther,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentIndexerHooks } from '../../src/agents/escrow.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import type { ChainConfig, ChainSettings } from '../../src/chain/config.js';
import { agenticCommerceEscrowAbi } from '../../src/chain/generated/contracts.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { createHookRegistry } from '../../src/indexer/hooks.js';
import { createIndexer } from '../../src/indexer/indexer.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { SECOND_CHAIN_ID, settingsOf, startPrivateChain, startSecondChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { until } from '../support/until.js';

let chainA: DevChain;
let chainB: DevChain;
let a: ChainSettings;
let b: ChainSettings;
let db: TestDatabase;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let wallet: Address;
const indexing = new AbortController();
let indexerRuns: Promise<void>[] = [];

const funder = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);
const vendor = privateKeyToAccount(DEV_ACCOUNTS.payers[1]!.privateKey);
const evaluator = privateKeyToAccount(DEV_ACCOUNTS.payers[2]!.privateKey);
const FUNDING = 500_000_000n; // 500 USDC, on chain B only
const AMOUNT = 25_000_000n; // 25 USDC

const publicOf = (chain: DevChain): PublicClient =>
  createPublicClient({
    chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
    transport: http(chain.info.rpcUrl),
    pollingInterval: 100,
  });
const walletOn = (chain: DevChain, account: typeof vendor) =>
  createWalletClient({ account, chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl), transport: http(chain.info.rpcUrl) });
const balanceOn = (chain: DevChain, address: Address) =>
  publicOf(chain).readContract({ address: chain.info.token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [address] });

beforeAll(async () => {
  [chainA, chainB] = await Promise.all([startPrivateChain(), startSecondChain()]);
  a = settingsOf(chainA.info, { pollIntervalMs: 100 });
  b = settingsOf(chainB.info, { pollIntervalMs: 100 });
  expect(b.chainId).toBe(SECOND_CHAIN_ID);
  expect(b.escrow).toBe(a.escrow);
  const chain: ChainConfig = { test: a, others: { test: [b] } };
  db = await createTestDatabase();
  temporal = await startDevServerWorker(db.sql, { chain });
  t = await createTestApp(db.sql, { temporal: temporal.client, taskQueue: temporal.taskQueue, chain });
  merchant = await seedMerchant(db.sql, 'Agent on two chains');
  // One indexer per chain, as the indexer process runs them.
  indexerRuns = [a, b].map((settings) =>
    createIndexer({
      sql: db.sql,
      settings,
      hooks: createHookRegistry(agentIndexerHooks(chain, { sql: db.sql })),
      temporal: temporal.client,
    }).run(indexing.signal),
  );

  wallet = (await api('GET', '/v1/agents/config')).json().agentWallet.address;
  // The merchant funds the agent wallet on chain B only (USDC and gas).
  await createTestClient({ mode: 'anvil', transport: http(chainB.info.rpcUrl) }).setBalance({ address: wallet, value: parseEther('10') });
  const hash = await walletOn(chainB, funder).writeContract({
    address: chainB.info.token,
    abi: fiatTokenAbi,
    functionName: 'transfer',
    args: [wallet, FUNDING],
  });
  await publicOf(chainB).waitForTransactionReceipt({ hash });
  await api('PATCH', '/v1/agents/config', { commerce: { approvedVendors: [vendor.address], requireHumanApprovalAboveUsdCents: 10_000 } });
}, 180_000);

afterAll(async () => {
  indexing.abort();
  await Promise.all(indexerRuns.map((run) => run.catch(() => undefined)));
  await t?.close();
  await temporal?.stop();
  await db?.drop();
  await Promise.all([chainA?.stop(), chainB?.stop()]);
});

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${merchant.secretKey}` }, ...(payload ? { payload } : {}) });

const jobIn = (id: string, status: string) =>
  until(
    async () => (await api('GET', `/v1/agents/jobs/${id}`)).json(),
    (job) => job.status === status || job.status === 'failed',
    `job ${id} to be ${status}`,
  );

async function escrowCallOnB(account: typeof vendor, functionName: 'submit' | 'complete', onchainJobId: string): Promise<Hex> {
  const hash = await walletOn(chainB, account).writeContract({
    address: chainB.info.escrow,
    abi: agenticCommerceEscrowAbi,
    functionName,
    args: [BigInt(onchainJobId), `0x${'22'.repeat(32)}`],
  });
  expect((await publicOf(chainB).waitForTransactionReceipt({ hash })).status).toBe('success');
  return hash;
}

const jobCount = async () =>
  (await db.sql<{ n: number }[]>`select count(*)::int as n from agent_jobs where merchant_id = ${merchant.merchantId}`)[0]!.n;

describe('agent jobs on the chain the merchant chooses', () => {
  it('runs a job on chain B from the agent wallet funded there: funded, submitted, completed and paid on B', async () => {
    const vendorBefore = { a: await balanceOn(chainA, vendor.address), b: await balanceOn(chainB, vendor.address) };
    const created = await api('POST', '/v1/agents/jobs', {
      vendorAddress: vendor.address,
      evaluatorAddress: evaluator.address,
      description: 'Translate the docs',
      amount: AMOUNT.toString(),
      currency: 'USDC',
      chainId: b.chainId,
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ status: 'approved', chainId: b.chainId });
    const id = created.json().id as string;

    const funded = await jobIn(id, 'funded');
    expect(funded).toMatchObject({ status: 'funded', chainId: b.chainId, escrowAddress: b.escrow });
    // The escrow's create and fund transactions are on chain B (chain A has never seen them).
    for (const hash of [funded.transactions.create, funded.transactions.fund] as Hex[]) {
      expect((await publicOf(chainB).getTransactionReceipt({ hash })).status).toBe('success');
      await expect(publicOf(chainA).getTransactionReceipt({ hash })).rejects.toThrow();
    }
    expect(await balanceOn(chainB, wallet)).toBe(FUNDING - AMOUNT);
    expect(await balanceOn(chainA, wallet)).toBe(0n);

    await escrowCallOnB(vendor, 'submit', funded.onchainJobId);
    await jobIn(id, 'submitted');
    await escrowCallOnB(evaluator, 'complete', funded.onchainJobId);
    const completed = await jobIn(id, 'completed');
    expect(completed.status).toBe('completed');
    // Paid out on B; nothing moved on A.
    expect(await balanceOn(chainB, vendor.address)).toBe(vendorBefore.b + AMOUNT);
    expect(await balanceOn(chainA, vendor.address)).toBe(vendorBefore.a);
  });

  it('refuses a chain the mode does not have and creates nothing; a job that names no chain is on the first', async () => {
    const before = await jobCount();
    const refused = await api('POST', '/v1/agents/jobs', {
      vendorAddress: vendor.address,
      description: 'Nowhere',
      amount: '1000000',
      currency: 'USDC',
      chainId: 424242,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'invalid_request', param: 'chainId' });
    expect(refused.json().error.message).toContain(`${a.chainId}, ${b.chainId}`);
    expect(await jobCount()).toBe(before);

    // Above the approval threshold, so it waits for a human and moves no money.
    const unnamed = await api('POST', '/v1/agents/jobs', {
      vendorAddress: vendor.address,
      description: 'Default chain',
      amount: '500000000',
      currency: 'USDC',
    });
    expect(unnamed.statusCode, unnamed.body).toBe(200);
    expect(unnamed.json()).toMatchObject({ status: 'proposed', chainId: a.chainId });
  });
});
