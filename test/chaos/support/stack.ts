// A production-shaped stack for the chaos suite: its own durable Postgres (which
// a test may kill -9 and restart on the same port), its own Temporal dev server,
// its own anvil, and the api, worker and indexer as separate processes started
// from the environment exactly as `npm run api|worker|indexer` start them, so a
// test can SIGKILL any of them and start another.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import { createSql, type Sql } from '../../../src/db/client.js';
import { ensureDatabase } from '../../../src/db/databases.js';
import { migrate } from '../../../src/db/migrate.js';
import { devChainEnv, startDevChain, type DevChain } from '../../../tools/dev/chain/dev-chain.js';
import { freePort, portInUse } from '../../../tools/dev/ports.js';
import { startPostgresProcess, type PostgresProcess } from '../../../tools/dev/postgres-process.js';
import { PROJECT_ROOT, startTemporalDevServer, startTemporalDevServerOnFreePorts, temporalBinaries } from '../../../tools/dev/temporal.js';

export type ServiceName = 'api' | 'worker' | 'indexer';

const ENTRIES: Record<ServiceName, string> = { api: 'src/server.ts', worker: 'src/worker.ts', indexer: 'src/indexer.ts' };
/** The log line that says a process is ready for work. */
const READY: Record<ServiceName, string> = { api: 'Server listening', worker: 'worker running', indexer: 'indexer' };

export type Service = {
  name: ServiceName;
  child: ChildProcess;
  /** Every line it printed so far. */
  log: string[];
  exited: Promise<number | null>;
  /** SIGKILL: no shutdown step runs. */
  kill: () => Promise<void>;
  /** SIGTERM and wait. */
  stop: () => Promise<void>;
};

export type ChaosStack = {
  sql: Sql;
  databaseUrl: string;
  apiUrl: string;
  chain: DevChain;
  temporalAddress: string;
  start: (name: ServiceName, env?: Record<string, string>) => Promise<Service>;
  /** kill -9 of the Postgres server and every backend (a crash, not a shutdown). */
  killPostgres: () => Promise<void>;
  /** Starts Postgres again on the same port and data (crash recovery runs). */
  restartPostgres: () => Promise<void>;
  /** Stops the Temporal dev server (its history stays in its database file). */
  stopTemporal: () => Promise<void>;
  /** Starts the Temporal dev server again on the same port with the same database file. */
  restartTemporal: () => Promise<void>;
  stop: () => Promise<void>;
};

/**
 * Writes each service's log to .data/test-logs/<name>-<key>.log and returns where they went, so a
 * chaos test that times out can be explained from its logs (CI keeps the tree, not the output).
 */
export function saveServiceLogs(name: string, services: Record<string, Service>): string {
  mkdirSync(join(PROJECT_ROOT, '.data', 'test-logs'), { recursive: true });
  for (const [key, service] of Object.entries(services)) {
    writeFileSync(join(PROJECT_ROOT, '.data', 'test-logs', `${name}-${key}.log`), service.log.join('\n'));
  }
  return `.data/test-logs/${name}-{${Object.keys(services).join(',')}}.log`;
}

async function waitForLine(service: Service, text: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!service.log.some((line) => line.includes(text))) {
    if (service.child.exitCode !== null || service.child.signalCode !== null) {
      throw new Error(`${service.name} exited before "${text}":\n${service.log.slice(-30).join('\n')}`);
    }
    if (Date.now() > deadline)
      throw new Error(`${service.name} did not print "${text}" within ${timeoutMs} ms:\n${service.log.slice(-30).join('\n')}`);
    await sleep(100);
  }
}

export async function startChaosStack(options: { blockTime?: number; env?: Record<string, string> } = {}): Promise<ChaosStack> {
  mkdirSync(join(PROJECT_ROOT, '.data'), { recursive: true });
  const dataDir = mkdtempSync(join(PROJECT_ROOT, '.data', 'chaos-'));
  chmodSync(dataDir, 0o755);
  const postgresDir = join(dataDir, 'postgres');
  const port = await freePort();
  let postgres: PostgresProcess = await startPostgresProcess({ dataDir: postgresDir, durable: true, port });
  const adminUrl = postgres.url('postgres');
  if (!adminUrl.includes(`:${port}/`)) throw new Error(`Postgres started on another port than ${port}`);
  await ensureDatabase(adminUrl, 'chaos');
  const databaseUrl = postgres.url('chaos');
  await migrate(databaseUrl);
  const sql = createSql(databaseUrl, { max: 5 });

  // A database file, not memory, so a restarted server still knows every workflow.
  const dbFile = join(dataDir, 'temporal.db');
  let temporal = await startTemporalDevServerOnFreePorts({ cli: temporalBinaries().cli, dbFile });
  // A restart comes back on the same ports: the services keep their address.
  const temporalOptions = { cli: temporalBinaries().cli, port: temporal.port, uiPort: temporal.uiPort, dbFile };
  const chain = await startDevChain({ rpcUrl: '', ...(options.blockTime ? { blockTime: options.blockTime } : {}) });
  const apiPort = await freePort();
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const baseEnv: Record<string, string> = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporal.address,
    PORT: String(apiPort),
    PUBLIC_BASE_URL: apiUrl,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    RATE_LIMIT_PER_IP_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_KEY_PER_MINUTE: '1000000',
    // The run's workflow bundle (test/support/global-setup.ts): a worker that bundles at every start spends
    // seconds of webpack per restart, and the crash tests restart workers many times.
    TEMPORAL_WORKFLOW_BUNDLE_PATH: inject('workflowBundlePath'),
    ...devChainEnv(chain.info),
    ...options.env,
  };
  const services = new Set<Service>();

  async function start(name: ServiceName, env: Record<string, string> = {}): Promise<Service> {
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRIES[name]], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...baseEnv, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log: string[] = [];
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line) log.push(line);
      if (log.length > 5000) log.splice(0, 1000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const done = () => child.exitCode !== null || child.signalCode !== null;
    const service: Service = {
      name,
      child,
      log,
      exited,
      kill: async () => {
        if (!done()) child.kill('SIGKILL');
        await exited;
        services.delete(service);
      },
      stop: async () => {
        if (!done()) child.kill('SIGTERM');
        await Promise.race([exited, sleep(15_000)]);
        if (!done()) child.kill('SIGKILL');
        await exited;
        services.delete(service);
      },
    };
    services.add(service);
    await waitForLine(service, READY[name], 120_000);
    return service;
  }

  async function killPostgres(): Promise<void> {
    // The wrapper process leads a group of its own: the server and its backends die with it.
    process.kill(-postgres.pid, 'SIGKILL');
    while (await portInUse(port)) await sleep(100);
  }

  async function restartPostgres(): Promise<void> {
    while (await portInUse(port)) await sleep(100);
    postgres = await startPostgresProcess({ dataDir: postgresDir, durable: true, port });
    if (!postgres.url('').includes(`:${port}/`)) throw new Error(`Postgres came back on another port than ${port}`);
  }

  async function stopTemporal(): Promise<void> {
    await temporal.stop();
    while (await portInUse(temporalOptions.port)) await sleep(100);
  }

  async function restartTemporal(): Promise<void> {
    while (await portInUse(temporalOptions.port)) await sleep(100);
    temporal = await startTemporalDevServer(temporalOptions);
  }

  return {
    sql,
    databaseUrl,
    apiUrl,
    chain,
    temporalAddress: temporal.address,
    start,
    killPostgres,
    restartPostgres,
    stopTemporal,
    restartTemporal,
    stop: async () => {
      for (const service of [...services]) await service.stop();
      await sql.end({ timeout: 5 }).catch(() => undefined);
      await temporal.stop();
      await chain.stop();
      await postgres.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
