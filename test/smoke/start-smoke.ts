// The README's first command, tried as a newcomer would and checked end to end
// (`npm run test:start`, run by .ci/run from its fresh clone before the suite):
//  1. `npm start`; wait for .data/dev.json and /openapi.json; the README's
//     example curl (create a plan with the printed key) answers 2xx; a payment
//     session's workflow gets its first workflow task done (the worker runs
//     workflows, not only started: a worker that died at start passed before);
//  2. Ctrl-C (SIGINT to the process group): every process it started is gone;
//  3. `npm start` again: the same key still works and the plan is still there;
//  4. a start killed outright (SIGKILL of the start script alone) right after
//     it seeded the demo merchant, then a start that comes up and works;
//  5. a start killed outright once it is up: its api, worker and indexer stop by
//     themselves (their stdin lifeline) and free the api's port; the next start
//     stops what is left and comes up;
// and stops. Any failed step fails the run with the start log's last lines.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { runningRecords, stillRunning, type RecordedProcess } from '../../tools/dev/leftovers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEV_FILE = join(ROOT, '.data', 'dev.json');
const PROCESSES_FILE = join(ROOT, '.data', 'processes.json');
const START_TIMEOUT_MS = 8 * 60_000; // a first start installs the Temporal binaries and builds the dashboard
const STOP_TIMEOUT_MS = 60_000;

type Start = { child: ChildProcess; log: string[]; exited: Promise<number | null> };
type Dev = { apiUrl: string; secretKey: string; merchantId: string; chain: { rpcUrl: string }; temporalAddress: string };

let current: Start | undefined;

function startNpm(): Start {
  // Its own process group, as a terminal gives it: SIGINT to the group is Ctrl-C.
  const child = spawn('npm', ['start'], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } });
  const log: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line) log.push(line);
    if (log.length > 400) log.splice(0, log.length - 400);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  current = { child, log, exited };
  return current;
}

function fail(message: string): never {
  const tail = current ? current.log.slice(-60).join('\n') : '(no start running)';
  process.stderr.write(`\nSTART SMOKE FAILED: ${message}\n--- last lines of the start log ---\n${tail}\n`);
  if (current?.child.pid) {
    try {
      process.kill(-current.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  process.exit(1);
}

async function waitUntil<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (current && current.child.exitCode !== null) fail(`npm start exited (code ${current.child.exitCode}) while waiting for ${what}`);
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) fail(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(500);
  }
}

function readDev(): Dev | undefined {
  if (!existsSync(DEV_FILE)) return undefined;
  const dev = JSON.parse(readFileSync(DEV_FILE, 'utf8')) as Partial<Dev>;
  return dev.apiUrl && dev.secretKey ? (dev as Dev) : undefined;
}

/** Waits for this start's closing lines (dev.json is written just before) and the api answering. */
async function waitReady(): Promise<Dev> {
  return waitUntil('.data/dev.json and /openapi.json', START_TIMEOUT_MS, async () => {
    const dev = readDev();
    if (!dev || !current!.log.some((line) => line.includes('Ctrl-C stops everything'))) return undefined;
    const response = await fetch(`${dev.apiUrl}/openapi.json`);
    return response.ok ? dev : undefined;
  });
}

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return false;
  } catch {
    return true;
  }
}

/** Which process listens on the url's port, for a failure message. */
function listenerOf(url: string): string {
  try {
    const port = new URL(url).port;
    const lines = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' }).trim();
    return lines ? `listening there: ${lines}` : 'nothing listens there now';
  } catch {
    return 'ss could not say who listens there';
  }
}

/** SIGKILL of the start script alone, as a closed terminal or an OOM kill would do. */
async function killStartScript(start: Start): Promise<number> {
  const startScript = runningRecords(PROCESSES_FILE).find((r) => r.name === 'start');
  if (!startScript) fail('the start script is not recorded in .data/processes.json');
  process.kill(startScript.pid, 'SIGKILL');
  await start.exited;
  current = undefined; // its npm has exited: waiting on anything now must not count that as a failure
  return startScript.pid;
}

async function interruptAndCheckGone(dev: Dev): Promise<void> {
  const started: RecordedProcess[] = runningRecords(PROCESSES_FILE);
  process.kill(-current!.child.pid!, 'SIGINT');
  const code = await Promise.race([current!.exited, sleep(STOP_TIMEOUT_MS).then(() => 'timeout' as const)]);
  if (code === 'timeout') fail(`npm start did not exit within ${STOP_TIMEOUT_MS / 1000} s of Ctrl-C`);
  const deadline = Date.now() + 15_000;
  let left = started.filter(stillRunning);
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(250);
    left = left.filter(stillRunning);
  }
  if (left.length > 0) fail(`processes still running after Ctrl-C: ${left.map((r) => `${r.name} (pid ${r.pid})`).join(', ')}`);
  for (const url of [dev.apiUrl, dev.chain.rpcUrl, `http://${dev.temporalAddress}`]) {
    if (!(await refused(url))) fail(`${url} still answers after Ctrl-C; ${listenerOf(url)}`);
  }
  console.log(`[smoke] Ctrl-C: npm start exited (${code}); its ${started.length} processes are gone and their ports closed`);
  current = undefined;
}

async function createPlan(dev: Dev): Promise<string> {
  // The README's example request.
  const response = await fetch(`${dev.apiUrl}/v1/subscription-plans`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${dev.secretKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'first-plan' },
    body: JSON.stringify({ name: 'Pro', amount: '10000000', interval: 'monthly' }),
  });
  const body = (await response.json()) as { id?: string };
  if (!response.ok || !body.id) fail(`the README's curl answered ${response.status}: ${JSON.stringify(body)}`);
  return body.id;
}

/** A payment session's workflow has a completed workflow task: the worker is up and runs workflows. */
async function expectWorkerRunsWorkflows(dev: Dev): Promise<string> {
  const response = await fetch(`${dev.apiUrl}/v1/payment-sessions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${dev.secretKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'smoke-session' },
    body: JSON.stringify({ amount: '1000000' }),
  });
  const body = (await response.json()) as { id?: string };
  if (!response.ok || !body.id) fail(`POST /v1/payment-sessions answered ${response.status}: ${JSON.stringify(body)}`);
  const connection = await Connection.connect({ address: dev.temporalAddress });
  try {
    const handle = new Client({ connection }).workflow.getHandle(body.id); // a session's workflow id is its id
    await waitUntil(`a workflow task of ${body.id} completed by the worker`, 90_000, async () => {
      const history = await handle.fetchHistory();
      return history.events?.some((event) => event.workflowTaskCompletedEventAttributes) ? true : undefined;
    });
  } finally {
    await connection.close();
  }
  return body.id;
}

async function expectPlan(dev: Dev, planId: string): Promise<void> {
  const response = await fetch(`${dev.apiUrl}/v1/subscription-plans/${planId}`, { headers: { Authorization: `Bearer ${dev.secretKey}` } });
  if (response.status !== 200) fail(`GET /v1/subscription-plans/${planId} answered ${response.status}: ${await response.text()}`);
}

const fresh = !existsSync(join(ROOT, '.data')) && !existsSync(join(ROOT, 'dashboard', 'dist'));
console.log(`[smoke] starting from ${fresh ? 'a fresh clone: no .data, no dashboard build' : 'an existing .data or dashboard build'}`);
// CI runs this first on its fresh clone, so the newcomer's path (a dashboard build inside npm start) is what it checks.
if (process.env.CI_FRESH_CLONE === '1' && !fresh)
  fail('expected a fresh clone (no .data, no dashboard/dist): run this before anything that builds or starts services');

// 1. First start, the README's curl.
let t = Date.now();
startNpm();
const first = await waitReady();
console.log(`[smoke] npm start is up in ${Math.round((Date.now() - t) / 1000)} s: ${first.apiUrl}`);
const planId = await createPlan(first);
console.log(`[smoke] the README's curl created ${planId}`);
console.log(`[smoke] the worker ran the first workflow task of payment session ${await expectWorkerRunsWorkflows(first)}`);

// 2. Ctrl-C.
await interruptAndCheckGone(first);

// 3. Again: same key, same data.
t = Date.now();
startNpm();
const second = await waitReady();
if (second.secretKey !== first.secretKey) fail('the second start printed a different secret key');
await expectPlan(second, planId);
console.log(`[smoke] second start up in ${Math.round((Date.now() - t) / 1000)} s; the same key reads ${planId}`);
await interruptAndCheckGone(second);

// 4. A start killed outright right after seeding, then a good one.
const killed = startNpm();
await waitUntil('the seed', START_TIMEOUT_MS, async () => (killed.log.some((l) => l.includes('demo merchant seeded')) ? true : undefined));
console.log(`[smoke] killed the start script (pid ${await killStartScript(killed)}) right after it seeded`);
t = Date.now();
startNpm();
const recovered = await waitReady();
if (recovered.secretKey !== first.secretKey) fail('the start after a killed one printed a different secret key');
await expectPlan(recovered, planId);
for (const line of current!.log.filter((l) => l.includes('left running by an earlier start'))) console.log(`[smoke]   ${line}`);
console.log(`[smoke] the start after the killed one is up in ${Math.round((Date.now() - t) / 1000)} s with the same key and data`);
await interruptAndCheckGone(recovered);

// 5. A start killed outright once up: the services go by themselves, the next start handles the rest.
const upThenKilled = startNpm();
const up = await waitReady();
const services = runningRecords(PROCESSES_FILE).filter((r) => ['api', 'worker', 'indexer'].includes(r.name));
if (services.length !== 3) fail(`expected api, worker and indexer recorded as running, found ${services.map((r) => r.name).join(', ')}`);
await killStartScript(upThenKilled);
await waitUntil('the services to stop after their start script was killed', STOP_TIMEOUT_MS, async () =>
  services.some(stillRunning) ? undefined : true,
);
if (!(await refused(up.apiUrl))) fail(`${up.apiUrl} still answers after its start script was killed; ${listenerOf(up.apiUrl)}`);
console.log('[smoke] killed a running start: its api, worker and indexer stopped by themselves and the api port is free');
startNpm();
const afterRunningKill = await waitReady();
await expectPlan(afterRunningKill, planId);
await interruptAndCheckGone(afterRunningKill);
console.log('[smoke] npm start works: first start, restart after Ctrl-C, and a start after a killed one (while seeding and once up)');
