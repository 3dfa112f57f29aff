// Several chains in one mode (issue 39): the indexer process follows each
// configured chain with a follower of its own, so cutting one chain's RPC (a
// TCP proxy partitioned in front of it) leaves the other indexed, /readyz says
// 200 `degraded` naming the cut chain, and the cut chain catches up once its
// RPC is back. A chain that is not what its configuration says (another chain
// id, no contracts) is refused at start with the variable to fix.
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestClient, createWalletClient, http, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { checkChain } from '../../src/chain/chain-check.js';
import { loadChainConfig } from '../../src/chain/config.js';
import { startAnvil, type AnvilInstance } from '../../src/chain/anvil.js';
import { devChainEnv, devFurtherChainEnv, type DevChain, type DevChainInfo } from '../../tools/dev/chain/dev-chain.js';
import { PROJECT_ROOT } from '../../tools/dev/temporal.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { SECOND_CHAIN_ID, settingsOf, sharedChain, startSecondChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

const chainA = sharedChain();
let chainB: DevChain;
let proxyB: TcpProxy;
let bare: AnvilInstance;
let db: TestDatabase;

beforeAll(async () => {
  [db, chainB, bare] = await Promise.all([createTestDatabase(), startSecondChain(), startAnvil({ chainId: 31339 })]);
  const { hostname, port } = new URL(chainB.info.rpcUrl);
  proxyB = await startTcpProxy({ host: hostname, port: Number(port) });
}, 120_000);
afterAll(async () => {
  await proxyB?.close();
  await Promise.all([chainB?.stop(), bare?.stop(), db?.drop()]);
});

/** Both chains as the processes see them: chain B behind the proxy, with a short RPC bound so a cut shows fast. */
function twoChainEnv(): Record<string, string> {
  return {
    ...devChainEnv(chainA),
    ...devFurtherChainEnv({ ...chainB.info, rpcUrl: `http://127.0.0.1:${proxyB.port}` }),
    [`CHAIN_TEST_${SECOND_CHAIN_ID}_RPC_TIMEOUT_MS`]: '1000',
    [`CHAIN_TEST_${SECOND_CHAIN_ID}_RPC_RETRY_COUNT`]: '0',
    CHAIN_TEST_POLL_INTERVAL_MS: '50',
  };
}

function startIndexer(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/indexer.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env, DATABASE_URL: db.url, TEMPORAL_ADDRESS: inject('temporalAddress'), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** An Approval event on `chain`'s token from a fresh account (no shared payer's nonce is touched). */
async function approvalOn(chain: DevChainInfo): Promise<Hex> {
  const account = privateKeyToAccount(generatePrivateKey());
  const definition = chainDefinition(chain.chainId, chain.rpcUrl);
  await createTestClient({ mode: 'anvil', chain: definition, transport: http(chain.rpcUrl) }).setBalance({
    address: account.address,
    value: 10n ** 18n,
  });
  const wallet = createWalletClient({ account, chain: definition, transport: http(chain.rpcUrl) });
  return wallet.writeContract({ address: chain.token, abi: fiatTokenAbi, functionName: 'approve', args: [account.address, 1n] });
}

async function indexed(chainId: number, transactionHash: Hex): Promise<boolean> {
  const rows = await db.sql`select 1 from chain_events where chain_id = ${chainId} and transaction_hash = ${transactionHash}`;
  return rows.length > 0;
}

async function until(what: string, timeoutMs: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(100);
  }
}

describe('an indexer per chain', () => {
  it('keeps indexing chain A while chain B is cut off, reports B degraded in /readyz, and catches B up when it is back', async () => {
    const env = twoChainEnv();
    const indexer = startIndexer(env);
    let app: TestApp | undefined;
    try {
      const chain = loadChainConfig(env);
      app = await createTestApp(db.sql, { chain, env: { READINESS_CHECK_TIMEOUT_MS: '1500' } });
      const readyz = async () => {
        const response = await app!.app.inject({ method: 'GET', url: '/readyz' });
        return { statusCode: response.statusCode, body: response.json() };
      };
      const beforeA = await approvalOn(chainA);
      const beforeB = await approvalOn(chainB.info);
      await until(
        'both chains are indexed',
        60_000,
        async () => (await indexed(chainA.chainId, beforeA)) && (await indexed(SECOND_CHAIN_ID, beforeB)),
      );
      const ready = await readyz();
      expect(ready.statusCode).toBe(200);
      expect(ready.body.status).toBe('ready');
      expect(ready.body.chains.map((c: { chainId: number; status: string }) => [c.chainId, c.status])).toEqual([
        [chainA.chainId, 'up'],
        [SECOND_CHAIN_ID, 'up'],
      ]);
      expect(ready.body.chains[1].indexedBlock).toMatch(/^[0-9]+$/);

      proxyB.partition();
      const onA = await approvalOn(chainA);
      const onB = await approvalOn(chainB.info); // sent straight to B's node: only the indexer is cut off
      await until('chain A is indexed while B is cut off', 30_000, () => indexed(chainA.chainId, onA));
      expect(await indexed(SECOND_CHAIN_ID, onB)).toBe(false);
      const degraded = await readyz();
      expect(degraded.statusCode).toBe(200);
      expect(degraded.body.status).toBe('degraded');
      expect(degraded.body.degraded).toEqual([`test mode chain ${SECOND_CHAIN_ID}`]);
      expect(degraded.body.chains[0]).toMatchObject({ mode: 'test', chainId: chainA.chainId, status: 'up' });
      expect(degraded.body.chains[1]).toMatchObject({ mode: 'test', chainId: SECOND_CHAIN_ID, status: 'down' });
      expect(JSON.stringify(degraded.body)).not.toContain(String(proxyB.port)); // no RPC URL

      proxyB.heal();
      await until('chain B catches up once its RPC is back', 60_000, () => indexed(SECOND_CHAIN_ID, onB));
      expect((await readyz()).body.status).toBe('ready');
      // Each chain its own lease and cursor.
      const leases = await db.sql<{ chainId: number }[]>`select chain_id::int as "chainId" from indexer_leases order by chain_id`;
      expect(leases.map((l) => l.chainId)).toEqual([chainA.chainId, SECOND_CHAIN_ID]);
      const cursors = await db.sql<{ chainId: number }[]>`select chain_id::int as "chainId" from indexer_checkpoints order by chain_id`;
      expect(cursors.map((c) => c.chainId)).toEqual([chainA.chainId, SECOND_CHAIN_ID]);
    } finally {
      proxyB.heal();
      await app?.close();
      indexer.child.kill('SIGTERM');
      await indexer.exited;
    }
  }, 180_000);

  it('finds a node of another chain and a chain without our contracts, naming the chain and the variable', async () => {
    const wrongId = await checkChain({ ...settingsOf(chainB.info), chainId: 31339, variablePrefix: 'CHAIN_TEST_31339_' });
    expect(wrongId).toEqual({
      kind: 'misconfigured',
      problems: [expect.stringContaining('test mode chain 31339: the node at CHAIN_TEST_31339_RPC_URL reports chain id 31338, not 31339')],
    });
    const empty = await checkChain({
      ...settingsOf(chainB.info),
      rpcUrl: bare.rpcUrl,
      chainId: 31339,
      variablePrefix: 'CHAIN_TEST_31339_',
    });
    expect(empty.kind).toBe('misconfigured');
    const problems = empty.kind === 'misconfigured' ? empty.problems : [];
    expect(problems[0]).toContain(`test mode chain 31339: no contract at ${chainB.info.token} (CHAIN_TEST_31339_TOKEN_ADDRESS`);
    expect(problems.some((p) => p.includes('CHAIN_TEST_31339_ESCROW_ADDRESS'))).toBe(true);
    expect(await checkChain(settingsOf(chainB.info))).toEqual({ kind: 'ok' });
  });

  it('refuses to start the indexer on a chain without the contracts, and says which variable to fix', async () => {
    const indexer = startIndexer({
      ...devChainEnv(chainA),
      CHAIN_TEST_CHAINS: '31339',
      CHAIN_TEST_31339_RPC_URL: bare.rpcUrl,
    });
    const code = await Promise.race([indexer.exited, sleep(40_000).then(() => 'still running' as const)]);
    if (code === 'still running') {
      indexer.child.kill('SIGKILL'); // an indexer that started anyway must not outlive the test
      await indexer.exited;
    }
    expect(code).toBe(1);
    expect(indexer.output()).toContain(`test mode chain 31339: no contract at ${chainA.token} (CHAIN_TEST_31339_TOKEN_ADDRESS`);
    expect(indexer.output()).toContain('npm run contracts:deploy');
    expect(indexer.output()).not.toContain(bare.rpcUrl);
  }, 60_000);
});
