// Vitest setup file: every test process that may talk to Temporal routes its runtime logs to a
// file. Unit test files (*.unit.test.ts: pure logic, no Temporal) skip it: importing the
// Temporal worker package and its native bridge costs them a second or more each.
import { expect } from 'vitest';

const testPath = expect.getState().testPath ?? '';
if (!testPath.endsWith('.unit.test.ts')) {
  const { installTestRuntime } = await import('./temporal-logging.js');
  installTestRuntime();
}
