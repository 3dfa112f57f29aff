// Shared pieces of the benchmarks: a throwaway local Postgres, server child
// processes, and printing.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, chmodSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { migrate } from '../src/db/migrate.js';
import { freePort } from '../src/dev/ports.js';
import { ensureDatabase, startLocalPostgres } from '../src/dev/postgres.js';
import { PROJECT_ROOT } from '../src/dev/temporal.js';

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
export async function startWorkerProcess(env: Record<string, string>): Promise<{ stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'src/worker.ts')], {
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
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

export { freePort };

export function table(rows: Array<Record<string, string | number>>): void {
  console.table(rows);
}
