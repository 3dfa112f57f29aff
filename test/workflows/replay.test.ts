// Replays recorded histories of the long-lived workflows (subscriptions, their
// on-chain cancel, relay submissions) against the current workflow code: a change that would break
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
  it('has recorded histories of the subscription and relay workflows', () => {
    expect(files.filter((f) => f.startsWith('subscription-')).length).toBeGreaterThanOrEqual(4);
    expect(files.filter((f) => f.startsWith('relay-')).length).toBeGreaterThanOrEqual(2);
    expect(files.filter((f) => f.startsWith('subscription-onchain-cancel')).length).toBeGreaterThanOrEqual(2);
  });

  it.each(files)('replays %s against the current code', async (file) => {
    // Decoded with the proto classes (historyFromJSON trips over two protobufjs versions in node_modules).
    const history = proto.temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(`${HISTORIES_DIR}${file}`, 'utf8')));
    expect(history.events.length).toBeGreaterThan(5);
    await expect(Worker.runReplayHistory({ workflowBundle: bundle }, history, file.replace(/\.json$/, ''))).resolves.toBeUndefined();
  });
});
