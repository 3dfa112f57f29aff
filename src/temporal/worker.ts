// Building the Temporal worker that runs every workflow and activity.
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import { fileURLToPath } from 'node:url';
import { createActivities } from '../../activities/index.js';
import type { WebhookActivityDeps } from '../../activities/webhooks.js';
import type { ChainConfig } from '../chain/config.js';
import type { Sql } from '../db/client.js';
import type { Mailer } from '../email/mailer.js';
import type { SubscriptionChain } from '../subscriptions/chain.js';

export const WORKFLOWS_PATH = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

export type WorkerDeps = {
  connection: NativeConnection;
  namespace: string;
  sql: Sql;
  temporal: Client;
  /** Sends queued email; a worker without one fails email activities (they retry). */
  mailer?: Mailer;
  /** Signing-secret key, target policy and HTTP options for webhook delivery. */
  webhooks?: WebhookActivityDeps['webhooks'];
  /** Chain settings per mode (relay activities). */
  chain?: ChainConfig;
  /** Base URL of the hosted checkout (pay links in invoice events); PUBLIC_BASE_URL. */
  publicBaseUrl?: string;
  /** A prebuilt bundle (tests build it once per file); otherwise bundled from source. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  taskQueue: string;
  /** Workflows kept in memory between tasks (TEMPORAL_WORKER_MAX_CACHED_WORKFLOWS); DEFAULT_MAX_CACHED_WORKFLOWS when absent. */
  maxCachedWorkflows?: number;
  /** The chain port of subscription charges (per-mode chain config). */
  subscriptionChain?: SubscriptionChain;
  /** SECRETS_ENCRYPTION_KEY: opens the sealed agent wallet keys (the development key when absent). */
  secretsEncryptionKey?: Buffer;
};

/** Workflow tasks one worker runs at once; the workflow cache must hold at least this many. */
const MAX_CONCURRENT_WORKFLOW_TASKS = 500;
/**
 * The SDK sizes its cache from the heap limit (about 2,300 workflows under Node's default 4 GiB heap),
 * so memory grew with open subscriptions up to that; a fixed cap keeps it flat in their number.
 */
export const DEFAULT_MAX_CACHED_WORKFLOWS = 1000;

/**
 * How long one call into a workflow sandbox may run before the SDK's deadlock detector stops it (the
 * SDK's 5 s is not a public option; it is read from the options it is given). The detector stops the
 * sandbox inside a promise reaction, which leaves Node's async-hook stack unbalanced, and the next
 * message to that workflow thread aborts the whole worker process: 'async hook stack has become
 * corrupted' (sdk-typescript issue 939; reproduced in test/workflows/sandbox-timeout.test.ts). On a
 * loaded machine a 5 s activation is a GC pause or a starved CPU, not a deadlock, and it killed the
 * worker 9,140 charges into a renewal-day run; no workflow of ours loops, so 60 s still catches a bug.
 */
export const WORKFLOW_SANDBOX_TIMEOUT_MS = 60_000;
const sandboxOptions = { isolateExecutionTimeout: WORKFLOW_SANDBOX_TIMEOUT_MS };

export async function createWorker(deps: WorkerDeps): Promise<Worker> {
  return Worker.create({
    ...sandboxOptions,
    connection: deps.connection,
    namespace: deps.namespace,
    taskQueue: deps.taskQueue,
    ...(deps.workflowBundle ? { workflowBundle: deps.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
    // Chain activities mostly wait on I/O (a relay follow heartbeats for seconds): allow many at once,
    // and poll with enough concurrency to keep those slots filled when tasks pile up.
    maxConcurrentActivityTaskExecutions: 500,
    maxConcurrentActivityTaskPolls: 40,
    // A subscription charge is a local activity inside its workflow task, which stays open while the
    // charge waits for its batch and block (seconds): enough slots for a few batches of 100 at once.
    maxConcurrentWorkflowTaskExecutions: MAX_CONCURRENT_WORKFLOW_TASKS,
    maxConcurrentLocalActivityExecutions: 500,
    maxCachedWorkflows: Math.max(deps.maxCachedWorkflows ?? DEFAULT_MAX_CACHED_WORKFLOWS, MAX_CONCURRENT_WORKFLOW_TASKS),
    maxConcurrentWorkflowTaskPolls: 20,
    activities: createActivities({
      sql: deps.sql,
      temporal: deps.temporal,
      taskQueue: deps.taskQueue,
      mailer: deps.mailer,
      webhooks: deps.webhooks,
      chain: deps.chain ?? {},
      subscriptionChain: deps.subscriptionChain,
      ...(deps.secretsEncryptionKey ? { secretsEncryptionKey: deps.secretsEncryptionKey } : {}),
      ...(deps.publicBaseUrl ? { publicBaseUrl: deps.publicBaseUrl } : {}),
    }),
  });
}
