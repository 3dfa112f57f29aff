// Benchmark: N subscriptions due at the same moment, charged by the real
// subscription workflow + worker on a local stack (embedded Postgres, Temporal
// dev server, anvil), beside N plain charge transactions sent straight to the
// contract in the same run.
//
//   node --import tsx bench/subscriptions.ts [N=10000]
//
// Reports: time until all N are charged, charges per second, the worker's RSS
// (its own process, as in production: sampled as the run goes and at its peak),
// on-chain double charges (must be 0),
// and the same for the direct baseline, with the ratio. In the same run, against the same
// Temporal server, it measures F (bench/temporal-floor.ts) and reports charges/s against it, the
// CPU per charge by process, and how the charges were batched on-chain (chargeMany transactions); and, from the
// histories after the window, workflow tasks, task timeouts, local activities and visibility updates per charge.
//
//   FLOOR_N=1000 (workflows of the floor run)   CHARGE_BATCH=0 (one charge transaction per charge)
//   BENCH_DUE=waiting (the N workflows are started before the worker runs; the window times the charges alone)
//   BENCH_WORKER=inline (the worker in this process; implied by CHARGE_BATCH=0)
//   TEMPORAL_WORKER_MAX_CACHED_WORKFLOWS (the worker's workflow cache, src/temporal/worker.ts)
//
//   --metered (issue 41): the N subscriptions are on a metered plan (1 USDC a month plus 0.001 USDC a call, cap 2
//   USDC, no grace), enrolled a month and a day ago (anvil's clock starts in the past, then jumps to now), with
//   METERED_EVENTS (default 10) usage events each in period 0. Implies BENCH_DUE=waiting: every workflow finds periods
//   0 and 1 due, so the window holds 2N charges, N of them period closes (period 1's, billing period 0's usage).
import { mkdtempSync, chmodSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { createPublicClient, encodeFunctionData, http, keccak256, parseEventLogs, toHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { subscriptionManagerAbi } from '../src/chain/generated/contracts.js';
import { startAnvil } from '../src/chain/anvil.js';
import { sendSignedInWaves } from '../tools/dev/chain/waves.js';
import { deployContracts, fundPayers } from '../tools/dev/chain/deploy.js';
import { DEV_ACCOUNTS } from '../tools/dev/chain/test-accounts.js';
import { createSql } from '../src/db/client.js';
import { PROJECT_ROOT, startTemporalDevServerOnFreePorts, temporalBinaries } from '../tools/dev/temporal.js';
import { createEventDispatcher } from '../src/events/dispatch.js';
import { addMerchantChainAddress } from '../src/merchants/repo.js';
import { createMerchant } from '../src/merchants/service.js';
import { createPlanService } from '../src/subscription-plans/service.js';
import { createMeterService } from '../src/billing-meters/service.js';
import { createViemSubscriptionChain } from '../src/subscriptions/chain.js';
import { onSubscriptionCreatedOnChain, type SubscriptionCreatedLog } from '../src/subscriptions/chain-events.js';
import { onChainPeriodSeconds } from '../src/subscriptions/periods.js';
import { connectTemporalClient } from '../src/temporal/connection.js';
import { createWorker } from '../src/temporal/worker.js';
import { randomNonce, signEnrolment, signPermit } from '../test/chain/helpers.js';
import { benchDatabase, cpuPerItem, cpuSnapshot, processMemoryMiB, startWorkerProcess, table } from './support.js';
import { measureTemporalFloor } from './temporal-floor.js';
import { historyCounts, perItem } from './history-stats.js';
import { chainDefinition } from '../src/chain/chain-definition.js';

const METERED = process.argv.includes('--metered');
const N = Number(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 10_000);
const METERED_EVENTS = Number(process.env.METERED_EVENTS ?? 10);
/** Charges the window waits for: a metered subscription's period 0 (fixed price) and period 1 (its close). */
const CHARGES = METERED ? 2 * N : N;
/** A metered enrolment authorises the cap (the plan is matched by it); a fixed one the amount. */
const CAP = 2_000_000n;
const AMOUNT = 1_000_000n; // 1 USDC
const PERIOD = BigInt(onChainPeriodSeconds('monthly', 1));
const log = (line: string) => console.log(`[bench] ${line}`);

async function inBatches<T, R>(items: T[], size: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size)
    out.push(...(await Promise.all(items.slice(i, i + size).map((item, j) => work(item, i + j)))));
  return out;
}

const database = await benchDatabase();
const sql = createSql(database.url, { max: 40 });
mkdirSync(join(PROJECT_ROOT, '.data'), { recursive: true });
const temporalDir = mkdtempSync(join(PROJECT_ROOT, '.data', 'bench-temporal-'));
chmodSync(temporalDir, 0o755);
const temporalServer = await startTemporalDevServerOnFreePorts({ cli: temporalBinaries().cli, dbFile: join(temporalDir, 'temporal.db') });
// A block every 5 seconds rather than a block per transaction: anvil's cost per block grows with
// its state (tens of thousands of subscriptions here), and automine paid it per charge. Each block
// also costs anvil memory (about 20 MB per block at this state, history pruning or not: 1-second
// blocks filled 22 GB and anvil was OOM-killed), so blocks are few and transactions go in big waves.
// A block gas limit far above mainnet's, so a wave always fits in one block.
// --metered: the chain starts 32 days ago (every enrolment's period 1 is due by now), and jumps to now before the run.
const anvilStart = METERED ? ['--timestamp', String(Math.floor(Date.now() / 1000) - 32 * 86_400)] : [];
const anvil = await startAnvil({ blockTime: 5, extraArgs: ['--gas-limit', '2000000000', '--prune-history', '64', ...anvilStart] });
const WAVE = 2000;
try {
  const deployed = await deployContracts({ rpcUrl: anvil.rpcUrl, deployerKey: DEV_ACCOUNTS.deployer.privateKey });
  const chain = chainDefinition(anvil.chainId, anvil.rpcUrl);
  // A long timeout: the set-up sends tens of thousands of transactions to a local node on a busy machine.
  const pub = createPublicClient({ chain, transport: http(anvil.rpcUrl, { timeout: 60_000 }), pollingInterval: 50 });

  // Merchant, plan, payout address.
  const merchant = await createMerchant(sql, { name: 'Bench merchant' });
  await addMerchantChainAddress(sql, { merchantId: merchant.id, livemode: false, address: DEV_ACCOUNTS.merchant.address });
  await createPlanService({ sql, events: { dispatch: async () => {} } }).create(
    { merchantId: merchant.id, livemode: false },
    { name: 'Bench', amount: AMOUNT.toString(), currency: 'USDC', interval: 'monthly', intervalCount: 1, trialPeriodDays: 0 },
  );
  if (METERED) {
    const meter = await createMeterService({ sql }).create(
      { merchantId: merchant.id, livemode: false },
      {
        displayName: 'Bench calls',
        eventName: 'bench_call',
        aggregation: 'count',
        customerMapping: { type: 'by_wallet', eventPayloadKey: 'wallet' },
      },
    );
    await createPlanService({ sql, events: { dispatch: async () => {} } }).create(
      { merchantId: merchant.id, livemode: false },
      {
        name: 'Bench metered',
        amount: AMOUNT.toString(),
        currency: 'USDC',
        interval: 'monthly',
        intervalCount: 1,
        trialPeriodDays: 0,
        meteredPrices: [{ model: 'per_unit', meterId: meter.id, unitAmount: '1000' }],
        usageCap: CAP.toString(),
        usageGracePeriodSeconds: 0,
      },
    );
  }

  // 2N enrolments (N for the workflow run, N for the direct baseline) by N payers.
  log(`funding ${N} payers and enrolling ${2 * N} subscriptions ...`);
  const payers = Array.from({ length: N }, (_, i) => privateKeyToAccount(keccak256(toHex(`bench-payer-${i}`))));
  await fundPayers({
    rpcUrl: anvil.rpcUrl,
    minterKey: DEV_ACCOUNTS.usdcMasterMinter.privateKey,
    token: deployed.token,
    payers: payers.map((p) => p.address),
    balance: 100n * AMOUNT,
    wave: WAVE,
  });
  const deadline = BigInt(Math.floor(Date.now() / 1000) + 86_400);
  const terms = {
    token: deployed.token,
    merchant: DEV_ACCOUNTS.merchant.address,
    operator: DEV_ACCOUNTS.operator.address,
    amount: METERED ? CAP : AMOUNT,
    period: PERIOD,
    periods: 0,
    trialEnd: 0n,
  };
  // The relayer's enrolments are signed up front with consecutive nonces and sent in batches,
  // so thousands of them never race for a nonce.
  const relayerAccount = privateKeyToAccount(DEV_ACCOUNTS.relayer.privateKey);
  const fees = await pub.estimateFeesPerGas();
  let relayerNonce = await pub.getTransactionCount({ address: relayerAccount.address, blockTag: 'pending' });
  const enrolAll = async (): Promise<SubscriptionCreatedLog[]> => {
    const permitNonces = await inBatches(payers, 200, (p) =>
      pub.readContract({
        address: deployed.token,
        abi: [
          {
            type: 'function',
            name: 'nonces',
            stateMutability: 'view',
            inputs: [{ name: 'o', type: 'address' }],
            outputs: [{ type: 'uint256' }],
          },
        ] as const,
        functionName: 'nonces',
        args: [p.address],
      }),
    );
    const calls = await inBatches(payers, 100, async (payer, i) => {
      const permit = await signPermit(pub, payer, deployed.token, {
        spender: deployed.subscriptionManager,
        value: 1000n * AMOUNT,
        deadline,
        nonce: permitNonces[i],
      });
      const auth = await signEnrolment(pub, payer, deployed.subscriptionManager, terms, { nonce: randomNonce(), deadline });
      return encodeFunctionData({
        abi: subscriptionManagerAbi,
        functionName: 'subscribeWithPermitFor',
        args: [payer.address, terms, permit, auth],
      });
    });
    const raws: Hex[] = [];
    for (const data of calls) {
      raws.push(
        await relayerAccount.signTransaction({
          type: 'eip1559',
          chainId: anvil.chainId,
          to: deployed.subscriptionManager,
          data,
          nonce: relayerNonce++,
          gas: 400_000n,
          maxFeePerGas: fees.maxFeePerGas * 100n,
          maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        }),
      );
    }
    const receipts = await sendSignedInWaves(pub, raws, WAVE);
    return inBatches(receipts, 200, async (receipt) => {
      if (receipt.status !== 'success') throw new Error(`enrolment ${receipt.transactionHash} reverted`);
      const [event] = parseEventLogs({ abi: subscriptionManagerAbi, logs: receipt.logs, eventName: 'SubscriptionCreated' });
      const block = await pub.getBlock({ blockNumber: receipt.blockNumber });
      return {
        livemode: false,
        chainId: anvil.chainId,
        address: event!.address,
        transactionHash: receipt.transactionHash,
        blockTimestamp: block.timestamp,
        args: event!.args,
      };
    });
  };
  const forWorkflows = await enrolAll();
  const forDirect = await enrolAll();
  if (METERED) {
    // Now on chain too: period 1 of every enrolment (32 days ago) has started.
    const rpc = (method: string, params: unknown[]) =>
      fetch(anvil.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
    await rpc('evm_setNextBlockTimestamp', [Math.floor(Date.now() / 1000)]);
    await rpc('evm_mine', []);
  }
  const startBlock = await pub.getBlockNumber();

  // Workflow run: api-side hooks start N workflows at once; one worker charges them.
  const temporal = await connectTemporalClient(temporalServer.address, 'default');
  const taskQueue = 'bench-subscriptions';
  // F: the platform's floor, on this run's server, before the timed run.
  log(`measuring the Temporal floor F (${process.env.FLOOR_N ?? 1000} workflows) ...`);
  const floor = await measureTemporalFloor({ address: temporalServer.address, sql, workflows: Number(process.env.FLOOR_N ?? 1000) });
  const chargeBatch = process.env.CHARGE_BATCH === '0' ? false : undefined;
  const deps = {
    sql,
    temporal,
    taskQueue,
    events: createEventDispatcher(temporal, taskQueue, () => {}),
    modes: {
      test: {
        chainId: anvil.chainId,
        subscriptionManagers: [deployed.subscriptionManager],
        token: deployed.token,
        operator: DEV_ACCOUNTS.operator.address,
      },
    },
  };
  // The indexer's hook starts one workflow per enrolment, 50 at a time.
  const startAll = async (): Promise<number> => {
    log(`starting ${N} subscription workflows (all due now) ...`);
    const started = performance.now();
    await inBatches(forWorkflows, 50, (l) => onSubscriptionCreatedOnChain(deps, l));
    const seconds = (performance.now() - started) / 1000;
    log(`${N} workflows started in ${seconds.toFixed(1)} s`);
    return seconds;
  };
  // BENCH_DUE=waiting: every workflow is started before the worker runs, so the timed window holds the
  // charges alone, N due at once as when their period timers fire together (or a worker fleet comes
  // back after an outage). Default: the starts run inside the window, beside the charges.
  const startedBefore = METERED || process.env.BENCH_DUE === 'waiting';
  let startSeconds = startedBefore ? await startAll() : 0;
  if (METERED) {
    // The usage of period 0, sent before the worker runs (not timed): METERED_EVENTS calls per subscription.
    log(`sending ${N * METERED_EVENTS} usage events ...`);
    const meters = createMeterService({ sql });
    const events = forWorkflows.flatMap((l, i) =>
      Array.from({ length: METERED_EVENTS }, (_, k) => ({
        eventName: 'bench_call',
        identifier: `bench-${i}-${k}`,
        timestamp: new Date((Number(l.args.firstPeriodStart) + 3600 + k) * 1000).toISOString(),
        payload: { wallet: l.args.subscriber },
      })),
    );
    await inBatches(
      Array.from({ length: Math.ceil(events.length / 100) }, (_, b) => events.slice(b * 100, b * 100 + 100)),
      4,
      async (batch) => {
        const result = await meters.ingestBatch({ merchantId: merchant.id, livemode: false }, batch);
        if (result.accepted !== batch.length)
          throw new Error(`usage refused: ${JSON.stringify(result.data.find((r) => r.status === 'refused'))}`);
      },
    );
  }
  const worker = process.env.BENCH_WORKER === 'inline' || chargeBatch === false ? await inlineWorker() : await ownProcessWorker();
  const workerMemory = () =>
    worker.pid === process.pid ? process.memoryUsage().rss / 2 ** 20 : (processMemoryMiB(worker.pid)?.rss ?? NaN);
  let peakRss = workerMemory();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, workerMemory())), 250);
  const rssTimeline: string[] = [];
  const roles =
    worker.pid === process.pid
      ? { [process.pid]: 'bench driver + worker (node)' }
      : { [process.pid]: 'bench driver (node)', [worker.pid]: 'worker (node)' };
  const cpuBefore = cpuSnapshot(roles);
  const t0 = performance.now();
  if (!startedBefore) startSeconds = await startAll();
  let lastProgress = { n: 0, at: performance.now(), logged: performance.now() };
  for (;;) {
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from subscription_charges where status = 'succeeded'`;
    const n = row?.n ?? 0;
    if (n >= CHARGES) break;
    const now = performance.now();
    if (n > lastProgress.n) lastProgress = { ...lastProgress, n, at: now };
    if (now - lastProgress.logged > 30_000) {
      const rss = workerMemory();
      rssTimeline.push(`${n}: ${rss.toFixed(0)}`);
      log(`${n} of ${CHARGES} charged after ${((now - t0) / 1000).toFixed(0)} s; worker RSS ${rss.toFixed(0)} MiB`);
      lastProgress.logged = now;
    }
    if (now - lastProgress.at > 300_000) throw new Error(`no charge for 5 minutes; ${n} of ${CHARGES} charged`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const workflowSeconds = (performance.now() - t0) / 1000;
  const cpu = cpuPerItem(cpuBefore, cpuSnapshot(roles), CHARGES);
  if (worker.pid !== process.pid) peakRss = Math.max(peakRss, processMemoryMiB(worker.pid)?.peak ?? 0);
  const workflowEndBlock = await pub.getBlockNumber();
  log(
    `workflow run (${startedBefore ? `workflows started before the worker ran, in ${startSeconds.toFixed(1)} s, not timed` : `starts timed: the last of them ${startSeconds.toFixed(1)} s into the run`}): ${CHARGES} charged in ${workflowSeconds.toFixed(1)} s (${(CHARGES / workflowSeconds).toFixed(1)} charges/s), worker peak RSS ${peakRss.toFixed(0)} MiB (${worker.pid === process.pid ? 'with the driver, one process' : 'its own process'}); bench driver RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
  );
  log(`worker RSS as the run went (charged: MiB): ${rssTimeline.join(', ') || '-'}`);
  if (METERED) {
    const [closes] = await sql<{ n: number; usage: string }[]>`
      select count(*)::int as n, coalesce(sum(total - ${AMOUNT.toString()}::numeric), 0)::text as usage
      from subscription_usage_closes where period_index = 1`;
    log(
      `metered: ${closes!.n} period closes (period 1, billing ${METERED_EVENTS} calls each: ${closes!.usage} base units of usage in all) within ${CHARGES} charges in ${workflowSeconds.toFixed(1)} s: ${(N / workflowSeconds).toFixed(1)} closes/s, ${(CHARGES / workflowSeconds).toFixed(1)} charges/s`,
    );
  }
  clearInterval(sampler);
  await worker.stop();

  // Direct baseline: the operator sends N charge transactions straight to the contract.
  log(`sending ${N} direct charges ...`);
  // Signed up front with consecutive nonces (signing is not the contract's work), sent in waves.
  const operator = privateKeyToAccount(DEV_ACCOUNTS.operator.privateKey);
  let operatorNonce = await pub.getTransactionCount({ address: operator.address, blockTag: 'pending' });
  const directRaws: Hex[] = [];
  for (const l of forDirect) {
    const data = encodeFunctionData({ abi: subscriptionManagerAbi, functionName: 'charge', args: [l.args.id, 0, AMOUNT] });
    directRaws.push(
      await operator.signTransaction({
        type: 'eip1559',
        chainId: anvil.chainId,
        to: deployed.subscriptionManager,
        data,
        nonce: operatorNonce++,
        gas: 200_000n,
        maxFeePerGas: fees.maxFeePerGas * 100n,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      }),
    );
  }
  const t1 = performance.now();
  const directReceipts = await sendSignedInWaves(pub, directRaws, WAVE);
  if (directReceipts.some((r) => r.status !== 'success')) throw new Error('a direct charge reverted');
  const directSeconds = (performance.now() - t1) / 1000;

  // Double charges: SubscriptionCharged logs vs distinct (id, period).
  // In small block ranges: a block can hold thousands of charges, and a node caps a response's size.
  const charged = [];
  const head = await pub.getBlockNumber();
  for (let from = startBlock; from <= head; from += 4n) {
    const to = from + 3n < head ? from + 3n : head;
    charged.push(
      ...(await pub.getContractEvents({
        address: deployed.subscriptionManager,
        abi: subscriptionManagerAbi,
        eventName: 'SubscriptionCharged',
        fromBlock: from,
        toBlock: to,
      })),
    );
  }
  const distinct = new Set(charged.map((e) => `${e.args.id}:${e.args.periodIndex}`));
  const workflowCharges = charged.filter((e) => e.blockNumber !== null && e.blockNumber <= workflowEndBlock);
  const workflowTxs = new Set(workflowCharges.map((e) => e.transactionHash));
  let workflowGas = 0n;
  for (const hash of workflowTxs) workflowGas += (await pub.getTransactionReceipt({ hash })).gasUsed;
  const directGas = directReceipts.reduce((sum, r) => sum + r.gasUsed, 0n);
  table([
    {
      run: 'workflow',
      subscriptions: N,
      seconds: workflowSeconds.toFixed(1),
      chargesPerSecond: (CHARGES / workflowSeconds).toFixed(1),
      workerPeakRssMiB: peakRss.toFixed(0),
    },
    {
      run: 'direct',
      subscriptions: N,
      seconds: directSeconds.toFixed(1),
      chargesPerSecond: (N / directSeconds).toFixed(1),
      workerPeakRssMiB: '-',
    },
  ]);
  log(`on-chain charges: ${charged.length}, distinct (id, period): ${distinct.size}, double charges: ${charged.length - distinct.size}`);
  log(`workflow / direct time ratio: ${(workflowSeconds / directSeconds).toFixed(2)}`);
  log(
    `F (temporal floor, same server, ${floor.workflows} workflows): ${floor.workflowsPerSecond.toFixed(1)}/s; charges/s = ${(CHARGES / workflowSeconds / floor.workflowsPerSecond).toFixed(2)} x F (target >= 0.6)${METERED ? `; period closes/s = ${(N / workflowSeconds / floor.workflowsPerSecond).toFixed(2)} x F (issue 41's target: 0.6 at N = 10,000)` : ''}`,
  );
  log(
    `workflow run on-chain: ${workflowCharges.length} charges in ${workflowTxs.size} transactions (${(workflowCharges.length / Math.max(1, workflowTxs.size)).toFixed(1)} per transaction), ${(Number(workflowGas) / Math.max(1, workflowCharges.length)).toFixed(0)} gas per charge; direct charge: ${(Number(directGas) / N).toFixed(0)} gas per charge`,
  );
  log('CPU per charge during the workflow run, by process:');
  table(cpu.map((row) => ({ process: row.process, 'ms per charge': row.ms.toFixed(2) })));
  // Read after the window, so reading them costs the run nothing: every subscription workflow's history so far.
  const histories = await historyCounts(temporal, 'WorkflowType = "subscriptionWorkflow"');
  log("per charge, from the subscription workflows' histories (the floor workflow: 1 task, 0 timeouts):");
  table([perItem(histories, CHARGES)]);
  const dispatcher = await historyCounts(temporal, 'WorkflowType = "eventDispatcherWorkflow"');
  log(`event dispatcher wake-up signals per charge: ${(dispatcher.signals / N).toFixed(2)} (at most one per 250 ms per process)`);
  await temporal.connection.close();

  /** The product worker in this process (the in-process chain port can switch batching off). */
  async function inlineWorker(): Promise<{ pid: number; stop: () => Promise<void> }> {
    const subscriptionChain = await createViemSubscriptionChain(
      {
        test: {
          rpcUrl: anvil.rpcUrl,
          operatorKey: DEV_ACCOUNTS.operator.privateKey,
          subscriptionManager: deployed.subscriptionManager,
          pollingIntervalMs: 100,
          ...(chargeBatch === false ? { chargeBatch } : {}),
        },
      },
      { sql },
    );
    const connection = await NativeConnection.connect({ address: temporalServer.address });
    const inline = await createWorker({
      connection,
      namespace: 'default',
      sql,
      temporal,
      taskQueue,
      subscriptionChain,
      maxCachedWorkflows: Number(process.env.TEMPORAL_WORKER_MAX_CACHED_WORKFLOWS) || undefined,
    });
    const running = inline.run();
    return { pid: process.pid, stop: async () => (inline.shutdown(), await running, await connection.close()) };
  }

  /** src/worker.ts in its own process, configured as production is, on this run's servers (deterministic test-mode addresses). */
  function ownProcessWorker() {
    return startWorkerProcess({
      DATABASE_URL: database.url,
      DATABASE_POOL_MAX: '40',
      TEMPORAL_ADDRESS: temporalServer.address,
      TEMPORAL_TASK_QUEUE: taskQueue,
      CHAIN_RPC_URL: anvil.rpcUrl,
      CHAIN_TEST_POLL_INTERVAL_MS: '100',
    });
  }
} finally {
  await anvil.stop();
  await temporalServer.stop();
  await sql.end({ timeout: 5 });
  await database.stop();
  rmSync(temporalDir, { recursive: true, force: true });
}
