// Keeps the Temporal SDK's logs out of the test report: the worker's
// "Worker state changed" lines and core's warnings (the time-skipping server
// lacks a heartbeat capability) go to a log file; errors still reach stderr.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DefaultLogger, Runtime, makeTelemetryFilterString, type LogEntry } from '@temporalio/worker';
import { PROJECT_ROOT } from '../../tools/dev/temporal.js';

/** Where a test run's Temporal runtime logs go (one file per run, appended by every test process). */
export const TEMPORAL_TEST_LOG = join(PROJECT_ROOT, '.data', 'test-logs', 'temporal.log');

/** The workflow bundler's logger: silent but for errors. */
export const quietBundlerLogger = {
  log: () => {},
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: (message: string) => console.error(message),
};

/** bigints as strings; errors with their message and cause (JSON.stringify writes an Error as `{}`). */
function readableValue(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) return { name: value.name, message: value.message, ...(value.cause ? { cause: value.cause } : {}) };
  return value;
}

function writeEntry(entry: LogEntry): void {
  const line = `${new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString()} [${entry.level}] ${entry.message} ${JSON.stringify(entry.meta ?? {}, readableValue)}\n`;
  appendFileSync(TEMPORAL_TEST_LOG, line);
  if (entry.level === 'ERROR') process.stderr.write(line);
}

/** Installs the runtime once per test process, before any native connection or worker exists. */
export function installTestRuntime(): void {
  mkdirSync(join(PROJECT_ROOT, '.data', 'test-logs'), { recursive: true });
  Runtime.install({
    logger: new DefaultLogger('INFO', writeEntry),
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'WARN', other: 'WARN' }), forward: {} } },
  });
}
