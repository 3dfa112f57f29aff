// The workflow platform's floor on this machine: N of the cheapest real
// workflow (an event dispatch whose event does not exist: one workflow task with
// one local activity reading Postgres) started at once against the Temporal dev
// server, run by one worker. Every workflow benchmark here sits on top of this
// figure, so it says how much of their time is the platform's.
//
// It prints the CPU each workflow cost, by process: the Temporal server's share is
// a floor under every workflow-per-item design on the same machine.
//
//   node --import tsx bench/temporal-floor.ts [N=1000]   (TEMPORAL_ADDRESS=host:port: that cluster)
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { createSql } from '../src/db/client.js';
import { freePort } from '../src/dev/ports.js';
import { PROJECT_ROOT, startTemporalDevServer, temporalBinaries } from '../src/dev/temporal.js';
import { DISPATCH_EVENT_WORKFLOW } from '../src/events/dispatch.js';
import { createWorker } from '../src/temporal/worker.js';
import { benchDatabase, cpuPerItem, cpuSnapshot, table } from './support.js';

const N = Number(process.argv[2] ?? 1000);
const log = (line: string) => console.log(`[bench] ${line}`);

const database = await benchDatabase();
const sql = createSql(database.url, { max: 20 });
mkdirSync(join(PROJECT_ROOT, '.data'), { recursive: true });
const dir = mkdtempSync(join(PROJECT_ROOT, '.data', 'bench-temporal-'));
chmodSync(dir, 0o755);
const server = process.env.TEMPORAL_ADDRESS
  ? { address: process.env.TEMPORAL_ADDRESS, stop: async () => {} }
  : await startTemporalDevServer({ cli: temporalBinaries(log).cli, port: await freePort(), uiPort: await freePort() });
try {
  const temporal = new Client({ connection: await Connection.connect({ address: server.address }) });
  const connection = await NativeConnection.connect({ address: server.address });
  const taskQueue = `bench-floor-${Date.now()}`; // a cluster may keep an earlier run's queue
  const worker = await createWorker({ connection, namespace: 'default', sql, temporal, taskQueue });
  const running = worker.run();
  // Warm up the bundle and the connections.
  await temporal.workflow.execute(DISPATCH_EVENT_WORKFLOW, { workflowId: `${taskQueue}-warmup`, taskQueue, args: [{ eventId: 'evt_missing_warmup' }] });
  const roles = { [process.pid]: 'bench driver + worker (node)' };
  const cpuBefore = cpuSnapshot(roles);

  const t0 = performance.now();
  const handles = await Promise.all(
    Array.from({ length: N }, (_, i) => temporal.workflow.start(DISPATCH_EVENT_WORKFLOW, { workflowId: `${taskQueue}-${i}`, taskQueue, args: [{ eventId: `evt_missing_${i}` }] })),
  );
  const started = performance.now();
  await Promise.all(handles.map((h) => h.result()));
  const done = performance.now();
  const cpu = cpuPerItem(cpuBefore, cpuSnapshot(roles), N);
  table([
    { measure: 'workflows', value: N },
    { measure: 'all started (s)', value: ((started - t0) / 1000).toFixed(2) },
    { measure: 'starts per second', value: (N / ((started - t0) / 1000)).toFixed(1) },
    { measure: 'all completed (s)', value: ((done - t0) / 1000).toFixed(2) },
    { measure: 'workflows per second (start to completion)', value: (N / ((done - t0) / 1000)).toFixed(1) },
  ]);
  log(`CPU per workflow, whole machine (${availableParallelism()} cores):`);
  table(cpu.map((row) => ({ process: row.process, 'ms per workflow': row.ms.toFixed(2) })));
  worker.shutdown();
  await running;
  await connection.close();
  await temporal.connection.close();
} finally {
  await server.stop();
  await sql.end({ timeout: 5 });
  await database.stop();
  rmSync(dir, { recursive: true, force: true });
}
