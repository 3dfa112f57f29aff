// Shared pieces of the benchmarks: a throwaway local Postgres, server child
// processes, and printing.
import { fork, type ChildProcess } from 'node:child_process';
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

export { freePort };

export function table(rows: Array<Record<string, string | number>>): void {
  console.table(rows);
}
