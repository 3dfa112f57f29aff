// Readiness: can this api instance serve requests now? One check per
// dependency (Postgres, Temporal, each configured chain), run in parallel, each
// bounded by a timeout so the probe itself never hangs. The report names the
// failure by its code or type only: never a URL (an RPC URL may carry a key).
import type { Client } from '@temporalio/client';
import type { ChainConfig } from '../chain/config.js';
import { publicClientFor } from '../chain/clients.js';
import type { Sql } from '../db/client.js';

export type DependencyCheck = { status: 'up'; latencyMs: number } | { status: 'down'; latencyMs: number; error: string };
export type Readiness = { status: 'ready' | 'unavailable'; checks: Record<string, DependencyCheck> };

class CheckTimeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'CheckTimeout';
  }
}

/** A short name for what went wrong: the error's code (ECONNREFUSED, CONNECT_TIMEOUT, gRPC 14) or type. */
function failureName(error: unknown): string {
  if (error instanceof CheckTimeout) return 'timeout';
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  if (typeof code === 'string') return code;
  if (typeof code === 'number') return `${String(name ?? 'Error')} ${code}`;
  return typeof name === 'string' ? name : 'error';
}

async function check(timeoutMs: number, probe: () => Promise<unknown>): Promise<DependencyCheck> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout(timeoutMs)), timeoutMs);
  });
  try {
    await Promise.race([probe(), timeout]);
    return { status: 'up', latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return { status: 'down', latencyMs: Math.round(performance.now() - started), error: failureName(error) };
  } finally {
    clearTimeout(timer);
  }
}

export type ReadinessDeps = { sql: Sql; temporal?: Client; chain: ChainConfig; timeoutMs: number };

export function createReadiness(deps: ReadinessDeps) {
  const probes: Record<string, () => Promise<unknown>> = {
    postgres: () => deps.sql`select 1`,
  };
  const { temporal } = deps;
  if (temporal) {
    // The deadline stops the client's own retries of an unreachable frontend.
    probes.temporal = () =>
      temporal.connection.withDeadline(Date.now() + deps.timeoutMs, () => temporal.connection.workflowService.getSystemInfo({}));
  }
  for (const settings of [deps.chain.test, deps.chain.live]) {
    if (settings) probes[`chain_${settings.mode}`] = () => publicClientFor(settings).getBlockNumber();
  }

  return {
    async check(): Promise<Readiness> {
      const names = Object.keys(probes);
      const results = await Promise.all(names.map((name) => check(deps.timeoutMs, probes[name]!)));
      const checks = Object.fromEntries(names.map((name, i) => [name, results[i]!]));
      return { status: results.every((r) => r.status === 'up') ? 'ready' : 'unavailable', checks };
    },
  };
}

export type ReadinessService = ReturnType<typeof createReadiness>;
