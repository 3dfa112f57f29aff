// Deposit benchmark: N payment sessions (default 20) paid by plain ERC-20 transfers to their deposit
// addresses on a fresh anvil mining a block every second, through the real api (inject), the real
// indexer (in this process, with the deposit hooks) and the worker in its own process on a Temporal
// dev server. Transfers go out one every BENCH_GAP_MS (default 250 ms) from the dev payers. Prints:
// - block -> deposit seen and block -> session completed, p50/p99 (the block's time is when this
//   process first saw its number, polling every 25 ms; seen/completed are the database's timestamps);
// - sweeps: how many transactions, deposits per transaction, deposits swept per second;
// - gas per swept deposit (forwarder deploy + sweep in one factory call): batched, ten sent at once
//   (one block, so one sweep usually holds all ten; issue 37's target is 65k each) and one deposit alone.
// Every deposit must be swept once: the payout address up by exactly the sum, forwarders empty.
//
//   npx tsx bench/deposits.ts [count]      (BENCH_OUT=path appends the result table to a file)
import { appendFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { pino } from 'pino';
import { type Address, type Hash, createPublicClient, createWalletClient, erc20Abi, http } from 'viem';
import { nonceManager, privateKeyToAccount } from 'viem/accounts';
import { buildApp } from '../src/app.js';
import { createKeyAuthenticator, issueKey } from '../src/api-keys/service.js';
import { SCOPES } from '../src/api-keys/scopes.js';
import { chainDefinition } from '../src/chain/chain-definition.js';
import { loadConfig } from '../src/config.js';
import { createSql } from '../src/db/client.js';
import { devChainEnv, startDevChain } from '../tools/dev/chain/dev-chain.js';
import { waitForDevReceipt } from '../tools/dev/chain/dev-receipts.js';
import { devChainSettings } from '../tools/dev/chain/settings.js';
import { DEV_ACCOUNTS } from '../tools/dev/chain/test-accounts.js';
import { startTemporalDevServerOnFreePorts, temporalBinaries } from '../tools/dev/temporal.js';
import { createEventDispatcher } from '../src/events/dispatch.js';
import { createHookRegistry } from '../src/indexer/hooks.js';
import { createIndexer } from '../src/indexer/indexer.js';
import { createMerchant } from '../src/merchants/service.js';
import { DEPOSIT_FACTORY_V2_ADDRESS } from '../src/chain/deposits/deposit-contracts-v2.js';
import { depositForwarderFactoryV2Abi } from '../src/chain/generated/contracts.js';
import { depositAddressOf, depositIdOf } from '../src/chain/deposits/deposit-address.js';
import { depositIndexerHooks } from '../src/payment-sessions/deposit-hooks.js';
import { benchDatabase, startWorkerProcess } from './support.js';

const COUNT = Number(process.argv[2] ?? 20);
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 250);
const AMOUNT = 1_000_000n;
const log = (line: string) => console.log(`[bench] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const stops: Array<() => Promise<unknown>> = [];
try {
  const db = await benchDatabase();
  stops.push(db.stop);
  const temporalServer = await startTemporalDevServerOnFreePorts({ cli: temporalBinaries(log).cli });
  stops.push(temporalServer.stop);
  const chain = await startDevChain({ rpcUrl: '', blockTime: 1 });
  stops.push(chain.stop);
  const settings = { ...devChainSettings({ ...chain.info, startBlock: BigInt(chain.info.deployBlock) }), pollIntervalMs: 100 };
  log(
    `anvil ${chain.info.rpcUrl} (1-second blocks, ${settings.confirmations} confirmation(s)), Temporal ${temporalServer.address}, ${COUNT} deposits`,
  );

  const sql = createSql(db.url, { max: 20 });
  stops.push(() => sql.end({ timeout: 5 }));
  const taskQueue = `bench-deposits-${Date.now()}`;
  const worker = await startWorkerProcess({
    NODE_ENV: 'development',
    DATABASE_URL: db.url,
    TEMPORAL_ADDRESS: temporalServer.address,
    TEMPORAL_TASK_QUEUE: taskQueue,
    ...devChainEnv(chain.info),
    CHAIN_TEST_POLL_INTERVAL_MS: String(settings.pollIntervalMs),
  });
  stops.push(worker.stop);
  const client = new Client({ connection: await Connection.connect({ address: temporalServer.address }) });
  stops.push(() => client.connection.close());
  const config = { ...loadConfig({ DATABASE_URL: db.url, PORT: '0', TEMPORAL_TASK_QUEUE: taskQueue }), chain: { test: settings } };
  const app = await buildApp({ config, sql, temporal: client, keys: createKeyAuthenticator(sql), logger: pino({ level: 'silent' }) });
  await app.ready();
  stops.push(() => app.close());
  const events = createEventDispatcher(client, taskQueue, () => {});
  const hooks = createHookRegistry(
    depositIndexerHooks({ sql, events, temporal: client, taskQueue, publicBaseUrl: 'http://localhost:3000' }),
  );
  const indexerStop = new AbortController();
  const indexerRun = createIndexer({ sql, settings, hooks, temporal: client }).run(indexerStop.signal);
  stops.push(async () => {
    indexerStop.abort();
    await indexerRun.catch(() => undefined);
  });

  const merchant = await createMerchant(sql, { name: 'Bench deposits' });
  const payout = DEV_ACCOUNTS.merchant.address as Address;
  await sql`update merchants set payout_address = ${payout} where id = ${merchant.id}`;
  const { secret } = await issueKey(sql, { merchantId: merchant.id, livemode: false, kind: 'secret', scopes: SCOPES, actor: 'bench' });
  const createSession = async (): Promise<{ id: string; address: Address }> => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/payment-sessions',
      headers: { authorization: `Bearer ${secret}` },
      payload: { amount: AMOUNT.toString() },
    });
    if (res.statusCode !== 200) throw new Error(`session refused: ${res.body}`);
    const body = res.json() as { id: string; deposit: { address: Address } };
    return { id: body.id, address: body.deposit.address };
  };

  const viemChain = chainDefinition(chain.info.chainId, chain.info.rpcUrl);
  const pub = createPublicClient({ chain: viemChain, transport: http(chain.info.rpcUrl), pollingInterval: 50 });
  const balanceOf = (who: Address) =>
    pub.readContract({ address: chain.info.token, abi: erc20Abi, functionName: 'balanceOf', args: [who] });
  const wallets = DEV_ACCOUNTS.payers.map((p) =>
    createWalletClient({
      account: privateKeyToAccount(p.privateKey, { nonceManager }),
      chain: viemChain,
      transport: http(chain.info.rpcUrl),
    }),
  );
  const transfer = (i: number, to: Address): Promise<Hash> =>
    wallets[i % wallets.length]!.writeContract({
      address: chain.info.token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to, AMOUNT],
      gas: 100_000n,
    });

  // When each block was first seen (wall clock of this process), polled every 25 ms.
  const blockSeenAt = new Map<bigint, number>();
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      const n = await pub.getBlockNumber({ cacheTime: 0 }).catch(() => undefined);
      if (n !== undefined && !blockSeenAt.has(n)) blockSeenAt.set(n, Date.now());
      await sleep(25);
    }
  })();

  async function sweptAll(ids: string[], timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [row] = await sql<{ swept: number; completed: number }[]>`
        select (select count(*)::int from deposits where payment_session_id in ${sql(ids)} and swept_at is not null) as swept,
               (select count(*)::int from payment_sessions where id in ${sql(ids)} and status = 'completed') as completed`;
      if (row!.swept === ids.length && row!.completed === ids.length) return;
      if (Date.now() > deadline) throw new Error(`timed out: ${row!.completed} completed, ${row!.swept} swept of ${ids.length}`);
      await sleep(200);
    }
  }

  // --- N deposits, one transfer every GAP_MS: sweeps batch whatever is waiting when they run.
  const sessions = [];
  for (let i = 0; i < COUNT; i++) sessions.push(await createSession());
  const payoutBefore = await balanceOf(payout);
  log(`sending ${COUNT} transfers, one every ${GAP_MS} ms`);
  const hashes: Hash[] = [];
  for (let i = 0; i < COUNT; i++) {
    hashes.push(await transfer(i, sessions[i]!.address));
    await sleep(GAP_MS);
  }
  const receipts = await Promise.all(hashes.map((hash) => waitForDevReceipt(pub, hash)));
  if (receipts.some((r) => r.status !== 'success')) throw new Error('a transfer failed');
  const ids = sessions.map((s) => s.id);
  await sweptAll(ids, 300_000);

  const rows = await sql<{ sessionId: string; seenAt: Date; completedAt: Date; sweptAt: Date; purpose: string }[]>`
    select d.payment_session_id as "sessionId", d.created_at as "seenAt", s.completed_at as "completedAt", d.swept_at as "sweptAt",
           d.sweep_purpose as purpose
    from deposits d join payment_sessions s on s.id = d.payment_session_id where s.id in ${sql(ids)}`;
  const blockOf = new Map(sessions.map((s, i) => [s.id, receipts[i]!.blockNumber]));
  const minedAt = (id: string) => blockSeenAt.get(blockOf.get(id)!)!;
  const toSeen = rows.map((r) => r.seenAt.getTime() - minedAt(r.sessionId));
  const toCompleted = rows.map((r) => r.completedAt.getTime() - minedAt(r.sessionId));
  const firstSeen = Math.min(...rows.map((r) => r.seenAt.getTime()));
  const lastSwept = Math.max(...rows.map((r) => r.sweptAt.getTime()));
  const sweptPerSecond = COUNT / ((lastSwept - firstSeen) / 1000);

  async function sweepGas(purposes: string[]): Promise<Array<{ deposits: number; gas: bigint }>> {
    const out = [];
    for (const purpose of purposes) {
      const [tx] = await sql<{ hash: Hash; n: number }[]>`
        select (select sweep_transaction_hash from deposits where sweep_purpose = ${purpose} limit 1) as hash,
               (select count(*)::int from deposits where sweep_purpose = ${purpose}) as n`;
      const receipt = await pub.getTransactionReceipt({ hash: tx!.hash });
      out.push({ deposits: tx!.n, gas: receipt.gasUsed });
    }
    return out;
  }
  const sweeps = await sweepGas([...new Set(rows.map((r) => r.purpose))]);
  const [ledger] = await sql<{ n: number }[]>`select count(*)::int as n from chain_transactions where purpose like 'deposit-sweep:%'`;

  // --- one deposit alone: nothing else waiting, so its sweep deploys and sweeps one forwarder.
  const alone = await createSession();
  const aloneReceipt = await waitForDevReceipt(pub, await transfer(0, alone.address));
  if (aloneReceipt.status !== 'success') throw new Error('the lone transfer failed');
  await sweptAll([alone.id], 120_000);
  const [aloneRow] = await sql<{ purpose: string }[]>`select sweep_purpose as purpose from deposits where payment_session_id = ${alone.id}`;
  const [aloneSweep] = await sweepGas([aloneRow!.purpose]);

  // --- ten at once: sent without a gap, they land in one block and the sweep that starts first holds them.
  const ten = [];
  for (let i = 0; i < 10; i++) ten.push(await createSession());
  const tenReceipts = await Promise.all(
    await Promise.all(ten.map((s, i) => transfer(i, s.address))).then((hs) => hs.map((hash) => waitForDevReceipt(pub, hash))),
  );
  if (tenReceipts.some((r) => r.status !== 'success')) throw new Error('a transfer of the ten failed');
  await sweptAll(
    ten.map((s) => s.id),
    120_000,
  );
  const tenRows = await sql<
    { purpose: string }[]
  >`select distinct sweep_purpose as purpose from deposits where payment_session_id in ${sql(ten.map((s) => s.id))}`;
  const tenSweeps = await sweepGas(tenRows.map((r) => r.purpose));
  const tenGasPerDeposit = Number(tenSweeps.reduce((g, s) => g + s.gas, 0n)) / 10;

  // --- the factory alone: one sweepMany of 10 funded addresses that are no session's (the service leaves
  // them be), so the batch has exactly 10 whatever the timing above formed.
  const factory = settings.depositFactoryV2 ?? DEPOSIT_FACTORY_V2_ADDRESS;
  const direct = Array.from({ length: 10 }, (_, i) => `bench_direct_${Date.now()}_${i}`);
  const directReceipts = await Promise.all(
    await Promise.all(direct.map((id, i) => transfer(i, depositAddressOf(factory, id, payout, 2)))).then((hs) =>
      hs.map((hash) => waitForDevReceipt(pub, hash)),
    ),
  );
  if (directReceipts.some((r) => r.status !== 'success')) throw new Error('a transfer of the direct ten failed');
  const directSweep = await waitForDevReceipt(
    pub,
    await wallets[0]!.writeContract({
      address: factory,
      abi: depositForwarderFactoryV2Abi,
      functionName: 'sweepMany',
      args: [chain.info.token, direct.map(depositIdOf), direct.map(() => payout)],
    }),
  );
  if (directSweep.status !== 'success') throw new Error('the direct sweep of ten failed');
  watching = false;
  await watcher;

  const payoutGain = (await balanceOf(payout)) - payoutBefore;
  const forwardersEmpty = (await Promise.all([...sessions, alone, ...ten].map((s) => balanceOf(s.address)))).every((b) => b === 0n);
  const [ledgerAfter] = await sql<{ n: number }[]>`select count(*)::int as n from chain_transactions where purpose like 'deposit-sweep:%'`;
  const ok =
    payoutGain === AMOUNT * BigInt(COUNT + 21) &&
    forwardersEmpty &&
    ledger!.n === sweeps.length &&
    ledgerAfter!.n === sweeps.length + 1 + tenSweeps.length;

  const batched = sweeps.filter((s) => s.deposits > 1);
  const batchedDeposits = batched.reduce((n, s) => n + s.deposits, 0);
  const batchedGasPerDeposit = batchedDeposits ? Number(batched.reduce((g, s) => g + s.gas, 0n)) / batchedDeposits : NaN;
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  const table = [
    `### Deposit benchmark (${new Date().toISOString().slice(0, 10)}, ${COUNT} deposits + 1 alone + 10 at once, one transfer every ${GAP_MS} ms, anvil 1-second blocks, ${settings.confirmations} confirmation(s), indexer poll ${settings.pollIntervalMs} ms)`,
    '',
    '| measure | value |',
    '|---|---|',
    `| block -> deposit seen by the indexer, p50 / p99 | ${ms(percentile(toSeen, 50))} / ${ms(percentile(toSeen, 99))} |`,
    `| block -> session completed, p50 / p99 | ${ms(percentile(toCompleted, 50))} / ${ms(percentile(toCompleted, 99))} |`,
    `| sweep transactions for ${COUNT} deposits (deposits in each) | ${sweeps.length} (${sweeps.map((s) => s.deposits).join(', ')}) |`,
    `| deposits swept per second (first seen -> last swept) | ${sweptPerSecond.toFixed(2)} |`,
    `| gas per deposit, batched (sweeps of more than one) | ${Number.isNaN(batchedGasPerDeposit) ? 'no batch formed' : batchedGasPerDeposit.toFixed(0)} |`,
    `| gas per deposit, ten sent in one block (deposits in each sweep) | ${tenGasPerDeposit.toFixed(0)} (${tenSweeps.map((s) => s.deposits).join(', ')}) |`,
    `| gas per deposit, one factory sweepMany of exactly 10 | ${(directSweep.gasUsed / 10n).toString()} |`,
    `| gas per deposit, alone (deploy + sweep of one forwarder) | ${aloneSweep!.gas} |`,
    `| each sweep: deposits -> gas | ${sweeps.map((s) => `${s.deposits} -> ${s.gas}`).join('; ')} |`,
    `| payout up by exactly the sum, forwarders empty, one ledger transaction per sweep | ${ok ? 'yes' : 'NO'} |`,
    '',
  ].join('\n');
  console.log(`\n${table}`);
  if (process.env.BENCH_OUT) appendFileSync(process.env.BENCH_OUT, `${table}\n`);
  if (!ok) process.exitCode = 1;
} finally {
  for (const stop of stops.reverse()) await stop().catch((error: unknown) => console.error(error));
}
