// Shared pieces of the benchmarks: a throwaway local Postgres, server child
// processes, and printing.
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, chmodSync, rmSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrate } from '../src/db/migrate.js';
import { freePort } from '../tools/dev/ports.js';
import { ensureDatabase } from '../src/db/databases.js';
import { startLocalPostgres } from '../tools/dev/postgres.js';
import { PROJECT_ROOT } from '../tools/dev/temporal.js';

export async function benchDatabase(): Promise<{ url: string; stop: () => Promise<void> }> {
  if (process.env.DATABASE_URL) {
    await migrate(process.env.DATABASE_URL);
    return { url: process.env.DATABASE_URL, stop: async () => {} };
  }
  mkdirSync(join(PROJECT_ROOT, '.data'), { recursive: true });
  const dir = mkdtempSync(join(PROJECT_ROOT, '.data', 'bench-'));
  chmodSync(dir, 0o755);
  const pg = await startLocalPostgres({ dataDir: dir, port: await freePort() });
  await ensureDatabase(pg.url('postgres'), 'bench');
  const url = pg.url('bench');
  await migrate(url);
  return {
    url,
    stop: async () => {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function startServer(entry: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = fork(join(PROJECT_ROOT, entry), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}`)));
  });
  return child;
}

/**
 * The worker as its own process (src/worker.ts), as it runs in production: its JavaScript gets a
 * core of its own instead of sharing the bench driver's thread. Resolves once it polls.
 */
export async function startWorkerProcess(env: Record<string, string>): Promise<{ pid: number; stop: () => Promise<void> }> {
  // BENCH_WORKER_PROFILE=dir: the worker writes a V8 CPU profile there when it stops (open it in Chrome DevTools).
  const profile = process.env.BENCH_WORKER_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_WORKER_PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', join(PROJECT_ROOT, 'src/worker.ts')], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.once('exit', () => child.kill('SIGKILL'));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('worker running')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the worker exited with ${code}`)));
  });
  return {
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

export { freePort };

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/**
 * CPU seconds used so far by every live process on the machine, summed by name (Linux /proc);
 * `roles` names processes by pid (the bench driver and the worker are both `node`). Two snapshots
 * around a timed window say where the machine's CPU went: on a CPU-bound run, the cost per item
 * bounds the rate more honestly than wall time alone. Empty where /proc is missing.
 */
export function cpuSnapshot(roles: Record<number, string> = {}): Map<string, number> {
  const byName = new Map<string, number>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return byName;
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // exited between the listing and the read
    }
    // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
    const name = roles[Number(pid)] ?? processName(pid, stat);
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const seconds = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    byName.set(name, (byName.get(name) ?? 0) + seconds);
  }
  return byName;
}

/** The command name; kernel threads (no command line) together, since their names change as they work. */
function processName(pid: string, stat: string): string {
  let cmdline = '';
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    // exited: keep its command name
  }
  return cmdline === '' ? 'kernel threads' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
}

/** A process's resident memory now and at its peak (VmRSS, VmHWM), in MiB; null where /proc is missing. */
export function processMemoryMiB(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** Milliseconds of CPU per item between two snapshots, by process name, largest first, with the total. */
export function cpuPerItem(before: Map<string, number>, after: Map<string, number>, items: number): Array<{ process: string; ms: number }> {
  const rows = [...after].map(([name, seconds]) => ({ process: name, ms: ((seconds - (before.get(name) ?? 0)) * 1000) / items }));
  const shown = rows.filter((row) => row.ms >= 0.05).sort((a, b) => b.ms - a.ms);
  return [...shown, { process: 'total', ms: shown.reduce((sum, row) => sum + row.ms, 0) }];
}

export function table(rows: Array<Record<string, string | number>>): void {
  console.table(rows);
}
