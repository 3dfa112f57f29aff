// Why the worker's sandbox deadlock timeout is 60 s (src/temporal/worker.ts): the Temporal SDK runs each
// workflow activation with `vm.runInContext(..., { timeout })` inside a worker thread that has promise
// hooks on. When the timeout stops the sandbox inside a promise reaction, that reaction's async context is
// never popped, and the next message to the thread aborts the whole process. This is Node's mechanism on
// its own, in a child process (the abort cannot be caught): the slow reaction inside the timeout is
// harmless, the same reaction cut by the timeout kills the process with the error the renewal-day
// benchmark's worker died of.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** A worker thread that, per message, runs a sandbox whose promise reaction spins for `spinMs`, under `timeoutMs`. */
const program = (spinMs: number, timeoutMs: number) => `
const { Worker, isMainThread, parentPort } = require('node:worker_threads');
const vm = require('node:vm');
const { createHook } = require('node:async_hooks');
if (isMainThread) {
  const worker = new Worker(__filename);
  worker.on('message', (n) => {
    console.log('activation ' + n + ' answered');
    if (n < 3) worker.postMessage(n + 1);
    else worker.terminate();
  });
  worker.postMessage(0);
} else {
  createHook({ init() {} }).enable(); // promise hooks on, as the SDK's stack-trace tracking has them
  const context = vm.createContext({}, { microtaskMode: 'afterEvaluate' });
  const activation = new vm.Script('Promise.resolve().then(() => { const t = Date.now(); while (Date.now() - t < ${spinMs}) {} })');
  parentPort.on('message', (n) => {
    try {
      activation.runInContext(context, { timeout: ${timeoutMs} });
    } catch (error) {
      console.log('sandbox stopped: ' + error.message);
    }
    parentPort.postMessage(n);
  });
}`;

function run(spinMs: number, timeoutMs: number) {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-timeout-'));
  try {
    const file = join(dir, 'program.cjs');
    writeFileSync(file, program(spinMs, timeoutMs));
    const child = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 30_000 });
    return { status: child.status, signal: child.signal, output: `${child.stdout}${child.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a workflow sandbox stopped by its timeout', () => {
  it('is harmless when the slow activation ends within the timeout', () => {
    const { status, output } = run(300, 5_000);
    expect(output).toMatch(/activation 3 answered/);
    expect(output).not.toMatch(/sandbox stopped|corrupted/);
    expect(status).toBe(0);
  });

  it('aborts the whole process with a corrupted async-hook stack when the timeout cuts a promise reaction', () => {
    const { status, signal, output } = run(1_000, 100);
    expect(output).toMatch(/sandbox stopped: Script execution timed out after 100ms/);
    expect(output).toMatch(/async hook stack has become corrupted/);
    expect(output).not.toMatch(/activation 3 answered/);
    expect(status === 0 && signal === null).toBe(false);
  });
});
