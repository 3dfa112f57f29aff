// Child processes of `npm start`: started with the shared environment, their
// output prefixed, and stopped together.
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { PROJECT_ROOT } from './temporal.js';

const LIFELINE = new URL('./lifeline.mjs', import.meta.url).href;

export type Child = { name: string; process: ChildProcess; stop: () => Promise<void> };

export function startNodeProcess(name: string, entry: string, env: NodeJS.ProcessEnv, onExit: (code: number | null) => void): Child {
  // stdin is the lifeline (tools/dev/lifeline.mjs): the child stops when this process dies, even outright.
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', LIFELINE, entry], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const prefix = (chunk: Buffer) =>
    chunk
      .toString()
      .split('\n')
      .filter(Boolean)
      .map((line) => `[${name}] ${line}\n`)
      .join('');
  child.stdout?.on('data', (chunk: Buffer) => process.stdout.write(prefix(chunk)));
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(prefix(chunk)));
  child.once('exit', onExit);
  process.once('exit', () => child.kill('SIGTERM'));
  return {
    name,
    process: child,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await Promise.race([new Promise((r) => child.once('exit', r)), sleep(10_000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** Resolves once `url` answers HTTP (any status). */
export async function waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(200);
    }
  }
}
