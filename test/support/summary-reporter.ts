// Prints one plain closing line, "N passed, N failed" (", N skipped" when
// any), that any CI reads. A failure is a failed test, a test that never ran
// because a hook of its suite or file failed, a file that failed to load
// (counted once), or an error vitest caught outside any test. With
// UPDATE_TEST_DURATIONS=1 it also writes each file's time into the list the
// slowest-first sequencer orders the next run by.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node';
import { TEST_DURATIONS_PATH, readTestDurations, type TestDurations } from './slowest-first-sequencer.js';

export type RunTally = { passed: number; failed: number; skipped: number; reasons: string[] };

/** True when the test's file or one of its suites failed outside any test (a hook, an import). */
function blockedBySuite(test: TestCase): boolean {
  for (let parent: TestCase['parent'] = test.parent; ; parent = parent.parent) {
    if (parent.errors().length > 0) return true;
    if (parent.type === 'module') return false;
  }
}

export function tallyRun(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): RunTally {
  const tally: RunTally = { passed: 0, failed: 0, skipped: 0, reasons: [] };
  for (const module of testModules) {
    let testsInModule = 0;
    for (const test of module.children.allTests()) {
      testsInModule++;
      const state = test.result().state;
      if (state === 'passed') tally.passed++;
      else if (state === 'failed' || blockedBySuite(test)) {
        tally.failed++;
        if (state !== 'failed')
          tally.reasons.push(`did not run (a hook or the file failed): ${module.relativeModuleId} > ${test.fullName}`);
      } else tally.skipped++;
    }
    const moduleErrors = [module, ...module.children.allSuites()].flatMap((entity) => entity.errors());
    if (testsInModule === 0 && (moduleErrors.length > 0 || module.state() === 'failed')) {
      tally.failed++;
      tally.reasons.push(`failed to load: ${module.relativeModuleId}`);
    }
  }
  for (const error of unhandledErrors) {
    tally.failed++;
    tally.reasons.push(`error outside any test: ${error.message}`);
  }
  return tally;
}

/**
 * A file's whole cost to a worker in seconds: its tests and hooks, and its import and setup files. At least 0.1: a
 * file that ran cost something, and a 0 would read as "never measured" to the sequencer and its test.
 */
function fileSeconds(module: TestModule): number {
  const d = module.diagnostic();
  const tenths = Math.round((d.duration + d.collectDuration + d.setupDuration + d.prepareDuration + d.environmentSetupDuration) / 100);
  return Math.max(1, tenths) / 10;
}

/**
 * The list with the files of this run measured anew; files that did not run keep their figure,
 * files that no longer exist are dropped. Keys sorted, so a refresh diffs line by line.
 */
export function mergeDurations(
  previous: TestDurations,
  measured: ReadonlyArray<{ path: string; seconds: number }>,
  exists: (path: string) => boolean,
): TestDurations {
  const merged: TestDurations = { ...previous };
  for (const { path, seconds } of measured) merged[path] = seconds;
  return Object.fromEntries(
    Object.entries(merged)
      .filter(([path]) => exists(path))
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

function updateDurations(root: string, testModules: ReadonlyArray<TestModule>): void {
  const path = join(root, TEST_DURATIONS_PATH);
  const measured = testModules.map((m) => ({ path: m.relativeModuleId, seconds: fileSeconds(m) }));
  const merged = mergeDurations(readTestDurations(path), measured, (file) => existsSync(join(root, file)));
  writeFileSync(path, `${JSON.stringify(merged, null, 2)}\n`);
  process.stdout.write(`test durations of ${measured.length} files written to ${TEST_DURATIONS_PATH}\n`);
}

export default class SummaryReporter implements Reporter {
  private root = process.cwd();

  onInit(vitest: { config: { root: string } }) {
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>) {
    const tally = tallyRun(testModules, unhandledErrors);
    // The suite's time budget is spent in a few files: name them, so the next one to split is plain.
    const slowest = [...testModules].sort((a, b) => b.diagnostic().duration - a.diagnostic().duration).slice(0, 15);
    if (testModules.length > 1) {
      process.stdout.write(`\nslowest files:\n`);
      for (const m of slowest)
        process.stdout.write(`  ${(m.diagnostic().duration / 1000).toFixed(1).padStart(6)} s  ${m.relativeModuleId}\n`);
    }
    if (process.env.UPDATE_TEST_DURATIONS === '1') updateDurations(this.root, testModules);
    for (const reason of tally.reasons) process.stdout.write(`${reason}\n`);
    const skipped = tally.skipped > 0 ? `, ${tally.skipped} skipped` : '';
    process.stdout.write(`\n${tally.passed} passed, ${tally.failed} failed${skipped}\n`);
  }
}
