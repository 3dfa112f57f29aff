/**
 * Starts the anvil binary shipped in the `@foundry-rs/anvil-<platform>-<arch>` npm package on
 * 127.0.0.1, waits until it answers `eth_chainId`, and stops it cleanly.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type PoolWatch, watchAnvilPool } from './anvil-pool-watch.js';

export interface StartAnvilOptions {
  /** TCP port; default 0 = let the OS pick a free port (read back from anvil's output, race-free). */
  port?: number;
  /** Default 31337. */
  chainId?: number;
  /** Seconds between blocks; default: automine (a block per transaction). */
  blockTime?: number;
  /** State file: loaded at start when present and written on stop (anvil `--state`). */
  state?: string;
  /** Alias of `state` for callers that think of it as a data directory file. */
  dataDir?: string;
  /** Number of dev accounts (default 10) derived from `mnemonic`. */
  accounts?: number;
  /** Default: anvil's well-known dev mnemonic (see test-accounts.ts). */
  mnemonic?: string;
  /** Initial ETH per dev account (default 10000). */
  balance?: number;
  /** Extra raw CLI arguments. */
  extraArgs?: string[];
  /** Startup timeout in ms (default 20000). */
  timeoutMs?: number;
  /**
   * Watch the pool for anvil's out-of-order stall and re-send a stalled sender's transactions in
   * nonce order (pool-watch.ts). Default: on when anvil automines.
   */
  watchPool?: boolean;
  /** Told each time the pool watch re-sent a stalled sender (default: the line goes to `onLog`). */
  onPoolRepair?: (line: string) => void;
  /** Receives anvil's stdout/stderr lines (default: kept in a small buffer for error messages only). */
  onLog?: (line: string) => void;
}

export interface AnvilInstance {
  rpcUrl: string;
  host: string;
  port: number;
  chainId: number;
  pid: number;
  /** Stalled senders the pool watch re-sent so far (0 when it does not watch). */
  poolResends(): number;
  /** Sends SIGTERM (anvil dumps `state` if configured), SIGKILL after 5 s; resolves when exited. Idempotent. */
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Path of the anvil binary: `$ANVIL_BIN`, else the npm platform package, else `anvil` on PATH. */
export function resolveAnvilBinary(): string {
  const fromEnv = process.env.ANVIL_BIN;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`ANVIL_BIN=${fromEnv} does not exist`);
    return fromEnv;
  }
  const platform = process.platform;
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const pkg = `@foundry-rs/anvil-${platform}-${arch}`;
  const binName = platform === 'win32' ? 'anvil.exe' : 'anvil';
  const require = createRequire(import.meta.url);
  try {
    const bin = join(dirname(require.resolve(`${pkg}/package.json`)), 'bin', binName);
    if (existsSync(bin)) return bin;
  } catch {
    // fall through
  }
  // Hoisting may place the platform package next to @foundry-rs/anvil only.
  try {
    const wrapperDir = dirname(require.resolve('@foundry-rs/anvil/package.json'));
    const bin = join(wrapperDir, '..', `anvil-${platform}-${arch}`, 'bin', binName);
    if (existsSync(bin)) return bin;
  } catch {
    // fall through
  }
  for (const dir of (process.env.PATH ?? '').split(platform === 'win32' ? ';' : ':')) {
    const bin = join(dir, binName);
    if (dir && existsSync(bin)) return bin;
  }
  throw new Error(`anvil binary not found: install the npm package @foundry-rs/anvil (it ships ${pkg}), or set ANVIL_BIN`);
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Never leave an orphaned node behind if the parent exits without calling stop().
  process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

async function rpcChainId(rpcUrl: string): Promise<number | undefined> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    const body = (await res.json()) as { result?: string };
    return body.result ? Number.parseInt(body.result, 16) : undefined;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function startAnvil(options: StartAnvilOptions = {}): Promise<AnvilInstance> {
  const chainId = options.chainId ?? 31337;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const args = ['--host', HOST, '--port', String(options.port ?? 0), '--chain-id', String(chainId)];
  if (options.blockTime !== undefined) args.push('--block-time', String(options.blockTime));
  const state = options.state ?? options.dataDir;
  if (state) args.push('--state', state);
  if (options.accounts !== undefined) args.push('--accounts', String(options.accounts));
  if (options.mnemonic) args.push('--mnemonic', options.mnemonic);
  if (options.balance !== undefined) args.push('--balance', String(options.balance));
  if (options.extraArgs) args.push(...options.extraArgs);

  const child = spawn(resolveAnvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  installExitHook();

  const tail: string[] = [];
  let port: number | undefined;
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exitPromise = new Promise<void>((resolveExit) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      running.delete(child);
      resolveExit();
    });
  });
  let spawnError: Error | undefined;
  child.once('error', (err) => {
    spawnError = err;
  });
  const onData = (chunk: Buffer): void => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue;
      options.onLog?.(line);
      tail.push(line);
      if (tail.length > 40) tail.shift();
      const m = /Listening on [^\s:]+:(\d+)/.exec(line);
      if (m?.[1]) port = Number(m[1]);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);

  let poolWatch: PoolWatch | undefined;
  const stop = async (): Promise<void> => {
    await poolWatch?.stop();
    if (exited) return;
    child.kill('SIGTERM');
    const killTimer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exitPromise;
    clearTimeout(killTimer);
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (spawnError) throw new Error(`anvil failed to start: ${spawnError.message}`);
    if (exited) {
      throw new Error(`anvil exited during startup (code ${exited.code}, signal ${exited.signal}):\n${tail.join('\n')}`);
    }
    if (port !== undefined) {
      const rpcUrl = `http://${HOST}:${port}`;
      const answered = await rpcChainId(rpcUrl);
      if (answered === chainId) {
        const automines = options.blockTime === undefined && !args.some((arg) => arg === '--no-mining' || arg === '--no-mine');
        if (options.watchPool ?? automines)
          poolWatch = watchAnvilPool(rpcUrl, { log: (line) => (options.onPoolRepair ?? options.onLog)?.(line) });
        return { rpcUrl, host: HOST, port, chainId, pid: child.pid ?? -1, poolResends: () => poolWatch?.unstuck() ?? 0, stop };
      }
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`anvil did not answer eth_chainId within ${timeoutMs} ms:\n${tail.join('\n')}`);
    }
    await sleep(50);
  }
}
