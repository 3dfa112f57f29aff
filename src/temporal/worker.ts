// Building the Temporal worker that runs every workflow and activity.
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import { fileURLToPath } from 'node:url';
import { createActivities } from '../../activities/index.js';
import type { ChainConfig } from '../chain/config.js';
import type { Sql } from '../db/client.js';
import { TASK_QUEUES } from './task-queues.js';

export const WORKFLOWS_PATH = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

export type WorkerDeps = {
  connection: NativeConnection;
  namespace: string;
  sql: Sql;
  temporal: Client;
  /** Chain settings per mode (relay activities). */
  chain?: ChainConfig;
  /** A prebuilt bundle (tests build it once per file); otherwise bundled from source. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  taskQueue?: string;
};

export async function createWorker(deps: WorkerDeps): Promise<Worker> {
  return Worker.create({
    connection: deps.connection,
    namespace: deps.namespace,
    taskQueue: deps.taskQueue ?? TASK_QUEUES.main,
    ...(deps.workflowBundle ? { workflowBundle: deps.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
    // Chain activities mostly wait on I/O (a relay follow heartbeats for seconds): allow many at once.
    maxConcurrentActivityTaskExecutions: 500,
    activities: createActivities({ sql: deps.sql, temporal: deps.temporal, chain: deps.chain ?? {}, taskQueue: deps.taskQueue ?? TASK_QUEUES.main }),
  });
}
