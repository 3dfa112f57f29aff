// Replays recorded histories of the subscription workflow against the current
// workflow code: a change that would break running subscriptions (a
// non-deterministic edit) fails here. Histories are recorded by
// test/workflows/subscription.test.ts with RECORD_HISTORIES=1; keep old ones
// when the workflow changes compatibly, so every shape still running is covered.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import proto from '@temporalio/proto';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { WORKFLOWS_PATH } from '../../src/temporal/worker.js';

const DIR = fileURLToPath(new URL('../fixtures/histories/', import.meta.url));
const files = readdirSync(DIR).filter((f) => f.startsWith('subscription-') && f.endsWith('.json'));

let bundle: { code: string };
beforeAll(async () => {
  bundle = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error } });
});

describe('subscription workflow replay', () => {
  it('has recorded histories to replay', () => {
    expect(files.length).toBeGreaterThanOrEqual(4);
  });

  it.each(files)('replays %s against the current code', async (file) => {
    // Decoded with the proto classes (historyFromJSON trips over two protobufjs versions in node_modules).
    const history = proto.temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(`${DIR}${file}`, 'utf8')));
    expect(history.events.length).toBeGreaterThan(5);
    await expect(Worker.runReplayHistory({ workflowBundle: bundle }, history, file.replace(/\.json$/, ''))).resolves.toBeUndefined();
  });
});
