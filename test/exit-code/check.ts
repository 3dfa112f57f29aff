// Regression check for the test command's exit code: runs vitest, as
// `npm test` does, with the real config on fixtures that fail three ways (an
// assertion, a beforeAll hook, a file that fails to load), and asserts that
// the run exits non-zero and the summary counts every failure.
// Run by .ci/run before the suite: `npm run test:exit-code`.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const EXPECTED_SUMMARY = '1 passed, 4 failed';

const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/exit-code/vitest.config.ts'], {
  cwd: root,
  encoding: 'utf8',
  env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
});
const output = `${run.stdout}\n${run.stderr}`;
const summary = run.stdout.trim().split('\n').at(-1)?.trim();

const problems: string[] = [];
if (run.status === 0 || run.status === null) problems.push(`vitest exited with ${run.status ?? run.signal}, expected a non-zero code`);
if (summary !== EXPECTED_SUMMARY) problems.push(`the closing line was "${summary}", expected "${EXPECTED_SUMMARY}"`);

if (problems.length > 0) {
  process.stderr.write(`${output}\n\nThe test command's exit code check FAILED:\n- ${problems.join('\n- ')}\n`);
  process.exit(1);
}
process.stdout.write(`The test command goes red: a failing run exited with code ${run.status} and reported "${summary}".\n`);
