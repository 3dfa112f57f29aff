// A worker in its own process, for the test that kills a worker mid-charge.
// With HANG_AFTER_CHARGE=1 its charge activity sends the transaction, prints
// "charge-sent", and never reports back, so the test can SIGKILL it in the
// window between the on-chain charge and the activity's completion. With
// ESCROW (and CHAIN_ID, TOKEN) set it also has the chain settings the agent
// job activities need (test/agents/agent-job-crash.test.ts).
import { readFile } from 'node:fs/promises';
import { NativeConnection, Worker } from '@temporalio/worker';
import { Client, Connection } from '@temporalio/client';
import type { Address, Hex } from 'viem';
import { createActivities } from '../../activities/index.js';
import { createSql } from '../../src/db/client.js';
import { createViemSubscriptionChain, type SubscriptionChain } from '../../src/subscriptions/chain.js';
import { devChainSettings } from '../../tools/dev/chain/settings.js';
import { installTestRuntime } from './temporal-logging.js';

installTestRuntime(); // this process's Temporal logs go to the run's log file, like the test processes'

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const sql = createSql(env('DATABASE_URL'), { max: 4 });
const real = await createViemSubscriptionChain(
  {
    test: {
      rpcUrl: env('RPC_URL'),
      operatorKey: env('OPERATOR_KEY') as Hex,
      subscriptionManager: env('SUBSCRIPTION_MANAGER') as Address,
      pollingIntervalMs: 50,
    },
  },
  { sql },
);
const subscriptionChain: SubscriptionChain = process.env.HANG_AFTER_CHARGE
  ? {
      ...real,
      charge: async (input) => {
        await real.charge(input);
        process.stdout.write('charge-sent\n');
        return new Promise<never>(() => {});
      },
    }
  : real;

const client = new Client({ connection: await Connection.connect({ address: env('TEMPORAL_ADDRESS') }) });
const worker = await Worker.create({
  connection: await NativeConnection.connect({ address: env('TEMPORAL_ADDRESS') }),
  taskQueue: env('TASK_QUEUE'),
  workflowBundle: { code: await readFile(env('WORKFLOW_BUNDLE_PATH'), 'utf8') },
  activities: createActivities({
    sql,
    temporal: client,
    taskQueue: env('TASK_QUEUE'),
    subscriptionChain,
    events: { dispatch: async () => {} },
    ...(process.env.ESCROW
      ? {
          chain: {
            test: devChainSettings({
              rpcUrl: env('RPC_URL'),
              chainId: Number(env('CHAIN_ID')),
              token: env('TOKEN') as Address,
              subscriptionManager: env('SUBSCRIPTION_MANAGER') as Address,
              escrow: env('ESCROW') as Address,
            }),
          },
        }
      : {}),
  }),
  // No sticky cache: the time-skipping server does not time out a dead worker's sticky queue,
  // so the workflow's next task must go to the normal queue the replacement worker polls.
  maxCachedWorkflows: 0,
});
process.stdout.write('worker-ready\n');
await worker.run();
