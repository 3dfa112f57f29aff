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
//
// Other benches import `measureTemporalFloor` to print F in their own run, against their own server.
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection, WorkflowExecutionAlreadyStartedError, type WorkflowHandle } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { createSql, type Sql } from '../src/db/client.js';
import { PROJECT_ROOT, startTemporalDevServerOnFreePorts, temporalBinaries } from '../tools/dev/temporal.js';
import { dispatchEventWorkflow } from '../workflows/event-dispatch.js';
import { createWorker } from '../src/temporal/worker.js';
import { benchDatabase, cpuPerItem, cpuSnapshot, table } from './support.js';

const log = (line: string) => console.log(`[bench] ${line}`);

export type TemporalFloor = {
  workflows: number;
  startSeconds: number;
  completeSeconds: number;
  /** F: workflows per second, start to completion. */
  workflowsPerSecond: number;
  cpu: Array<{ process: string; ms: number }>;
};

/** Runs N of the cheapest workflow on a fresh task queue of the server at `address`, with one worker in this process, and prints the figures. */
export async function measureTemporalFloor(opts: { address: string; sql: Sql; workflows: number }): Promise<TemporalFloor> {
  const { address, sql, workflows: N } = opts;
  const temporal = new Client({ connection: await Connection.connect({ address }) });
  const connection = await NativeConnection.connect({ address });
  const taskQueue = `bench-floor-${Date.now()}`; // a cluster may keep an earlier run's queue
  const worker = await createWorker({ connection, namespace: 'default', sql, temporal, taskQueue });
  const running = worker.run();
  try {
    // Warm up the bundle and the connections.
    await temporal.workflow.execute(dispatchEventWorkflow, {
      workflowId: `${taskQueue}-warmup`,
      taskQueue,
      args: [{ eventId: 'evt_missing_warmup' }],
    });
    const roles = { [process.pid]: 'bench driver + worker (node)' };
    const cpuBefore = cpuSnapshot(roles);

    const t0 = performance.now();
    const handles = await settledAll(
      'start',
      Array.from({ length: N }, (_, i) => startFloorWorkflow(temporal, taskQueue, i)),
    );
    const started = performance.now();
    await settledAll(
      'result',
      handles.map((h) => h.result()),
    );
    const done = performance.now();
    const cpu = cpuPerItem(cpuBefore, cpuSnapshot(roles), N);
    const floor: TemporalFloor = {
      workflows: N,
      startSeconds: (started - t0) / 1000,
      completeSeconds: (done - t0) / 1000,
      workflowsPerSecond: N / ((done - t0) / 1000),
      cpu,
    };
    table([
      { measure: 'workflows', value: N },
      { measure: 'all started (s)', value: floor.startSeconds.toFixed(2) },
      { measure: 'starts per second', value: (N / floor.startSeconds).toFixed(1) },
      { measure: 'all completed (s)', value: floor.completeSeconds.toFixed(2) },
      { measure: 'workflows per second (start to completion)', value: floor.workflowsPerSecond.toFixed(1) },
    ]);
    log(`CPU per workflow, whole machine (${availableParallelism()} cores):`);
    table(cpu.map((row) => ({ process: row.process, 'ms per workflow': row.ms.toFixed(2) })));
    return floor;
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
    await temporal.connection.close();
  }
}

/**
 * One floor workflow start. A server with more work than it can persist answers a start with
 * DEADLINE_EXCEEDED (425 of 1,000 on a loaded machine), which the client does not retry, though the
 * start may have been recorded: it is sent again, and "already started" counts as started.
 */
async function startFloorWorkflow(temporal: Client, taskQueue: string, i: number): Promise<WorkflowHandle> {
  const workflowId = `${taskQueue}-${i}`;
  for (let attempt = 1; ; attempt++) {
    try {
      return await temporal.workflow.start(dispatchEventWorkflow, { workflowId, taskQueue, args: [{ eventId: `evt_missing_${i}` }] });
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError) return temporal.workflow.getHandle(workflowId);
      const deadlineExceeded = /DEADLINE_EXCEEDED/.test(String((error as { cause?: unknown }).cause ?? error));
      if (!deadlineExceeded || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
    }
  }
}

/**
 * Waits for every call, then throws the first failure with a count. With `Promise.all` the first
 * rejection ran the `finally` that closes the client while the other calls were still in the client's
 * retry timers, whose next attempt on the closed channel ended the process ("Channel has been shut
 * down") and hid the error that mattered.
 */
async function settledAll<T>(what: string, calls: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(calls);
  const failed = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed.length > 0) {
    throw new Error(`${failed.length} of ${calls.length} floor workflow ${what} calls failed; the first: ${String(failed[0]!.reason)}`, {
      cause: failed[0]!.reason,
    });
  }
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const N = Number(process.argv[2] ?? 1000);
  const database = await benchDatabase();
  const sql = createSql(database.url, { max: 20 });
  mkdirSync(join(PROJECT_ROOT, '.data'), { recursive: true });
  const dir = mkdtempSync(join(PROJECT_ROOT, '.data', 'bench-temporal-'));
  chmodSync(dir, 0o755);
  const server = process.env.TEMPORAL_ADDRESS
    ? { address: process.env.TEMPORAL_ADDRESS, stop: async () => {} }
    : await startTemporalDevServerOnFreePorts({ cli: temporalBinaries(log).cli });
  try {
    await measureTemporalFloor({ address: server.address, sql, workflows: N });
  } finally {
    await server.stop();
    await sql.end({ timeout: 5 });
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
