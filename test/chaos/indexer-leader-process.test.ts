// Two indexer processes (src/indexer.ts) on one chain, against a Postgres this
// test owns so it can cut connections and restart it: exactly one leads at any
// time, through killed connections, a Postgres restart and a paused leader (a
// partition as the leader sees it); the standby takes over within the lease's
// bound; both keep indexing without a restart once Postgres is back.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPublicClient, createTestClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { createSql, type Sql } from '../../src/db/client.js';
import { ensureDatabase } from '../../src/db/databases.js';
import { migrate } from '../../src/db/migrate.js';
import { devChainEnv } from '../../tools/dev/chain/dev-chain.js';
import { startPostgresProcess } from '../../tools/dev/postgres-process.js';
import type { LocalPostgres } from '../../tools/dev/postgres.js';
import { PROJECT_ROOT } from '../../tools/dev/temporal.js';
import { sharedChain } from '../support/chain.js';

const TTL_MS = 2_000;
const RENEW_MS = 400;
/** A generous bound on a takeover: the lease, a few retries, connecting, a slow shared machine. */
const TAKEOVER_BOUND_MS = TTL_MS + 10 * RENEW_MS + 15_000;

const chain = sharedChain();
let dataDir: string;
let postgres: LocalPostgres;
let port: number;
let sql: Sql;
const DATABASE = 'stablepay';

beforeAll(async () => {
  dataDir = mkdtempSync(join(PROJECT_ROOT, '.data', 'test-leader-'));
  postgres = await startPostgresProcess({ dataDir, durable: false });
  port = Number(new URL(postgres.url('')).port);
  await ensureDatabase(postgres.url('postgres'), DATABASE);
  await migrate(postgres.url(DATABASE));
  sql = createSql(postgres.url(DATABASE), { max: 2, timeouts: { connectTimeoutSeconds: 2 } });
});
afterAll(async () => {
  for (const indexer of indexers) if (indexer.child.exitCode === null && indexer.child.signalCode === null) indexer.child.kill('SIGKILL');
  await sql?.end({ timeout: 1 }).catch(() => undefined);
  await postgres?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

type LogLine = { time: number; msg: string; reason?: string };
type Indexer = { name: string; child: ChildProcess; lines: LogLine[]; exited: Promise<number | null> };
const indexers: Indexer[] = [];

function startIndexer(name: string): Indexer {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/indexer.ts'], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      ...devChainEnv(chain),
      DATABASE_URL: postgres.url(DATABASE),
      DATABASE_CONNECT_TIMEOUT_SECONDS: '1',
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      INDEXER_ID: name,
      INDEXER_LEASE_TTL_MS: String(TTL_MS),
      INDEXER_LEASE_RENEW_MS: String(RENEW_MS),
      INDEXER_BATCH_SIZE: '5',
      CHAIN_TEST_POLL_INTERVAL_MS: '50',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const indexer: Indexer = { name, child, lines: [], exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const complete = pending.split('\n');
    pending = complete.pop()!;
    for (const line of complete) {
      try {
        const parsed = JSON.parse(line) as LogLine;
        if (typeof parsed.msg === 'string') indexer.lines.push(parsed);
      } catch {
        // not a log line
      }
    }
  });
  indexers.push(indexer);
  return indexer;
}

const STARTS = 'indexer is the leader';
const ENDS = ['indexer lost the lease; stopped leading', 'indexer released the lease'];

/** The periods each indexer believed it led, from its own log (pino's `time`, one machine clock). */
function terms(indexer: Indexer): { start: number; end: number }[] {
  const periods: { start: number; end: number }[] = [];
  for (const line of indexer.lines) {
    if (line.msg === STARTS) periods.push({ start: line.time, end: Infinity });
    else if (ENDS.includes(line.msg) && periods.at(-1)?.end === Infinity) periods.at(-1)!.end = line.time;
  }
  return periods;
}
const leads = (indexer: Indexer) => terms(indexer).at(-1)?.end === Infinity;

function overlaps(a: Indexer, b: Indexer): string[] {
  const found: string[] = [];
  for (const x of terms(a))
    for (const y of terms(b))
      if (x.start < y.end && y.start < x.end) found.push(`${a.name} ${x.start}-${x.end} / ${b.name} ${y.start}-${y.end}`);
  return found;
}

async function waitFor(condition: () => boolean | Promise<boolean>, boundMs: number): Promise<boolean> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    if (await Promise.resolve(condition()).catch(() => false)) return true;
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
}

async function checkpoint(): Promise<bigint> {
  const [row] = await sql<{ n: string }[]>`select block_number::text as n from indexer_checkpoints where livemode = false`;
  return row ? BigInt(row.n) : -1n;
}

async function leaseHolder(): Promise<string | undefined> {
  const [row] = await sql<
    { holder: string }[]
  >`select holder from indexer_leases where livemode = false and expires_at > clock_timestamp()`;
  return row?.holder;
}

const publicClient = createPublicClient({ chain: chainDefinition(chain.chainId, chain.rpcUrl), transport: http(chain.rpcUrl) });
/** Mines blocks and waits until some indexer has followed the chain to the new head. */
async function indexedToHead(): Promise<boolean> {
  await createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) }).mine({ blocks: 3 });
  const head = await publicClient.getBlockNumber();
  return waitFor(async () => (await checkpoint()) >= head, 120_000);
}

describe('indexer leadership across processes', () => {
  it('one leader through killed connections, a Postgres restart and a paused leader; takeover within the bound', async () => {
    const a = startIndexer('indexer-a');
    expect(await waitFor(() => leads(a), 60_000)).toBe(true);
    expect(await indexedToHead()).toBe(true);

    // 1. Postgres restarts (same port, same data): session state such as an advisory lock is gone,
    // the lease row is not. The leader recovers without a restart of its own.
    await postgres.stop();
    postgres = await startPostgresProcess({ dataDir, durable: false, port });
    expect(await indexedToHead()).toBe(true);

    // 2. A second indexer starts beside it: it must wait (the code before the lease let it lead too).
    const b = startIndexer('indexer-b');
    await waitFor(() => b.lines.some((l) => l.msg.startsWith('indexer is a standby') || l.msg === STARTS), 30_000);
    await sleep(3 * TTL_MS); // a bounded wait: long enough for a second leader to show up
    expect(overlaps(a, b)).toEqual([]);
    expect(await indexedToHead()).toBe(true);

    // 3. Every indexer connection killed by the server (a failover's cut, a proxy reset), then
    // Postgres restarts again with both running.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name like 'stablepay-indexer%'`;
    await sleep(3 * TTL_MS);
    expect(overlaps(a, b)).toEqual([]);
    await postgres.stop();
    postgres = await startPostgresProcess({ dataDir, durable: false, port });
    await sleep(3 * TTL_MS);
    expect(await indexedToHead()).toBe(true); // both recovered without a restart of their own
    expect(overlaps(a, b)).toEqual([]);
    const leaders = [a, b].filter(leads);
    expect(leaders.map((i) => i.name)).toHaveLength(1);
    expect(await leaseHolder()).toBe(leaders[0]!.name);

    // 4. The leader freezes (SIGSTOP: a partition or a long pause as the leader sees it): the
    // standby takes over within the bound; thawed, the old leader stops leading at once.
    const [frozen] = leaders;
    const standby = frozen === a ? b : a;
    frozen!.child.kill('SIGSTOP');
    expect(await waitFor(() => leads(standby), TAKEOVER_BOUND_MS)).toBe(true);
    expect(await leaseHolder()).toBe(standby.name);
    frozen!.child.kill('SIGCONT');
    expect(await waitFor(() => !leads(frozen!), TAKEOVER_BOUND_MS)).toBe(true);
    expect(frozen!.lines.filter((l) => l.msg === ENDS[0]).length).toBeGreaterThan(0);
    expect(await indexedToHead()).toBe(true);
    expect([a, b].filter(leads).map((i) => i.name)).toEqual([standby.name]);
    expect(await leaseHolder()).toBe(standby.name);

    // A clean stop releases the lease, the other takes over at once, then stops too.
    standby.child.kill('SIGTERM');
    expect(await standby.exited).toBe(0);
    expect(await waitFor(() => leads(frozen!), TAKEOVER_BOUND_MS)).toBe(true);
    frozen!.child.kill('SIGTERM');
    expect(await frozen!.exited).toBe(0);
    const [duplicates] = await sql<{ n: number }[]>`
      select count(*)::int as n from (select 1 from chain_events group by chain_id, transaction_hash, log_index having count(*) > 1) d`;
    expect(duplicates!.n).toBe(0);
  }, 300_000);
});
