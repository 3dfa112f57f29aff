// The workflow platform's floor on this machine: N of the cheapest real
// workflow (an event dispatch whose event does not exist: one workflow task with
// one local activity reading Postgres) started at once against the Temporal dev
// server, run by one worker. Every workflow benchmark here sits on top of this
// figure, so it says how much of their time is the platform's.
//
//   node --import tsx bench/temporal-floor.ts [N=1000]
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { createSql } from '../src/db/client.js';
import { freePort } from '../src/dev/ports.js';
import { PROJECT_ROOT, startTemporalDevServer, temporalBinaries } from '../src/dev/temporal.js';
import { DISPATCH_EVENT_WORKFLOW } from '../src/events/dispatch.js';
import { createWorker } from '../src/temporal/worker.js';
import { benchDatabase, table } from './support.js';

const N = Number(process.argv[2] ?? 1000);
const log = (line: string) => console.log(`[bench] ${line}`);

const database = await benchDatabase();
const sql = createSql(database.url, { max: 20 });
mkdirSync(join(PROJECT_ROOT, '.data'), { recursive: true });
const dir = mkdtempSync(join(PROJECT_ROOT, '.data', 'bench-temporal-'));
chmodSync(dir, 0o755);
const server = await startTemporalDevServer({ cli: temporalBinaries(log).cli, port: await freePort(), uiPort: await freePort() });
try {
  const temporal = new Client({ connection: await Connection.connect({ address: server.address }) });
  const connection = await NativeConnection.connect({ address: server.address });
  const taskQueue = 'bench-floor';
  const worker = await createWorker({ connection, namespace: 'default', sql, temporal, taskQueue });
  const running = worker.run();
  // Warm up the bundle and the connections.
  await temporal.workflow.execute(DISPATCH_EVENT_WORKFLOW, { workflowId: 'warmup', taskQueue, args: [{ eventId: 'evt_missing_warmup' }] });

  const t0 = performance.now();
  const handles = await Promise.all(
    Array.from({ length: N }, (_, i) => temporal.workflow.start(DISPATCH_EVENT_WORKFLOW, { workflowId: `floor-${i}`, taskQueue, args: [{ eventId: `evt_missing_${i}` }] })),
  );
  const started = performance.now();
  await Promise.all(handles.map((h) => h.result()));
  const done = performance.now();
  table([
    { measure: 'workflows', value: N },
    { measure: 'all started (s)', value: ((started - t0) / 1000).toFixed(2) },
    { measure: 'starts per second', value: (N / ((started - t0) / 1000)).toFixed(1) },
    { measure: 'all completed (s)', value: ((done - t0) / 1000).toFixed(2) },
    { measure: 'workflows per second (start to completion)', value: (N / ((done - t0) / 1000)).toFixed(1) },
  ]);
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
