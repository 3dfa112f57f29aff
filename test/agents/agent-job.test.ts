// Escrow jobs end to end with every real part: the api, the agentJob workflow on
// the Temporal dev server (a worker on its own task queue), the indexer with the
// agents' escrow hook, and the ERC-8183 escrow on a private anvil. The vendor and
// the evaluator are anvil accounts acting on-chain themselves.
import {
  type Address,
  type Hex,
  type PublicClient,
  type TestClient,
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  parseEther,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentActivities } from '../../activities/agents.js';
import { createAgentService } from '../../src/agents/service.js';
import { agentIndexerHooks } from '../../src/agents/escrow.js';
import { agenticCommerceEscrowAbi } from '../../src/chain/generated/contracts.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import type { ChainSettings } from '../../src/chain/config.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { DEV_SECRETS_KEY } from '../../src/config.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { createHookRegistry } from '../../src/indexer/hooks.js';
import { createIndexer } from '../../src/indexer/indexer.js';
import { createSecretBox } from '../../src/security/encryption.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, startPrivateChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { recordHistory } from '../support/histories.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';

let chain: DevChain;
let settings: ChainSettings;
let db: TestDatabase;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let pub: PublicClient;
let testClient: TestClient;
let wallet: Address;
const indexing = new AbortController();
let indexerRun: Promise<void>;

const funder = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);
const vendor = privateKeyToAccount(DEV_ACCOUNTS.payers[1]!.privateKey);
const evaluator = privateKeyToAccount(DEV_ACCOUNTS.payers[2]!.privateKey);
const FUNDING = 1_000_000_000n; // 1,000 USDC

beforeAll(async () => {
  chain = await startPrivateChain();
  settings = settingsOf(chain.info, { pollIntervalMs: 100 });
  pub = createPublicClient({
    chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
    transport: http(chain.info.rpcUrl),
    pollingInterval: 100,
  });
  testClient = createTestClient({ mode: 'anvil', transport: http(chain.info.rpcUrl) });
  db = await createTestDatabase();
  temporal = await startDevServerWorker(db.sql, { chain: { test: settings } });
  t = await createTestApp(db.sql, { temporal: temporal.client, taskQueue: temporal.taskQueue, chain: { test: settings } });
  merchant = await seedMerchant(db.sql);
  const indexer = createIndexer({
    sql: db.sql,
    settings,
    hooks: createHookRegistry(agentIndexerHooks({ test: settings }, { sql: db.sql })),
    temporal: temporal.client,
  });
  indexerRun = indexer.run(indexing.signal);

  // The agent wallet exists from the first configuration read; the merchant funds it (USDC and gas).
  wallet = (await api('GET', '/v1/agents/config')).json().agentWallet.address;
  expect(wallet).toMatch(/^0x[0-9a-fA-F]{40}$/);
  await fundWallet(wallet);
  await api('PATCH', '/v1/agents/config', { commerce: { approvedVendors: [vendor.address], requireHumanApprovalAboveUsdCents: 10_000 } });
}, 120_000);
afterAll(async () => {
  indexing.abort();
  await indexerRun?.catch(() => undefined);
  await t?.close();
  await temporal?.stop();
  await db?.drop();
  await chain?.stop();
});

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, key?: string) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${key ?? merchant.secretKey}` }, ...(payload ? { payload } : {}) });

const walletOf = (account: typeof vendor) =>
  createWalletClient({ account, chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl), transport: http(chain.info.rpcUrl) });

async function fundWallet(address: Address): Promise<void> {
  await testClient.setBalance({ address, value: parseEther('10') });
  const hash = await walletOf(funder).writeContract({
    address: chain.info.token,
    abi: fiatTokenAbi,
    functionName: 'transfer',
    args: [address, FUNDING],
  });
  await pub.waitForTransactionReceipt({ hash });
}

const balanceOf = (address: Address) =>
  pub.readContract({ address: chain.info.token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [address] });

async function escrowCall(account: typeof vendor, functionName: 'submit' | 'complete' | 'reject', onchainJobId: string): Promise<Hex> {
  const hash = await walletOf(account).writeContract({
    address: chain.info.escrow,
    abi: agenticCommerceEscrowAbi,
    functionName,
    args: [BigInt(onchainJobId), `0x${'11'.repeat(32)}`],
  });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return hash;
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, tries = 600): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < tries; i++) {
    last = await read();
    if (done(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
}

const jobIn = (id: string, status: string) =>
  eventually(
    async () => (await api('GET', `/v1/agents/jobs/${id}`)).json(),
    (job) => job.status === status,
    `job ${id} to be ${status}`,
  );

const eventsOf = (type: string, jobId: string) => db.sql`select id from events where type = ${type} and data->'object'->>'id' = ${jobId}`;

describe('agent jobs on the escrow', () => {
  it('auto-approves and funds a job, the vendor submits, the evaluator completes: escrow released to the vendor', async () => {
    const vendorBefore = await balanceOf(vendor.address);
    const walletBefore = await balanceOf(wallet);
    const created = await api('POST', '/v1/agents/jobs', {
      vendorAddress: vendor.address,
      evaluatorAddress: evaluator.address,
      description: 'Summarise Q3',
      amount: '25000000',
      currency: 'USDC',
    });
    expect(created.statusCode).toBe(200);
    expect(created.json().status).toBe('approved');
    const id = created.json().id as string;

    const funded = await jobIn(id, 'funded');
    expect(funded).toMatchObject({ chainId: chain.info.chainId, escrowAddress: chain.info.escrow, approvalReasons: [] });
    expect(funded.onchainJobId).toMatch(/^\d+$/);
    expect(funded.transactions.create).toMatch(/^0x[0-9a-f]{64}$/);
    expect(funded.transactions.fund).toMatch(/^0x[0-9a-f]{64}$/);
    const onchain = await pub.readContract({
      address: chain.info.escrow,
      abi: agenticCommerceEscrowAbi,
      functionName: 'getJob',
      args: [BigInt(funded.onchainJobId)],
    });
    expect(onchain).toMatchObject({
      client: wallet,
      provider: vendor.address,
      evaluator: evaluator.address,
      budget: 25_000_000n,
      status: 1,
    });
    expect(await balanceOf(wallet)).toBe(walletBefore - 25_000_000n);

    const submitHash = await escrowCall(vendor, 'submit', funded.onchainJobId);
    const submitted = await jobIn(id, 'submitted');
    expect(submitted.transactions.submit).toBe(submitHash);
    expect(submitted.deliverable).toBe(`0x${'11'.repeat(32)}`);

    const completeHash = await escrowCall(evaluator, 'complete', funded.onchainJobId);
    const completed = await jobIn(id, 'completed');
    expect(completed.transactions.settle).toBe(completeHash);
    expect(await balanceOf(vendor.address)).toBe(vendorBefore + 25_000_000n);
    expect(await eventsOf('agent.job_completed', id)).toHaveLength(1);
    expect(await temporal.client.workflow.getHandle(id).result()).toBe('completed');

    const feed = (await api('GET', `/v1/agents/activity?jobId=${id}`)).json();
    expect(feed.data.map((a: { actionType: string }) => a.actionType)).toEqual([
      'job_completed',
      'job_submitted',
      'job_funded',
      'job_approved',
    ]);
    const fundedRecord = feed.data.find((a: { actionType: string }) => a.actionType === 'job_funded');
    expect(fundedRecord.transactionId).toBe(funded.transactions.fund);
    const byTx = (await api('GET', `/v1/agents/activity?transactionId=${completeHash}&capability=commerce`)).json();
    expect(byTx.data).toHaveLength(1);
    const actions = await db.sql`select id from events where type = 'agent.action_executed' and data->'object'->>'jobId' = ${id}`;
    expect(actions).toHaveLength(4);
    await recordHistory(temporal.client.workflow.getHandle(id), 'agent-job', 'auto-approved-completed');

    // The indexer calls hooks at least once: the same log again, after the workflow closed, changes nothing.
    const [hook] = agentIndexerHooks({ test: settings }, { sql: db.sql, temporal: temporal.client });
    const receipt = await pub.getTransactionReceipt({ hash: completeHash });
    const log = receipt.logs.find((l) => l.address.toLowerCase() === chain.info.escrow.toLowerCase())!;
    await hook!.handle(
      {
        chainId: chain.info.chainId,
        livemode: false,
        contract: 'escrow',
        address: chain.info.escrow,
        eventName: 'JobCompleted',
        args: { jobId: funded.onchainJobId, evaluator: evaluator.address, reason: `0x${'11'.repeat(32)}` },
        blockNumber: receipt.blockNumber,
        blockHash: receipt.blockHash,
        transactionHash: completeHash,
        logIndex: log.logIndex,
      },
      {},
    );
    expect(await eventsOf('agent.job_completed', id)).toHaveLength(1);
    expect((await api('GET', `/v1/agents/jobs/${id}`)).json().status).toBe('completed');
  }, 120_000);

  it('proposes a job above the threshold, a human approves it; rejected after submission it is disputed and refunded', async () => {
    const walletBefore = await balanceOf(wallet);
    const created = (
      await api('POST', '/v1/agents/jobs', {
        vendorAddress: vendor.address,
        evaluatorAddress: evaluator.address,
        description: 'Audit',
        amount: '150000000',
        currency: 'USDC',
      })
    ).json();
    expect(created).toMatchObject({ status: 'proposed', approvalReasons: ['amount_at_or_above_threshold'] });
    expect(await eventsOf('agent.job_proposed', created.id)).toHaveLength(1);
    // Nothing moves on-chain before the approval.
    await new Promise((r) => setTimeout(r, 500));
    expect((await api('GET', `/v1/agents/jobs/${created.id}`)).json()).toMatchObject({ status: 'proposed', onchainJobId: null });

    expect((await api('POST', `/v1/agents/jobs/${created.id}/approve`)).json().status).toBe('approved');
    const funded = await jobIn(created.id, 'funded');
    expect(await balanceOf(wallet)).toBe(walletBefore - 150_000_000n);

    await escrowCall(vendor, 'submit', funded.onchainJobId);
    await jobIn(created.id, 'submitted');
    const rejectHash = await escrowCall(evaluator, 'reject', funded.onchainJobId);
    const disputed = await jobIn(created.id, 'disputed');
    expect(disputed.transactions.settle).toBe(rejectHash);
    expect(await balanceOf(wallet)).toBe(walletBefore);
    expect(await eventsOf('agent.job_disputed', created.id)).toHaveLength(1);
    expect(await eventsOf('agent.job_completed', created.id)).toHaveLength(0);
    expect(await temporal.client.workflow.getHandle(created.id).result()).toBe('disputed');
    await recordHistory(temporal.client.workflow.getHandle(created.id), 'agent-job', 'approved-disputed');
  }, 120_000);

  it('with the agent wallet as evaluator, the API completes a submitted job and rejects a funded one; other states are refused', async () => {
    const vendorBefore = await balanceOf(vendor.address);
    const job = (
      await api('POST', '/v1/agents/jobs', {
        vendorAddress: vendor.address,
        description: 'Translate',
        amount: '30000000',
        currency: 'USDC',
      })
    ).json();
    expect(job.evaluatorAddress).toBe(wallet);
    const funded = await jobIn(job.id, 'funded');
    // Completing before the vendor submitted is refused and changes nothing.
    const early = await api('POST', `/v1/agents/jobs/${job.id}/complete`, {});
    expect(early.statusCode).toBe(403);
    expect(early.json().error).toMatchObject({ code: 'session_invalid_state', param: 'id' });
    await escrowCall(vendor, 'submit', funded.onchainJobId);
    await jobIn(job.id, 'submitted');

    const answered = await api('POST', `/v1/agents/jobs/${job.id}/complete`, { reason: 'Looks right' });
    expect(answered.statusCode).toBe(200);
    const completed = await jobIn(job.id, 'completed');
    expect(completed.transactions.settle).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await balanceOf(vendor.address)).toBe(vendorBefore + 30_000_000n);
    const onchain = await pub.readContract({
      address: chain.info.escrow,
      abi: agenticCommerceEscrowAbi,
      functionName: 'getJob',
      args: [BigInt(funded.onchainJobId)],
    });
    expect(onchain.status).toBe(3); // Completed
    expect(await eventsOf('agent.job_completed', job.id)).toHaveLength(1);
    expect(await temporal.client.workflow.getHandle(job.id).result()).toBe('completed');
    // The transaction was sent once, under the job's `complete` purpose.
    const sent = await db.sql`select count(*)::int as n from chain_transactions where purpose like ${'%' + job.id + ':complete'}`;
    expect(sent[0]!.n).toBe(1);
    // A second decision on a final job is refused.
    expect((await api('POST', `/v1/agents/jobs/${job.id}/reject`, {})).statusCode).toBe(403);

    const walletBefore = await balanceOf(wallet);
    const other = (
      await api('POST', '/v1/agents/jobs', {
        vendorAddress: vendor.address,
        description: 'Cancelled work',
        amount: '20000000',
        currency: 'USDC',
      })
    ).json();
    await jobIn(other.id, 'funded');
    expect(await balanceOf(wallet)).toBe(walletBefore - 20_000_000n);
    expect((await api('POST', `/v1/agents/jobs/${other.id}/reject`, { reason: 'Not needed any more' })).statusCode).toBe(200);
    await jobIn(other.id, 'rejected');
    expect(await balanceOf(wallet)).toBe(walletBefore);
    expect(await temporal.client.workflow.getHandle(other.id).result()).toBe('rejected');
  }, 120_000);

  it('refuses evaluator decisions on a job whose evaluator is someone else', async () => {
    const job = (
      await api('POST', '/v1/agents/jobs', {
        vendorAddress: vendor.address,
        evaluatorAddress: evaluator.address,
        description: 'External review',
        amount: '1000000',
        currency: 'USDC',
      })
    ).json();
    const funded = await jobIn(job.id, 'funded');
    const refused = await api('POST', `/v1/agents/jobs/${job.id}/reject`, {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('session_invalid_state');
    expect((await api('GET', `/v1/agents/jobs/${job.id}`)).json().status).toBe('funded');
    // Its own evaluator decides on-chain; the job ends through the indexer (and leaves no escrow behind for later tests).
    await escrowCall(evaluator, 'reject', funded.onchainJobId);
    await jobIn(job.id, 'rejected');
  }, 120_000);

  it('claims the refund of a funded job once its deadline passed', async () => {
    const walletBefore = await balanceOf(wallet);
    const created = (
      await api('POST', '/v1/agents/jobs', {
        vendorAddress: vendor.address,
        evaluatorAddress: evaluator.address,
        description: 'Never delivered',
        amount: '3000000',
        currency: 'USDC',
        expiresInSeconds: 10,
      })
    ).json();
    const funded = await jobIn(created.id, 'funded');
    expect(await balanceOf(wallet)).toBe(walletBefore - 3_000_000n);
    expect(Date.parse(funded.expiresAt)).toBeGreaterThan(Date.now());
    // Anvil mines only on transactions: a block now and then stands for a live chain's steady blocks.
    const expired = await eventually(
      async () => {
        await testClient.mine({ blocks: 1 });
        return (await api('GET', `/v1/agents/jobs/${created.id}`)).json();
      },
      (j) => j.status === 'expired',
      'the refund',
      400,
    );
    expect(expired.transactions.refund).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await balanceOf(wallet)).toBe(walletBefore);
    const onchain = await pub.readContract({
      address: chain.info.escrow,
      abi: agenticCommerceEscrowAbi,
      functionName: 'getJob',
      args: [BigInt(funded.onchainJobId)],
    });
    expect(onchain.status).toBe(5); // Expired
    const feed = (await api('GET', `/v1/agents/activity?jobId=${created.id}&actionType=job_refunded`)).json();
    expect(feed.data).toHaveLength(1);
    expect(await temporal.client.workflow.getHandle(created.id).result()).toBe('expired');
    await recordHistory(temporal.client.workflow.getHandle(created.id), 'agent-job', 'funded-expired-refunded');
  }, 120_000);

  it('fails a job the agent wallet cannot pay for, escrowing nothing', async () => {
    const poor = await seedMerchant(db.sql, 'Poor');
    const poorWallet = (await api('GET', '/v1/agents/config', undefined, poor.secretKey)).json().agentWallet.address as Address;
    await testClient.setBalance({ address: poorWallet, value: parseEther('1') }); // gas, but no USDC
    await api('PATCH', '/v1/agents/config', { commerce: { approvedVendors: [vendor.address] } }, poor.secretKey);
    const created = (
      await api(
        'POST',
        '/v1/agents/jobs',
        { vendorAddress: vendor.address, description: 'Unpaid', amount: '1000000', currency: 'USDC' },
        poor.secretKey,
      )
    ).json();
    expect(created.status).toBe('approved');
    const failed = await eventually(
      async () => (await api('GET', `/v1/agents/jobs/${created.id}`, undefined, poor.secretKey)).json(),
      (j) => j.status === 'failed',
      'the job to fail',
    );
    expect(failed.failureReason).toContain('fund');
    // USDC's own refusal, bubbled up through the escrow's transferFrom, is named.
    expect(failed.failureCode).toBe('insufficient_funds');
    expect(failed.transactions.fund).toBeNull();
    const jobFailed = await db.sql<
      { data: { object: { status: string; failureCode: string } } }[]
    >`select data from events where type = 'agent.job_failed' and data->'object'->>'id' = ${created.id}`;
    expect(jobFailed.map((e) => e.data.object)).toMatchObject([{ status: 'failed', failureCode: 'insufficient_funds' }]);
    expect(await temporal.client.workflow.getHandle(created.id).result()).toBe('failed');
    const feed = (await api('GET', `/v1/agents/activity?jobId=${created.id}&outcome=failed`, undefined, poor.secretKey)).json();
    expect(feed.data.map((a: { actionType: string }) => a.actionType)).toEqual(['job_failed']);
  }, 120_000);

  describe('escrow calls the token refuses', () => {
    /** As the issuer would: the blacklister and the pauser dev accounts call the real token. */
    async function asIssuer(
      role: 'usdcBlacklister' | 'usdcPauser',
      functionName: 'blacklist' | 'unBlacklist' | 'pause' | 'unpause',
      args: readonly [Address] | readonly [],
    ) {
      const account = privateKeyToAccount(DEV_ACCOUNTS[role].privateKey);
      const hash = await walletOf(account as typeof vendor).writeContract({
        address: chain.info.token,
        abi: fiatTokenAbi,
        functionName,
        args,
      } as never);
      expect((await pub.waitForTransactionReceipt({ hash })).status).toBe('success');
    }

    it('a blacklisted agent wallet: the job fails with payer_blacklisted and agent.job_failed, nothing escrowed', async () => {
      const walletBefore = await balanceOf(wallet);
      await asIssuer('usdcBlacklister', 'blacklist', [wallet]);
      try {
        const created = (
          await api('POST', '/v1/agents/jobs', {
            vendorAddress: vendor.address,
            evaluatorAddress: evaluator.address,
            description: 'Blocked',
            amount: '2000000',
            currency: 'USDC',
          })
        ).json();
        expect(created.status).toBe('approved');
        const failed = await jobIn(created.id, 'failed');
        expect(failed).toMatchObject({ failureCode: 'payer_blacklisted', transactions: { fund: null } });
        expect(failed.failureReason).toMatch(/blocked by the USDC issuer/);
        expect(await eventsOf('agent.job_failed', created.id)).toHaveLength(1);
        expect(await temporal.client.workflow.getHandle(created.id).result()).toBe('failed');
      } finally {
        await asIssuer('usdcBlacklister', 'unBlacklist', [wallet]);
      }
      expect(await balanceOf(wallet)).toBe(walletBefore);
    }, 120_000);

    it('a paused token: the job waits approved (no failure, no event) and is funded once the issuer resumes', async () => {
      const walletBefore = await balanceOf(wallet);
      await asIssuer('usdcPauser', 'pause', []);
      let id: string;
      try {
        const created = (
          await api('POST', '/v1/agents/jobs', {
            vendorAddress: vendor.address,
            evaluatorAddress: evaluator.address,
            description: 'Paused',
            amount: '3000000',
            currency: 'USDC',
          })
        ).json();
        id = created.id;
        // Long enough for the funding activity to meet the pause and be retried.
        await new Promise((r) => setTimeout(r, 5_000));
        const waiting = (await api('GET', `/v1/agents/jobs/${id}`)).json();
        expect(waiting).toMatchObject({ status: 'approved', failureCode: null, transactions: { fund: null } });
        expect(await eventsOf('agent.job_failed', id)).toHaveLength(0);
        expect(await balanceOf(wallet)).toBe(walletBefore);
      } finally {
        await asIssuer('usdcPauser', 'unpause', []);
      }
      const funded = await jobIn(id, 'funded');
      expect(funded.transactions.fund).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await balanceOf(wallet)).toBe(walletBefore - 3_000_000n);
    }, 180_000);
  });

  it('funds once when the funding activity runs again (a worker killed between funding and recording, and a retry racing it)', async () => {
    // A merchant whose job workflow never runs (no Temporal in its service): the test plays the worker.
    const other = await seedMerchant(db.sql, 'Crashy');
    const secretBox = createSecretBox(DEV_SECRETS_KEY);
    const service = createAgentService({ sql: db.sql, secretBox, events: { dispatch: async () => {} }, taskQueue: 'nobody-listens' });
    const scope = { merchantId: other.merchantId, livemode: false };
    const otherWallet = (await service.getConfig(scope)).agentWallet.address as Address;
    await fundWallet(otherWallet);
    await service.updateConfig(scope, { commerce: { approvedVendors: [vendor.address] } });
    const job = await service.createJob(scope, {
      vendorAddress: vendor.address,
      evaluatorAddress: evaluator.address,
      description: 'Once',
      amount: '7000000',
      currency: 'USDC',
      expiresInSeconds: 3600,
    });
    expect(job.status).toBe('approved');

    const activities = createAgentActivities({ sql: db.sql, events: { dispatch: async () => {} }, chain: { test: settings } });
    // Two attempts at once (a retry racing an attempt the server believes dead).
    const [a, b] = await Promise.all([activities.fundAgentJob({ jobId: job.id }), activities.fundAgentJob({ jobId: job.id })]);
    expect([a.status, b.status]).toEqual(['funded', 'funded']);
    const fundedRow = await service.getJob(scope, job.id);

    // The worker "died" after the chain funded the job but before the job was recorded funded.
    await db.sql`update agent_jobs set status = 'approved', funded_at = null, fund_transaction_hash = null where id = ${job.id}`;
    await db.sql`delete from agent_activity where job_id = ${job.id} and action_type = 'job_funded'`;
    const again = await activities.fundAgentJob({ jobId: job.id });
    expect(again.status).toBe('funded');

    const sent = await db.sql<{ purpose: string }[]>`select purpose from chain_transactions where address = ${otherWallet} order by nonce`;
    const escrow = chain.info.escrow;
    expect(sent.map((r) => r.purpose).sort()).toEqual(
      [
        `escrow:${escrow}:${job.id}:create`,
        `escrow:${escrow}:${job.id}:budget`,
        `escrow:${escrow}:allowance:${otherWallet}`,
        `escrow:${escrow}:${job.id}:fund`,
      ].sort(),
    );
    expect(await pub.getTransactionCount({ address: otherWallet })).toBe(4);
    expect(await balanceOf(otherWallet)).toBe(FUNDING - 7_000_000n);
    const count = await pub.readContract({ address: escrow, abi: agenticCommerceEscrowAbi, functionName: 'jobCount' });
    const created = await db.sql`select count(*)::int as n from agent_jobs where onchain_job_id is not null and id = ${job.id}`;
    expect(created[0]!.n).toBe(1);
    expect(BigInt(fundedRow.onchainJobId!)).toBeLessThanOrEqual(count);
    const funded = await db.sql`select id from agent_activity where job_id = ${job.id} and action_type = 'job_funded'`;
    expect(funded).toHaveLength(1);
  }, 120_000);
});
