// The OpenAPI document says exactly what the server accepts: schemathesis (an outside fuzzer,
// pinned in .ci/run) runs every check against every operation of /openapi.json, on a real stack
// (Postgres, the Temporal dev server with a worker, the shared anvil with Circle's USDC) with the
// rate limits raised. A bounded example count keeps the run to a few minutes; raise it with
// SCHEMATHESIS_MAX_EXAMPLES to fuzz harder.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, sharedChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';

const TOOL_DIR = fileURLToPath(new URL('../../.tools/schemathesis', import.meta.url));
const ST = `${TOOL_DIR}/bin/st`;
/** anvil's second account: any valid address does, nothing is paid out in the run. */
const PAYOUT_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const MAX_EXAMPLES = process.env.SCHEMATHESIS_MAX_EXAMPLES ?? '3';
const CONFIG_FILE = fileURLToPath(new URL('./schemathesis.toml', import.meta.url));
/**
 * The bounded run of the suite: fuzzing and stateful phases (about a minute). The coverage phase walks
 * every schema keyword and takes several minutes on a shared machine: SCHEMATHESIS_PHASES=all runs it too.
 */
const PHASES =
  process.env.SCHEMATHESIS_PHASES === 'all'
    ? 'examples,coverage,fuzzing,stateful'
    : (process.env.SCHEMATHESIS_PHASES ?? 'fuzzing,stateful');

/** The pinned version (.ci/run installs the same one up front); a newcomer's `npm test` installs it here. */
const SCHEMATHESIS_VERSION = '4.32.5';

function installSchemathesisOnce(): void {
  if (existsSync(ST)) return;
  const result = spawnSync(
    'python3',
    ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--target', TOOL_DIR, `schemathesis==${SCHEMATHESIS_VERSION}`],
    { stdio: 'inherit' },
  );
  if (result.status !== 0 || !existsSync(ST))
    throw new Error(`installing schemathesis ${SCHEMATHESIS_VERSION} into .tools/schemathesis with pip failed`);
}

let db: TestDatabase;
let w: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let baseUrl: string;

beforeAll(async () => {
  installSchemathesisOnce();
  db = await createTestDatabase();
  const chain = { test: settingsOf(sharedChain()) };
  w = await startDevServerWorker(db.sql, { chain });
  // The api also reads a live chain (the same anvil under live settings), so the public token reads'
  // `mode=live` is fuzzed like `test`; the run's key is a test key, so nothing else acts in live mode.
  const live = settingsOf(sharedChain(), { mode: 'live', livemode: true });
  t = await createTestApp(db.sql, { temporal: w.client, taskQueue: w.taskQueue, chain: { ...chain, live } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  merchant = await seedMerchant(db.sql);
  // Onboarded enough to take payments: sessions, invoices and enrolments need a payout address.
  await setPayoutAddress(db.sql, merchant.merchantId, PAYOUT_ADDRESS);
});
afterAll(async () => {
  await t?.close();
  await w?.stop();
  await db?.drop();
});

function runSchemathesis(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(ST, args, {
      env: { ...process.env, PYTHONPATH: TOOL_DIR, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

it('finds no failure of any check on any operation', async () => {
  const { code, output } = await runSchemathesis([
    '--config-file',
    CONFIG_FILE,
    'run',
    `${baseUrl}/openapi.json`,
    '--phases',
    PHASES,
    '--url',
    baseUrl,
    // Every check (schemathesis 4 runs all by default); not named here, so the per-operation settings of the config file apply.
    '--max-examples',
    MAX_EXAMPLES,
    '--header',
    `Authorization: Bearer ${merchant.secretKey}`,
    '--workers',
    '2',
    '--request-timeout',
    '30',
    '--seed',
    process.env.SCHEMATHESIS_SEED ?? '28',
    '--output-truncate',
    'false',
  ]);
  // The report: in full on failure, its summary otherwise (what ran, and that it passed).
  console.log(code === 0 ? output.slice(output.indexOf('Operations:')) : output);
  expect(output).toMatch(/No issues found|passed/);
  expect(code, output.slice(-4000)).toBe(0);
}, 600_000);
