// Replays recorded histories of the long-lived workflows (subscriptions, their
// on-chain cancel and renewals, relay submissions, invoices, payment sessions,
// webhook deliveries, event dispatch and its dispatcher, the outbox sweep, agent jobs) against the current workflow code: a change that would break
// running workflows (a non-deterministic edit) fails here. Histories are recorded
// by the workflows' own tests with RECORD_HISTORIES=1 (test/support/histories.ts);
// keep old ones when a workflow changes compatibly, so every shape still running
// is covered.
import { readdirSync, readFileSync } from 'node:fs';
import proto from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { workflowBundle } from '../support/temporal.js';
import { HISTORIES_DIR } from '../support/histories.js';

const files = readdirSync(HISTORIES_DIR).filter((f) => f.endsWith('.json'));

let bundle: { code: string };
beforeAll(async () => {
  bundle = await workflowBundle();
});

describe('workflow replay', () => {
  it('has recorded histories of every workflow type that outlives a request', () => {
    const count = (prefix: string) => files.filter((f) => f.startsWith(prefix)).length;
    expect(count('subscription-')).toBeGreaterThanOrEqual(4);
    expect(count('subscription-onchain-cancel')).toBeGreaterThanOrEqual(2);
    expect(count('subscription-allowance-renewal')).toBeGreaterThanOrEqual(1);
    expect(count('relay-')).toBeGreaterThanOrEqual(2);
    // Invoices: recorded before (per-signal-delivery) and after (one-delivery) the one-delivery-at-a-time patch.
    expect(count('invoice-')).toBeGreaterThanOrEqual(4);
    expect(count('payment-session-')).toBeGreaterThanOrEqual(3);
    expect(count('webhook-delivery-')).toBeGreaterThanOrEqual(2);
    expect(count('event-dispatch.')).toBeGreaterThanOrEqual(1); // dispatchEventWorkflow, one per event before the dispatcher
    expect(count('event-dispatcher.')).toBeGreaterThanOrEqual(2); // the dispatcher: first wake-up, and a batch re-run after its worker was killed
    // The sweep before (a dispatch workflow per missed event) and after (wakes the dispatcher) the patch event-dispatcher.
    expect(count('outbox-sweep.')).toBeGreaterThanOrEqual(2);
    // Agent jobs: completed, disputed, refunded after expiry, proposal expired, funding failed.
    expect(count('agent-job.')).toBeGreaterThanOrEqual(5);
    // The agents' recovery of an at_risk period (child of the subscription, patch agent-recovery) and their daily run.
    expect(count('subscription-recovery.')).toBeGreaterThanOrEqual(2);
    expect(count('subscription-agent-')).toBeGreaterThanOrEqual(2);
    expect(count('agent-daily.')).toBeGreaterThanOrEqual(1);
  });

  it.each(files)('replays %s against the current code', async (file) => {
    // Decoded with the proto classes (historyFromJSON trips over two protobufjs versions in node_modules).
    const history = proto.temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(`${HISTORIES_DIR}${file}`, 'utf8')));
    expect(history.events.length).toBeGreaterThan(5);
    await expect(Worker.runReplayHistory({ workflowBundle: bundle }, history, file.replace(/\.json$/, ''))).resolves.toBeUndefined();
  });
});
