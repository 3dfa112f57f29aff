// The indexer on a private anvil (it snapshots, reverts and mines): confirmed
// ranges, reorg rewind, and a process stopped mid-stream that resumes without
// loss or duplicate, with one leader at a time.
import {
  type Address,
  type Hash,
  type PublicClient,
  type TestClient,
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agenticCommerceEscrowAbi } from '../../src/chain/generated/contracts.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import type { ChainSettings } from '../../src/chain/config.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { chainEventKey, createHookRegistry, hookPoints, type ChainEvent } from '../../src/indexer/hooks.js';
import { createIndexer, type Indexer } from '../../src/indexer/indexer.js';
import * as indexerRepo from '../../src/indexer/repo.js';
import { settingsOf, startPrivateChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';

let chain: DevChain;
let settings: ChainSettings;
let pub: PublicClient;
let testClient: TestClient;
const payer = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);

beforeAll(async () => {
  chain = await startPrivateChain();
  settings = settingsOf(chain.info);
  pub = createPublicClient({
    chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
    transport: http(chain.info.rpcUrl),
    pollingInterval: 50,
  });
  testClient = createTestClient({ mode: 'anvil', transport: http(chain.info.rpcUrl) });
});
afterAll(async () => {
  await chain?.stop();
});

const wallet = () =>
  createWalletClient({ account: payer, chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl), transport: http(chain.info.rpcUrl) });

async function transfer(to: Address, value: bigint): Promise<Hash> {
  const hash = await wallet().writeContract({ address: chain.info.token, abi: fiatTokenAbi, functionName: 'transfer', args: [to, value] });
  await pub.waitForTransactionReceipt({ hash });
  return hash;
}

async function catchUp(indexer: Indexer): Promise<void> {
  for (let i = 0; i < 1000; i++) if ((await indexer.step()).kind === 'idle') return;
  throw new Error('indexer did not catch up');
}

function recorder() {
  const seen: ChainEvent[] = [];
  const hooks = createHookRegistry([hookPoints.transferTo('record', async (event) => void seen.push(event))]);
  return { seen, hooks };
}

describe('indexer', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db?.drop());

  it('waits for the configured confirmations before it processes a block', async () => {
    const deep = { ...settings, confirmations: 3 };
    const { seen, hooks } = recorder();
    const indexer = createIndexer({ sql: db.sql, settings: deep, hooks });
    await catchUp(indexer);
    const hash = await transfer(DEV_ACCOUNTS.merchant.address, 11n);
    await catchUp(indexer);
    expect(seen.filter((e) => e.transactionHash === hash)).toHaveLength(0);
    await testClient.mine({ blocks: 2 });
    await catchUp(indexer);
    const hit = seen.filter((e) => e.transactionHash === hash);
    expect(hit).toHaveLength(1);
    expect(hit[0]!.args).toMatchObject({ from: payer.address, to: DEV_ACCOUNTS.merchant.address, value: '11' });
  });

  it('raises escrow job events through the escrowJob hook point', async () => {
    const jobs: ChainEvent[] = [];
    const indexer = createIndexer({
      sql: db.sql,
      settings,
      hooks: createHookRegistry([hookPoints.escrowJob('jobs', async (e) => void jobs.push(e))]),
    });
    await catchUp(indexer);
    const expiredAt = (await pub.getBlock()).timestamp + 86_400n;
    const hash = await wallet().writeContract({
      address: chain.info.escrow,
      abi: agenticCommerceEscrowAbi,
      functionName: 'createJob',
      args: [DEV_ACCOUNTS.merchant.address, DEV_ACCOUNTS.operator.address, expiredAt, 'index me'],
    });
    await pub.waitForTransactionReceipt({ hash });
    await catchUp(indexer);
    const created = jobs.filter((e) => e.transactionHash === hash);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ contract: 'escrow', eventName: 'JobCreated' });
    expect(created[0]!.args).toMatchObject({
      client: payer.address,
      provider: DEV_ACCOUNTS.merchant.address,
      expiredAt: expiredAt.toString(),
    });
  });

  it('follows a reorg: rewinds to the fork point, marks the orphaned event removed, takes the new one', async () => {
    const { seen, hooks } = recorder();
    const indexer = createIndexer({ sql: db.sql, settings, hooks });
    await catchUp(indexer);
    const snapshot = await testClient.snapshot();
    const orphan = await transfer(DEV_ACCOUNTS.merchant.address, 21n);
    await catchUp(indexer);
    expect(seen.map((e) => e.transactionHash)).toContain(orphan);

    await testClient.revert({ id: snapshot });
    const replacement = await transfer(DEV_ACCOUNTS.operator.address, 22n);
    const beforeMine = await pub.getBlockNumber();
    await testClient.mine({ blocks: 2 });
    // anvil answers anvil_mine before eth_blockNumber shows the new head: wait for it, or the
    // indexer may rightly stop at the older head.
    for (let i = 0; i < 100 && (await pub.getBlockNumber()) < beforeMine + 2n; i++) await new Promise((r) => setTimeout(r, 20));
    const results = [];
    for (let i = 0; i < 100; i++) {
      const r = await indexer.step();
      results.push(r.kind);
      if (r.kind === 'idle') break;
    }
    expect(results).toContain('rewound');

    const ref = { chainId: settings.chainId, livemode: false };
    const events = await indexerRepo.listEvents(db.sql, ref);
    const orphaned = events.filter((e) => e.transactionHash === orphan);
    expect(orphaned).toHaveLength(1);
    expect(orphaned[0]!.removedAt).toBeInstanceOf(Date);
    const kept = events.filter((e) => e.transactionHash === replacement);
    expect(kept).toHaveLength(1);
    expect(kept[0]!.removedAt).toBeNull();
    expect(seen.filter((e) => e.transactionHash === replacement)).toHaveLength(1);
    const checkpoint = await indexerRepo.findCheckpoint(db.sql, ref);
    expect(checkpoint!.blockHash).toBe((await pub.getBlock({ blockNumber: checkpoint!.blockNumber })).hash);
    expect(checkpoint!.blockNumber, `steps: ${results.join(',')}`).toBe(await pub.getBlockNumber());
  });
});

describe('indexer stopped mid-stream', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db?.drop());

  it('resumes from its checkpoint without loss or duplicate, one leader at a time', async () => {
    const recipient = privateKeyToAccount(`0x${'42'.repeat(32)}`).address;
    const hashes: Hash[] = [];
    for (let i = 0; i < 20; i++) hashes.push(await transfer(recipient, BigInt(100 + i)));
    const ours = (e: ChainEvent) => e.eventName === 'Transfer' && e.args.to === recipient;

    // Instance A: small batches; it "dies" in the middle of dispatching its 7th event (after the
    // range was committed, before that event was marked dispatched).
    const handled = new Map<string, number>();
    const count = (e: ChainEvent) => handled.set(chainEventKey(e), (handled.get(chainEventKey(e)) ?? 0) + 1);
    const stopA = new AbortController();
    let calls = 0;
    const hooksA = createHookRegistry([
      hookPoints.transferTo('a', async (e) => {
        if (!ours(e)) return;
        if (++calls === 7) {
          stopA.abort();
          throw new Error('simulated crash');
        }
        count(e);
      }),
    ]);
    await createIndexer({ sql: db.sql, settings, hooks: hooksA, batchSize: 3 }).run(stopA.signal);
    expect(handled.size).toBe(6);

    // Instance B takes over from the checkpoint; C starts while B leads and must do nothing.
    const stopB = new AbortController();
    const stopC = new AbortController();
    const cSaw: ChainEvent[] = [];
    let bStarted!: () => void;
    const bLeads = new Promise<void>((resolve) => (bStarted = resolve));
    const hooksB = createHookRegistry([
      hookPoints.transferTo('b', async (e) => {
        bStarted();
        if (!ours(e)) return;
        count(e);
        if ([...handled.values()].reduce((a, b) => a + b, 0) >= 20) stopB.abort();
      }),
    ]);
    const hooksC = createHookRegistry([hookPoints.transferTo('c', async (e) => void cSaw.push(e))]);
    const runB = createIndexer({ sql: db.sql, settings, hooks: hooksB, batchSize: 3 }).run(stopB.signal);
    await bLeads;
    const runC = createIndexer({ sql: db.sql, settings, hooks: hooksC, batchSize: 3 }).run(stopC.signal);
    await runB;
    stopC.abort();
    await runC;

    expect(cSaw).toHaveLength(0);
    expect(handled.size).toBe(20);
    expect([...handled.values()].every((n) => n === 1)).toBe(true);
    const rows = await db.sql<{ n: number; undispatched: number }[]>`
      select count(*)::int as n, count(*) filter (where dispatched_at is null)::int as undispatched
      from chain_events where event_name = 'Transfer' and transaction_hash in ${db.sql(hashes)}`;
    expect(rows[0]).toEqual({ n: 20, undispatched: 0 });
  });
});
