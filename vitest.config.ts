import { defineConfig } from 'vitest/config';
import SlowestFirstSequencer from './test/support/slowest-first-sequencer.js';

export default defineConfig({
  test: {
    // Temporal's native bridge misbehaves in worker threads: one process per file.
    pool: 'forks',
    // Three files at once on two cores: most of a file's time is waiting (blocks, timers, processes
    // starting), so a third file uses what the other two leave idle (docs/decisions.md, "Test run time").
    maxWorkers: 3,
    globalSetup: ['test/support/global-setup.ts'],
    // Temporal's runtime logs go to .data/test-logs, not into the report.
    setupFiles: ['test/support/setup-temporal-runtime.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Slowest files first, so the workers end together (test/support/test-durations.json).
    sequence: { sequencer: SlowestFirstSequencer },
  },
});
