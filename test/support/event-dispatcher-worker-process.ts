// A worker in its own process, for the test that kills the event dispatcher's
// worker mid-batch. Its dispatchEventBatch starts HANG_AFTER_STARTS delivery
// runs, prints "starts-made", and then never gets an answer to any further
// start, so the batch's transaction stays open (nothing marked dispatched) until
// the test SIGKILLs the process. It has no webhook settings: a delivery run it
// picks up fails its attempt before sending and is retried by the next worker,
// so every request the receiver sees comes from the replacement worker.
import { readFile } from 'node:fs/promises';
import { NativeConnection, Worker } from '@temporalio/worker';
import { Client, Connection } from '@temporalio/client';
import { createActivities } from '../../activities/index.js';
import { createSql } from '../../src/db/client.js';
import { installTestRuntime } from './temporal-logging.js';

installTestRuntime(); // this process's Temporal logs go to the run's log file, like the test processes'

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const sql = createSql(env('DATABASE_URL'), { max: 4 });
const client = new Client({ connection: await Connection.connect({ address: env('TEMPORAL_ADDRESS') }) });
const hangAfter = Number(env('HANG_AFTER_STARTS'));
let starts = 0;
// The client the activities see: workflow starts beyond the first HANG_AFTER_STARTS never return.
const workflow = Object.create(client.workflow, {
  start: {
    value: async (...args: Parameters<Client['workflow']['start']>) => {
      if (++starts > hangAfter) {
        if (starts === hangAfter + 1) process.stdout.write('starts-made\n');
        return new Promise<never>(() => {});
      }
      return client.workflow.start(...args);
    },
  },
}) as Client['workflow'];
const hanging = Object.create(client, { workflow: { value: workflow } }) as Client;

const worker = await Worker.create({
  connection: await NativeConnection.connect({ address: env('TEMPORAL_ADDRESS') }),
  taskQueue: env('TASK_QUEUE'),
  workflowBundle: { code: await readFile(env('WORKFLOW_BUNDLE_PATH'), 'utf8') },
  activities: createActivities({ sql, temporal: hanging, taskQueue: env('TASK_QUEUE'), events: { dispatch: async () => {} } }),
});
process.stdout.write('worker-ready\n');
await worker.run();
