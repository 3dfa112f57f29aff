// The indexer as a process (src/indexer.ts): SIGKILLed mid-stream and started
// again, it resumes from its checkpoint; SIGTERM stops it cleanly.
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPublicClient, createTestClient, http, type Log } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { devChainEnv } from '../../tools/dev/chain/dev-chain.js';
import { PROJECT_ROOT } from '../../tools/dev/temporal.js';
import { sharedChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';

const chain = sharedChain();
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.drop());

/** Starts src/indexer.ts; `leading` resolves when it logs that it leads. */
function startIndexer(): { child: ChildProcess; leading: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/indexer.ts'], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      ...devChainEnv(chain),
      DATABASE_URL: db.url,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      INDEXER_BATCH_SIZE: '2',
      CHAIN_TEST_POLL_INTERVAL_MS: '50',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const leading = new Promise<void>((resolve) =>
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('indexer is the leader')) resolve();
    }),
  );
  return { child, leading };
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

async function checkpoint(): Promise<bigint> {
  const [row] = await db.sql<{ n: string }[]>`select block_number::text as n from indexer_checkpoints where livemode = false`;
  return row ? BigInt(row.n) : -1n;
}

describe('indexer process', () => {
  it('resumes after SIGKILL without loss or duplicate and stops cleanly on SIGTERM', async () => {
    const pub = createPublicClient({ chain: chainDefinition(chain.chainId, chain.rpcUrl), transport: http(chain.rpcUrl) });
    // More blocks than a few 2-block steps, so the kill lands mid-stream.
    await createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) }).mine({ blocks: 40 });
    const head = await pub.getBlockNumber();
    const logs = (await pub.getLogs({
      address: [chain.token, chain.subscriptionManager, chain.escrow],
      fromBlock: BigInt(chain.deployBlock),
      toBlock: head,
    })) as Log[];
    expect(logs.length).toBeGreaterThan(0);
    const { child: first } = startIndexer();
    const firstExit = exited(first);
    const target = BigInt(chain.deployBlock) + (head - BigInt(chain.deployBlock)) / 2n;
    for (let i = 0; i < 600 && (await checkpoint()) < target; i++) await sleep(50);
    first.kill('SIGKILL');
    await firstExit;
    const killedAt = await checkpoint();
    expect(killedAt).toBeGreaterThanOrEqual(0n);

    expect(killedAt).toBeLessThan(head);
    const { child: second, leading } = startIndexer();
    const secondExit = exited(second);
    await leading;
    for (let i = 0; i < 2000 && (await checkpoint()) < head; i++) await sleep(50);
    expect(await checkpoint()).toBeGreaterThanOrEqual(head);
    second.kill('SIGTERM');
    expect(await secondExit).toBe(0);

    const rows = await db.sql<{ transactionHash: string; logIndex: number }[]>`
      select transaction_hash as "transactionHash", log_index as "logIndex" from chain_events
      where block_number <= ${head.toString()} and removed_at is null`;
    const stored = new Set(rows.map((r) => `${r.transactionHash}:${r.logIndex}`));
    expect(rows).toHaveLength(stored.size);
    expect(stored).toEqual(new Set(logs.map((l) => `${l.transactionHash}:${l.logIndex}`)));
    const [pending] = await db.sql<{ n: number }[]>`select count(*)::int as n from chain_events where dispatched_at is null`;
    expect(pending!.n).toBe(0);
  }, 150_000);

  // Issue 36 item 9: the event records carry no mode, so two modes on one chain would drop each other's events.
  it('refuses to start when test and live mode are configured on the same chain id, and says why', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/indexer.ts'], {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        ...devChainEnv(chain),
        CHAIN_LIVE_RPC_URL: chain.rpcUrl,
        CHAIN_LIVE_CHAIN_ID: String(chain.chainId),
        CHAIN_LIVE_TOKEN_ADDRESS: chain.token,
        CHAIN_LIVE_SUBSCRIPTION_MANAGER_ADDRESS: chain.subscriptionManager,
        CHAIN_LIVE_ESCROW_ADDRESS: chain.escrow,
        DATABASE_URL: db.url,
        TEMPORAL_ADDRESS: inject('temporalAddress'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exit = exited(child);
    const code = await Promise.race([exit, sleep(40_000).then(() => 'still running' as const)]);
    if (code === 'still running') {
      child.kill('SIGKILL'); // an indexer that started anyway must not outlive the test
      await exit;
    }
    expect(code).not.toBe('still running');
    expect(code).not.toBe(0);
    expect(output).toContain(`test and live mode are both on chain id ${chain.chainId}`);
    expect(output).not.toContain('indexer is the leader');
  }, 60_000);
});
