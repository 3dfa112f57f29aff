// An escrow job is funded exactly once even when the worker process dies between
// the on-chain funding and its record. The first worker is a separate process: the
// chain mines only when the test says (automine off), and the test holds the
// job's row lock once the on-chain job is recorded, so the worker's funding calls
// land on-chain while its final record (funded) waits on the lock; then the
// process is SIGKILLed. A second worker process takes the retried activity over:
// it finds the job funded on-chain and the fund transaction in the ledger, sends
// nothing, and records the job funded with that transaction.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  parseEther,
  parseEventLogs,
  type Address,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readEscrowJob } from '../../src/agents/escrow.js';
import { createAgentService } from '../../src/agents/service.js';
import { agenticCommerceEscrowAbi } from '../../src/chain/generated/contracts.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { DEV_SECRETS_KEY } from '../../src/config.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { createSecretBox } from '../../src/security/encryption.js';
import { seedMerchant, type SeededMerchant } from '../support/app.js';
import { startPrivateChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { until } from '../support/until.js';

let chain: DevChain;
let db: TestDatabase;
let client: Client;
let merchant: SeededMerchant;
let pub: PublicClient;
const taskQueue = `agent-crash-${randomBytes(4).toString('hex')}`;
const vendor = privateKeyToAccount(DEV_ACCOUNTS.payers[1]!.privateKey);
const testClient = () => createTestClient({ mode: 'anvil', transport: http(chain.info.rpcUrl) });

beforeAll(async () => {
  chain = await startPrivateChain();
  db = await createTestDatabase();
  pub = createPublicClient({
    chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
    transport: http(chain.info.rpcUrl),
    pollingInterval: 100,
  });
  client = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
  merchant = await seedMerchant(db.sql);
}, 120_000);

afterAll(async () => {
  await client?.connection.close();
  await db?.drop();
  await chain?.stop();
});

/** A worker in its own process on this file's task queue, with the chain settings of the private anvil. */
async function workerProcess(): Promise<{ child: ChildProcess; exited: Promise<unknown> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('../support/subscription-worker-process.ts', import.meta.url))],
    {
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        RPC_URL: chain.info.rpcUrl,
        CHAIN_ID: String(chain.info.chainId),
        TOKEN: chain.info.token,
        SUBSCRIPTION_MANAGER: chain.info.subscriptionManager,
        ESCROW: chain.info.escrow,
        OPERATOR_KEY: DEV_ACCOUNTS.operator.privateKey,
        TEMPORAL_ADDRESS: inject('temporalAddress'),
        TASK_QUEUE: taskQueue,
        WORKFLOW_BUNDLE_PATH: inject('workflowBundlePath'),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('worker-ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker process exited early (${code})`)));
  });
  return { child, exited };
}

const jobRow = (id: string) =>
  db.sql<{ status: string; onchainJobId: string | null; fundTransactionHash: string | null }[]>`
    select status, onchain_job_id::text as "onchainJobId", fund_transaction_hash as "fundTransactionHash" from agent_jobs where id = ${id}`.then(
    (r) => r[0]!,
  );
const balanceOf = (address: Address) =>
  pub.readContract({ address: chain.info.token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [address] });

describe('agent job funding across a killed worker', () => {
  // It once hung here: the createJob below needs a second connection while `lock` holds the pool's
  // only open one, and the client skipped the array-type read the library hands such a connection
  // over with (docs/decisions.md, "A reserve always gets its connection").
  it('a worker killed between the on-chain funding and its record: the job is funded once', async () => {
    const secretBox = createSecretBox(DEV_SECRETS_KEY);
    const service = createAgentService({ sql: db.sql, secretBox, events: { dispatch: async () => {} }, temporal: client, taskQueue });
    const scope = { merchantId: merchant.merchantId, livemode: false };
    const wallet = (await service.getConfig(scope)).agentWallet.address as Address;
    await service.updateConfig(scope, { commerce: { approvedVendors: [vendor.address] } });
    await testClient().setBalance({ address: wallet, value: parseEther('10') });
    const funder = createWalletClient({
      account: privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey),
      chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
      transport: http(chain.info.rpcUrl),
    });
    await pub.waitForTransactionReceipt({
      hash: await funder.writeContract({
        address: chain.info.token,
        abi: fiatTokenAbi,
        functionName: 'transfer',
        args: [wallet, 100_000_000n],
      }),
    });

    const first = await workerProcess();
    const lock = await db.sql.reserve();
    let locked = false;
    try {
      // From here on blocks are mined only by the test.
      await testClient().setAutomine(false);
      const job = await service.createJob(scope, {
        vendorAddress: vendor.address,
        description: 'Crash test',
        amount: '40000000',
        currency: 'USDC',
        expiresInSeconds: 86_400,
      });
      expect(job.status).toBe('approved');

      // createJob is sent; mine it, wait until the worker records the on-chain job, then hold the row.
      // The sent row is written before the broadcast, so a block is mined whenever the pool holds
      // something, not once: under load the transaction reaches the node after a single block.
      await until(
        () => db.sql`select 1 from chain_transactions where purpose like ${`escrow:%:${job.id}:create`}`,
        (r) => r.length === 1,
        'createJob sent',
      );
      const recorded = await until(
        async () => {
          const row = await jobRow(job.id);
          if (row.onchainJobId === null && (await testClient().getTxpoolStatus()).pending > 0) await testClient().mine({ blocks: 1 });
          return row;
        },
        (r) => r.onchainJobId !== null,
        'the on-chain job recorded',
      );
      await lock`begin`;
      await lock`select 1 from agent_jobs where id = ${job.id} for update`;
      locked = true;

      // Mine the budget, approve and fund transactions as the worker sends them, until the escrow is funded.
      const onchainId = BigInt(recorded.onchainJobId!);
      await until(
        async () => {
          await testClient().mine({ blocks: 1 });
          return (await readEscrowJob(pub, chain.info.escrow, onchainId)).statusName;
        },
        (status) => status === 'Funded',
        'the escrow funded on-chain',
      );
      // The worker's record of it waits on the lock.
      await until(
        () =>
          db.sql<
            { n: number }[]
          >`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.then(
            (r) => r[0]!.n,
          ),
        (n) => n >= 1,
        'the worker blocked on recording the funding',
      );
      expect((await jobRow(job.id)).status).toBe('approved');
      first.child.kill('SIGKILL');
      await first.exited;
    } finally {
      if (locked) await lock`rollback`;
      lock.release();
      await testClient().setAutomine(true);
      first.child.kill('SIGKILL');
    }

    // The record never happened: the job is still approved, though funded on-chain.
    const jobId = (await db.sql<{ id: string }[]>`select id from agent_jobs where merchant_id = ${merchant.merchantId}`)[0]!.id;
    expect((await jobRow(jobId)).status).toBe('approved');
    const walletAfterFunding = await balanceOf(wallet);

    // A new worker: the activity times out (heartbeat) and is retried there; it sends nothing new.
    const second = await workerProcess();
    try {
      const funded = await until(
        () => jobRow(jobId),
        (r) => r.status === 'funded',
        'the job recorded funded by the second worker',
        { intervalMs: 50 },
      );
      const fundRows = await db.sql<{ transactionHash: string; outcome: string | null }[]>`
        select transaction_hash as "transactionHash", outcome from chain_transactions where purpose like ${`escrow:%:${jobId}:fund`}`;
      expect(fundRows).toEqual([{ transactionHash: funded.fundTransactionHash, outcome: 'success' }]);
      const sent = await db.sql<
        { purpose: string }[]
      >`select purpose from chain_transactions where purpose like ${`escrow:%:${jobId}:%`} order by nonce`;
      expect(sent.map((r) => r.purpose.split(':').at(-1))).toEqual(['create', 'budget', 'fund']);

      // On-chain: one JobFunded for the job, the wallet debited once.
      const receipt = await pub.getTransactionReceipt({ hash: funded.fundTransactionHash as `0x${string}` });
      const fundedLogs = parseEventLogs({ abi: agenticCommerceEscrowAbi, logs: receipt.logs, eventName: 'JobFunded' });
      expect(fundedLogs).toHaveLength(1);
      const allFunded = await pub.getContractEvents({
        address: chain.info.escrow,
        abi: agenticCommerceEscrowAbi,
        eventName: 'JobFunded',
        fromBlock: 0n,
      });
      expect(allFunded.filter((l) => l.args.jobId === BigInt(funded.onchainJobId!))).toHaveLength(1);
      expect(await balanceOf(wallet)).toBe(walletAfterFunding);
      expect(walletAfterFunding).toBe(100_000_000n - 40_000_000n);
      const records = await db.sql`select 1 from agent_activity where job_id = ${jobId} and action_type = 'job_funded'`;
      expect(records).toHaveLength(1);
    } finally {
      await client.workflow
        .getHandle(jobId)
        .terminate('end of test')
        .catch(() => undefined);
      second.child.kill('SIGKILL');
      await second.exited;
    }
  }, 240_000);
});
