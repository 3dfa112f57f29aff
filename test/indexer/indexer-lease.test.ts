// The indexer's lease (src/indexer/lease.ts) on real Postgres connections: one
// leader at a time, takeover within the lease's time when the leader is cut
// off by a network partition, and the fence that refuses a stale leader's write.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainSettings } from '../../src/chain/config.js';
import { createSql, type Sql } from '../../src/db/client.js';
import { createHookRegistry, type ChainHook } from '../../src/indexer/hooks.js';
import { createIndexer } from '../../src/indexer/indexer.js';
import { createLeaderLease, LeaseLostError, type Fence, type LeaderTerm } from '../../src/indexer/lease.js';
import * as leases from '../../src/indexer/lease-repo.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

let db: TestDatabase;
let proxy: TcpProxy;
let throughProxy: Sql;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.sql`create table lease_test_writes (writer text not null, epoch bigint not null)`;
  const url = new URL(db.url);
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
  url.port = String(proxy.port);
  // Short connect timeout: connections opened during the partition fail instead of waiting 5 s.
  throughProxy = createSql(url.toString(), { max: 1, timeouts: { connectTimeoutSeconds: 1 } });
});
afterAll(async () => {
  await throughProxy?.end({ timeout: 0 }).catch(() => undefined);
  await proxy?.close();
  await db?.drop();
});

const TTL_MS = 1_500;
const RENEW_MS = 300;
/** A generous bound on any takeover: the lease's time plus a few retries and a slow machine. */
const TAKEOVER_BOUND_MS = TTL_MS + 10 * RENEW_MS + 10_000;

let chainId = 900_000;
const nextRef = () => ({ chainId: ++chainId, livemode: false });
const quiet = { info: () => {}, warn: () => {} };

async function until(condition: () => boolean | Promise<boolean>, boundMs: number, what: string): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${boundMs} ms: ${what}`);
    await sleep(20);
  }
}

/** A leader that records its terms and holds each one until it is lost or stopped. */
function contender(name: string, sql: Sql, ref: { chainId: number; livemode: boolean }, timeline: string[], leading: Set<string>) {
  const stop = new AbortController();
  let current: LeaderTerm | undefined;
  const lease = createLeaderLease({ sql, ref, settings: { ttlMs: TTL_MS, renewIntervalMs: RENEW_MS, holder: name }, log: quiet });
  const running = lease.lead(stop.signal, async (term) => {
    // The invariant: nobody else leads when a term begins.
    timeline.push(`${name} leads (others leading: ${[...leading].join(',') || 'none'})`);
    leading.add(name);
    current = term;
    await new Promise((resolve) => term.signal.addEventListener('abort', resolve, { once: true }));
    leading.delete(name);
    timeline.push(`${name} stops`);
  });
  return { stop: () => (stop.abort(), running), term: () => current, leads: () => leading.has(name) };
}

describe('indexer lease', () => {
  it('one leader; a partitioned leader stops leading and the other takes over within the bound; healed, it stays a standby', async () => {
    const ref = nextRef();
    const timeline: string[] = [];
    const leading = new Set<string>();
    const a = contender('a', throughProxy, ref, timeline, leading);
    await until(() => a.leads(), TAKEOVER_BOUND_MS, 'a leads');
    const b = contender('b', db.sql, ref, timeline, leading);
    // b keeps trying while a renews: a few of b's attempts pass and b still waits.
    await sleep(4 * RENEW_MS);
    expect(b.leads()).toBe(false);

    proxy.partition();
    await until(() => b.leads(), TAKEOVER_BOUND_MS, 'b takes over from the partitioned a');
    expect(a.leads()).toBe(false);
    proxy.heal();
    // Healed, a's renewals reach the database again: refused, and a waits as a standby.
    await sleep(4 * RENEW_MS);
    expect(b.leads()).toBe(true);
    expect(a.leads()).toBe(false);
    expect((await leases.findLease(db.sql, ref))?.holder).toBe('b');

    await b.stop();
    await until(() => a.leads(), TAKEOVER_BOUND_MS, 'a takes over after b released the lease');
    await a.stop();
    expect(timeline).toEqual([
      'a leads (others leading: none)',
      'a stops',
      'b leads (others leading: none)',
      'b stops',
      'a leads (others leading: none)',
      'a stops',
    ]);
    const lease = await leases.findLease(db.sql, ref);
    expect(lease?.epoch).toBe(3n);
    expect(lease?.valid).toBe(false); // released by the clean stop
  }, 90_000);

  it("refuses a stale leader's write: the fence checks holder, epoch and expiry in the writing transaction", async () => {
    const ref = nextRef();
    const timeline: string[] = [];
    const leading = new Set<string>();
    const a = contender('a', db.sql, ref, timeline, leading);
    await until(() => a.leads(), TAKEOVER_BOUND_MS, 'a leads');
    const stale = a.term()!;
    const fencedWrite = (term: LeaderTerm, writer: string) =>
      db.sql.begin(async (tx) => {
        await term.fence(tx);
        await tx`insert into lease_test_writes (writer, epoch) values (${writer}, ${term.epoch.toString()})`;
      });
    await fencedWrite(stale, 'a before');

    // Another indexer takes the lease while a still believes it leads (as after a pause longer
    // than the lease, or a clock that ran slow): only the database can tell a.
    await db.sql`update indexer_leases set holder = 'b', epoch = epoch + 1 where chain_id = ${ref.chainId} and livemode = false`;
    await expect(fencedWrite(stale, 'a after')).rejects.toBeInstanceOf(LeaseLostError);
    expect(stale.signal.aborted).toBe(true); // the refused fence ends the term at once
    const writes = await db.sql<{ writer: string }[]>`select writer from lease_test_writes order by writer`;
    expect(writes.map((w) => w.writer)).toEqual(['a before']);
    expect(await leases.holdsLease(db.sql, ref, { holder: 'a', epoch: stale.epoch })).toBe(false);
    await a.stop();
  }, 60_000);

  it('a takeover waits for a fenced transaction to commit: no write of the old term lands after the new term began', async () => {
    const ref = nextRef();
    const epoch = await leases.acquireLease(db.sql, ref, 'a', 300);
    expect(epoch).toBe(1n);
    const order: string[] = [];
    let expired!: () => void;
    const lapse = new Promise<void>((resolve) => (expired = resolve));
    const writing = db.sql.begin(async (tx) => {
      expect(await leases.holdsLease(tx, ref, { holder: 'a', epoch: 1n })).toBe(true);
      await lapse;
      await tx`insert into lease_test_writes (writer, epoch) values ('a in its fenced transaction', 1)`;
      order.push('a commits');
    });
    await until(async () => (await leases.findLease(db.sql, ref))?.valid === false, 10_000, 'the lease expires by the clock');
    const takeover = leases.acquireLease(createSqlOnce(), ref, 'b', 10_000).then((e) => (order.push('b acquires'), e));
    await sleep(200); // the takeover is waiting on the row lock by now
    expired();
    await writing;
    expect(await takeover).toBe(2n);
    expect(order).toEqual(['a commits', 'b acquires']);
  }, 60_000);

  // Issue 36 item 9: the fence was checked before the hooks, outside their transaction, so a leader paused
  // between the check and its hooks applied them after its successor had taken over (and could have
  // rewound and unwound the same event).
  it("a deposed leader applies no hook after its successor took the lease: an event's hooks run inside the fenced transaction", async () => {
    const ref = nextRef();
    const token = '0x00000000000000000000000000000000000000a1';
    const settings: ChainSettings = {
      mode: 'test',
      livemode: false,
      rpcUrl: 'http://127.0.0.1:9', // never called: dispatch reads committed events from Postgres only
      chainId: ref.chainId,
      token,
      subscriptionManager: '0x00000000000000000000000000000000000000a2',
      escrow: '0x00000000000000000000000000000000000000a3',
      confirmations: 1,
      startBlock: 0n,
      stuckAfterSeconds: 15,
      pollIntervalMs: 200,
    };
    await db.sql`
      insert into chain_events (chain_id, livemode, block_number, block_hash, transaction_hash, log_index, address, event_name, args)
      values (${ref.chainId}, false, 1, ${'0x' + '1'.repeat(64)}, ${'0x' + '2'.repeat(64)}, 0, ${token}, 'Transfer', '{}'::jsonb)`;
    const order: string[] = [];
    let entered!: () => void;
    const inHook = new Promise<void>((resolve) => (entered = resolve));
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    // A leader that pauses inside its hook (a GC pause, a slow Temporal call) until its lease has lapsed.
    const slowHook: ChainHook = {
      name: 'slow',
      matches: () => true,
      handle: async () => {
        entered();
        await paused;
        order.push('a applies the hook');
      },
    };
    const indexer = createIndexer({ sql: db.sql, settings, hooks: createHookRegistry([slowHook]) });
    const epoch = (await leases.acquireLease(db.sql, ref, 'a', 300))!;
    const fence: Fence = async (fenced) => {
      if (!(await leases.holdsLease(fenced, ref, { holder: 'a', epoch }))) throw new LeaseLostError();
    };
    const dispatching = indexer.dispatch(fence).then(
      () => order.push('a marks it dispatched'),
      (error: Error) => order.push(`a is refused: ${error.name}`),
    );
    await inHook;
    await until(async () => (await leases.findLease(db.sql, ref))?.valid === false, 10_000, "a's lease lapses by the clock");
    const takeover = leases.acquireLease(createSqlOnce(), ref, 'b', 10_000).then((e) => (order.push('b acquires'), e));
    await sleep(300); // the takeover waits on the lease row by now
    resume();
    await dispatching;
    expect(await takeover).toBe(epoch + 1n);
    // a's hook and its dispatched mark landed in a's term; b's term began only after a's transaction committed.
    expect(order).toContain('a marks it dispatched');
    expect(order.indexOf('a applies the hook')).toBeLessThan(order.indexOf('b acquires'));
    const [event] = await db.sql<
      { dispatched: boolean }[]
    >`select dispatched_at is not null as dispatched from chain_events where chain_id = ${ref.chainId}`;
    expect(event!.dispatched).toBe(true);
  }, 60_000);
});

const extraClients: Sql[] = [];
/** A second connection for the takeover (the shared pool could hand it a's busy connection's turn). */
function createSqlOnce(): Sql {
  const sql = createSql(db.url, { max: 1 });
  extraClients.push(sql);
  return sql;
}
afterAll(async () => Promise.all(extraClients.map((sql) => sql.end({ timeout: 1 }))));
