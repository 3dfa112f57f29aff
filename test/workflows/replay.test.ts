// Replays recorded histories of the long-lived workflows (subscriptions, their
// on-chain cancel and renewals, relay submissions, invoices, payment sessions,
// webhook deliveries, event dispatch and its dispatcher, the outbox sweep, agent jobs) against the current workflow code: a change that would break
// running workflows (a non-deterministic edit) fails here. Histories are recorded
// by the workflows' own tests with RECORD_HISTORIES=1 (test/support/histories.ts);
// keep old ones when a workflow changes compatibly (behind a patch), so every shape
// still running is covered. The `base` shape is the one released with no patch
// left (docs/operations.md, "Workflow shapes").
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
    // Subscriptions: two periods, at_risk then topped up, lapsed, cancelled in the trial, the agent's recovery
    // (recovered and lapsed), a renewal after a low allowance, on a test clock, charged after a trial before
    // the trial_will_end notice and with it (patch trial-will-end-notice).
    expect(count('subscription-')).toBeGreaterThanOrEqual(12);
    expect(count('subscription-trial-')).toBeGreaterThanOrEqual(2);
    expect(count('subscription-onchain-cancel')).toBeGreaterThanOrEqual(2);
    expect(count('subscription-allowance-renewal')).toBeGreaterThanOrEqual(1);
    expect(count('subscription-recovery.')).toBeGreaterThanOrEqual(2);
    expect(count('subscription-agent-')).toBeGreaterThanOrEqual(2);
    expect(count('relay-')).toBeGreaterThanOrEqual(3);
    expect(count('invoice-')).toBeGreaterThanOrEqual(3);
    expect(count('payment-session-')).toBeGreaterThanOrEqual(5);
    expect(count('refund-')).toBeGreaterThanOrEqual(2);
    expect(count('webhook-delivery-')).toBeGreaterThanOrEqual(2);
    expect(count('event-dispatch.')).toBeGreaterThanOrEqual(1); // dispatchEventWorkflow, one per event (still registered)
    expect(count('event-dispatcher.')).toBeGreaterThanOrEqual(2); // the dispatcher: first wake-up, and a batch re-run after its worker was killed
    expect(count('outbox-sweep.')).toBeGreaterThanOrEqual(1);
    // Agent jobs: completed, disputed, refunded after expiry, proposal expired, funding failed.
    expect(count('agent-job.')).toBeGreaterThanOrEqual(5);
    expect(count('agent-daily.')).toBeGreaterThanOrEqual(1);
    expect(count('test-clock.')).toBeGreaterThanOrEqual(1);
  });

  it.each(files)('replays %s against the current code', async (file) => {
    // Decoded with the proto classes (historyFromJSON trips over two protobufjs versions in node_modules).
    const history = proto.temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(`${HISTORIES_DIR}${file}`, 'utf8')));
    expect(history.events.length).toBeGreaterThan(5);
    await expect(Worker.runReplayHistory({ workflowBundle: bundle }, history, file.replace(/\.json$/, ''))).resolves.toBeUndefined();
  });
});
