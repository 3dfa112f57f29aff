// Building the Temporal worker that runs every workflow and activity.
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import { fileURLToPath } from 'node:url';
import { createActivities } from '../../activities/index.js';
import type { Sql } from '../db/client.js';
import type { SubscriptionChain } from '../subscriptions/chain.js';

export const WORKFLOWS_PATH = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

export type WorkerDeps = {
  connection: NativeConnection;
  namespace: string;
  sql: Sql;
  temporal: Client;
  /** A prebuilt bundle (tests build it once per file); otherwise bundled from source. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  taskQueue: string;
  /** The chain port of subscription charges (per-mode chain config). */
  subscriptionChain?: SubscriptionChain;
};

export async function createWorker(deps: WorkerDeps): Promise<Worker> {
  return Worker.create({
    connection: deps.connection,
    namespace: deps.namespace,
    taskQueue: deps.taskQueue,
    ...(deps.workflowBundle ? { workflowBundle: deps.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
    activities: createActivities({ sql: deps.sql, temporal: deps.temporal, taskQueue: deps.taskQueue, subscriptionChain: deps.subscriptionChain }),
  });
}
