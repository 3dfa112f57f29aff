// Readiness: can this api instance serve requests now? One check per
// dependency (Postgres, Temporal, each configured chain of each mode), run in
// parallel, each bounded by a timeout so the probe itself never hangs. Postgres
// and Temporal are needed by every request: either down makes the instance
// `unavailable` (503). A chain is needed only by what happens on it, and every
// instance shares its node: a chain that is down makes the instance `degraded`
// (still 200, the chain named), so a load balancer keeps the instance serving
// the other chains instead of taking every instance out at once. The report
// names a failure by its code or type only: never a URL (an RPC URL may carry a key).
import type { Client } from '@temporalio/client';
import { allChains, type ChainConfig, type ChainMode } from '../chain/config.js';
import { publicClientFor } from '../chain/clients.js';
import { chainLabel } from '../chain/chain-check.js';
import type { Sql } from '../db/client.js';

export type DependencyCheck = { status: 'up'; latencyMs: number } | { status: 'down'; latencyMs: number; error: string };
/** One chain's health: its node (head block) and how far this deployment's indexer has followed it. */
export type ChainCheck = DependencyCheck & {
  mode: ChainMode;
  chainId: number;
  /** The node's newest block (decimal string), when it answered. */
  head?: string;
  /** The newest block the indexer committed for this chain (decimal string); absent before its first step. */
  indexedBlock?: string;
};
export type Readiness = {
  status: 'ready' | 'degraded' | 'unavailable';
  checks: Record<string, DependencyCheck>;
  chains: ChainCheck[];
  /** The chains that are down, as "test mode chain 31338" (only when some are). */
  degraded?: string[];
};

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

async function check<T>(timeoutMs: number, probe: () => Promise<T>): Promise<DependencyCheck & { value?: T }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout(timeoutMs)), timeoutMs);
  });
  try {
    const value = await Promise.race([probe(), timeout]);
    return { status: 'up', latencyMs: Math.round(performance.now() - started), value };
  } catch (error) {
    return { status: 'down', latencyMs: Math.round(performance.now() - started), error: failureName(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** The indexer's checkpoint of every chain, keyed `mode|chainId`; empty when Postgres does not answer. */
async function indexedBlocks(sql: Sql): Promise<Map<string, string>> {
  const rows = await sql<{ chainId: number; livemode: boolean; blockNumber: string }[]>`
    select chain_id::int as "chainId", livemode, block_number::text as "blockNumber" from indexer_checkpoints`;
  return new Map(rows.map((row) => [`${row.livemode ? 'live' : 'test'}|${row.chainId}`, row.blockNumber]));
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
  const chains = allChains(deps.chain);

  return {
    async check(): Promise<Readiness> {
      const names = Object.keys(probes);
      const [results, chainResults, indexed] = await Promise.all([
        Promise.all(names.map((name) => check(deps.timeoutMs, probes[name]!))),
        Promise.all(chains.map((settings) => check(deps.timeoutMs, () => publicClientFor(settings).getBlockNumber()))),
        check(deps.timeoutMs, () => indexedBlocks(deps.sql)),
      ]);
      const checks = Object.fromEntries(names.map((name, i) => [name, withoutValue(results[i]!)]));
      const chainChecks: ChainCheck[] = chains.map((settings, i) => {
        const { value: head, ...result } = chainResults[i]!;
        const indexedBlock = indexed.value?.get(`${settings.mode}|${settings.chainId}`);
        return {
          ...result,
          mode: settings.mode,
          chainId: settings.chainId,
          ...(head !== undefined ? { head: head.toString() } : {}),
          ...(indexedBlock !== undefined ? { indexedBlock } : {}),
        };
      });
      const down = chainChecks.filter((c) => c.status === 'down').map((c) => chainLabel(c));
      const status = results.some((r) => r.status === 'down') ? 'unavailable' : down.length > 0 ? 'degraded' : 'ready';
      return { status, checks, chains: chainChecks, ...(down.length > 0 ? { degraded: down } : {}) };
    },
  };
}

function withoutValue(result: DependencyCheck & { value?: unknown }): DependencyCheck {
  const { value: _value, ...rest } = result;
  return rest;
}

export type ReadinessService = ReturnType<typeof createReadiness>;
