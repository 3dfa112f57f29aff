// A real worker on the suite's Temporal dev server, on a task queue of its
// own so test files running side by side never take each other's tasks.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { inject } from 'vitest';
import type { ChainConfig } from '../../src/chain/config.js';
import type { Sql } from '../../src/db/client.js';
import type { SubscriptionChain } from '../../src/subscriptions/chain.js';
import { createWorker, type WorkerDeps } from '../../src/temporal/worker.js';
import { loadConfig } from '../../src/config.js';
import type { Mailer } from '../../src/email/mailer.js';

let bundle: Promise<{ code: string }> | undefined;

/** Webhook delivery settings of a development worker (the dev-only encryption key). */
export function testWebhookSettings(): WorkerDeps['webhooks'] {
  const config = loadConfig({ DATABASE_URL: 'postgres://unused' });
  return { encryptionKey: config.webhooks.secretEncryptionKey, allowPrivateTargets: false };
}

/** The workflow code the global setup bundled once for the whole run. */
export function workflowBundle(): Promise<{ code: string }> {
  bundle ??= readFile(inject('workflowBundlePath'), 'utf8').then((code) => ({ code }));
  return bundle;
}

export type DevServerWorker = {
  client: Client;
  taskQueue: string;
  worker: Worker;
  running: Promise<void>;
  stop: () => Promise<void>;
};

export async function startDevServerWorker(
  sql: Sql,
  options: {
    chain?: ChainConfig;
    subscriptionChain?: SubscriptionChain;
    mailer?: Mailer;
    /** Webhook delivery settings over testWebhookSettings() (a resolver, a receiver's CA, private targets). */
    webhooks?: Partial<NonNullable<WorkerDeps['webhooks']>>;
  } = {},
): Promise<DevServerWorker> {
  const address = inject('temporalAddress');
  const taskQueue = `test-${randomBytes(4).toString('hex')}`;
  const client = new Client({ connection: await Connection.connect({ address }) });
  const connection = await NativeConnection.connect({ address });
  const worker = await createWorker({
    connection,
    namespace: 'default',
    sql,
    temporal: client,
    taskQueue,
    workflowBundle: await workflowBundle(),
    webhooks: { ...testWebhookSettings()!, ...options.webhooks },
    ...(options.chain ? { chain: options.chain } : {}),
    ...(options.subscriptionChain ? { subscriptionChain: options.subscriptionChain } : {}),
    ...(options.mailer ? { mailer: options.mailer } : {}),
  });
  const running = worker.run();
  return {
    client,
    taskQueue,
    worker,
    running,
    stop: async () => {
      worker.shutdown();
      await running;
      await connection.close();
      await client.connection.close();
    },
  };
}
