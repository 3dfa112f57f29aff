// Usage events at volume (issue 41, item 6), against the real api over HTTP, in a throwaway Postgres the bench
// deletes afterwards.
//  1. Ingestion: batches of 100 through POST /v1/billing/meter-events/batch for `--seconds`, a share of the sends
//     repeating an identifier sent before (possibly still in flight in another batch). Prints events/s and checks
//     the duplicates were ignored exactly: stored count == distinct identifiers sent, stored sum exact.
//  2. Summaries at volume: `--load` events written straight into meter_events and meter_usage_hourly by SQL
//     (generate_series, the same rows and the same rollup statement the api writes; the distinct-value rollups built
//     from them after the load), then the p95 of GET /v1/billing/meters/{id}/event-summaries for one customer-month,
//     by hour, by day and over the whole range ("none"), on a sum, a max and a unique_count meter, for a heavy
//     customer (`--heavy-share` of all loaded events) and a typical one.
//  3. Ingestion again for `--after-load-seconds` with those events stored (events are kept: the dedupe index grows).
// Run: npx tsx bench/meter-events.ts [--seconds 60] [--duplicates 0.05] [--concurrency 4] [--customers 1000]
//        [--load 10000000] [--heavy-share 0.1] [--summaries 100] [--after-load-seconds 30]
import { issueKey } from '../src/api-keys/service.js';
import { SCOPES } from '../src/api-keys/scopes.js';
import { createSql } from '../src/db/client.js';
import { createMerchant } from '../src/merchants/service.js';
import { newId } from '../src/ids.js';
import { benchDatabase, freePort, startServer, table } from './support.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const seconds = option('seconds', 60);
const duplicateShare = option('duplicates', 0.05);
const concurrency = option('concurrency', 4);
const customerCount = option('customers', 1000);
const loadCount = option('load', 10_000_000);
const heavyShare = option('heavy-share', 0.1);
const summaryRuns = option('summaries', 100);
const afterLoadSeconds = option('after-load-seconds', 30);
const BATCH = 100;
const LOAD_CHUNK = 500_000;
const DAY = 86_400_000;

const database = await benchDatabase();
const sql = createSql(database.url, { max: 2 });
const merchant = await createMerchant(sql, { name: 'Bench' });
const { secret } = await issueKey(sql, { merchantId: merchant.id, livemode: false, kind: 'secret', scopes: SCOPES, actor: 'bench' });
const customers = Array.from({ length: customerCount }, () => newId('customer'));
await sql`
  insert into customers (id, merchant_id, livemode, wallet_address)
  select id, ${merchant.id}, false, '0x' || lpad(to_hex(n), 40, '0')
  from unnest(${customers}::text[]) with ordinality as c(id, n)`;

const port = await freePort();
const api = await startServer('bench/servers/api.ts', {
  DATABASE_URL: database.url,
  PORT: String(port),
  RATE_LIMIT_PER_IP_PER_MINUTE: '100000000',
  RATE_LIMIT_PER_KEY_PER_MINUTE: '100000000',
});
const base = `http://127.0.0.1:${port}`;
const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };

async function call(method: 'GET' | 'POST', path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
  const json = await response.json();
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]!;
};

/** Phase 1: batches for `seconds`; identifier i carries tokens (i % 9) + 1, so the exact sum is known. */
async function ingest(label: string, eventName: string, seconds: number) {
  const meter = await call('POST', '/v1/billing/meters', {
    displayName: eventName,
    eventName,
    aggregation: 'sum',
    valueKey: 'tokens',
  });
  const now = Date.now();
  let distinct = 0;
  let sent = 0;
  let duplicatesSent = 0;
  let accepted = 0;
  let duplicatesReported = 0;
  // A fixed-seed generator: which sends repeat an earlier identifier, and which one.
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const event = (i: number) => ({
    eventName,
    identifier: `${eventName}-${i}`,
    timestamp: new Date(now - Math.floor(((i * 7919) % (30 * 24 * 60)) * 60_000) - 60_000).toISOString(),
    payload: { customerId: customers[i % customerCount]!, tokens: String((i % 9) + 1) },
  });
  const nextBatch = () =>
    Array.from({ length: BATCH }, () => {
      sent++;
      if (distinct > 0 && random() < duplicateShare) {
        duplicatesSent++;
        return event(Math.floor(random() * distinct));
      }
      return event(distinct++);
    });
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const result = await call('POST', '/v1/billing/meter-events/batch', { events: nextBatch() });
        accepted += result.accepted;
        duplicatesReported += result.duplicates;
        if (result.refused > 0)
          throw new Error(`refused: ${JSON.stringify(result.data.find((d: { status: string }) => d.status === 'refused'))}`);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  let expectedSum = 0n;
  for (let i = 0; i < distinct; i++) expectedSum += BigInt((i % 9) + 1);
  const [stored] = await sql<{ n: number; sum: string; rolledUp: string }[]>`
    select count(*)::int as n, coalesce(sum(quantity), 0)::text as sum,
      (select coalesce(sum(event_count), 0)::text from meter_usage_hourly where meter_id = ${meter.id}) as "rolledUp"
    from meter_events where meter_id = ${meter.id}`;
  const exact = stored!.n === distinct && BigInt(stored!.sum.split('.')[0]!) === expectedSum && stored!.rolledUp === String(distinct);
  console.log(
    `\nIngestion ${label}: ${seconds} s, batches of ${BATCH}, ${concurrency} in flight, ${(duplicateShare * 100).toFixed(0)}% duplicates`,
  );
  table([
    { figure: 'seconds', value: elapsed.toFixed(1) },
    { figure: 'events sent (incl. duplicates)', value: sent },
    { figure: 'events/s sent', value: Math.round(sent / elapsed) },
    { figure: 'distinct identifiers sent / stored', value: `${distinct} / ${stored!.n}` },
    { figure: 'accepted reported', value: accepted },
    { figure: 'duplicates sent / reported', value: `${duplicatesSent} / ${duplicatesReported}` },
    { figure: 'stored sum / expected', value: `${stored!.sum} / ${expectedSum}` },
    { figure: 'rollup event count', value: stored!.rolledUp },
    { figure: 'exact', value: String(exact && accepted === distinct && duplicatesReported === duplicatesSent) },
  ]);
  if (!exact || accepted !== distinct || duplicatesReported !== duplicatesSent) process.exitCode = 1;
}

/**
 * Phase 2: `loadCount` events over the last 30 days, spread round-robin over a sum, a max and a unique_count meter;
 * a share `heavyShare` of them belongs to the first customer, the rest to the others evenly. Written as the api
 * writes them: one row per event (payload, quantity or distinct value, created_at at the event time) and the
 * hourly rollup upserted from the inserted rows in the same statement (insertMeterEvents's shape).
 */
async function loadEvents(meters: string[]) {
  const start = Date.now() - 30 * DAY;
  const everyNth = Math.round(1 / heavyShare);
  const others = customers.length - 1;
  // One connection of its own: no statement timeout, and the foreign keys (merchant, meter, customer: all known
  // to exist here) not checked row by row, as a bulk load would do; the rows are the same.
  const load = createSql(database.url, { max: 1, timeouts: { statementTimeoutMs: 0 } });
  await load`set session_replication_role = replica`;
  const started = performance.now();
  for (let from = 0; from < loadCount; from += LOAD_CHUNK) {
    const to = Math.min(loadCount, from + LOAD_CHUNK) - 1;
    await load`
      with input as (
        select 'load-' || g as identifier, (${meters}::text[])[1 + g % 3] as meter_id, g % 3 as kind,
          case when (g / 3) % ${everyNth} = 0 then (${customers}::text[])[1]
               else (${customers}::text[])[2 + ((g / 3) * 7) % ${others}] end as customer_id,
          ${new Date(start).toISOString()}::timestamptz + ((g * 104729) % ${30 * 86_400}) * interval '1 second' as event_time,
          g
        from generate_series(${from}::bigint, ${to}::bigint) g
      ), rows as (
        select identifier, meter_id, customer_id, event_time,
          case kind when 0 then ((g % 9) + 1)::numeric when 1 then ((g * 31) % 1000)::numeric end as quantity,
          case kind when 2 then 'user-' || ((g * 13) % 5000) end as distinct_value
        from input
      ), inserted as (
        insert into meter_events (merchant_id, livemode, identifier, meter_id, customer_id, event_time, quantity, distinct_value, payload, created_at)
        select ${merchant.id}, false, identifier, meter_id, customer_id, event_time, quantity, distinct_value,
          jsonb_build_object('customerId', customer_id, 'value', coalesce(quantity::text, distinct_value)), event_time
        from rows
        returning meter_id, customer_id, event_time, quantity
      )
      insert into meter_usage_hourly (merchant_id, livemode, meter_id, customer_id, hour_start, quantity_sum, event_count)
      select ${merchant.id}, false, meter_id, customer_id, date_trunc('hour', event_time, 'UTC'), coalesce(sum(quantity), 0), count(*)
      from inserted group by meter_id, customer_id, date_trunc('hour', event_time, 'UTC')
      on conflict (meter_id, customer_id, hour_start) do update
        set quantity_sum = meter_usage_hourly.quantity_sum + excluded.quantity_sum,
            event_count = meter_usage_hourly.event_count + excluded.event_count`;
    console.log(`loaded ${to + 1} events, ${Math.round((performance.now() - started) / 1000)} s`);
  }
  // The distinct-value rollups (migration 00054) built from the loaded rows at once, as its backfill does: the same
  // rows the insert statement would have written event by event.
  await load`
    insert into meter_usage_values_hourly (meter_id, customer_id, hour_start, distinct_value, event_count)
    select meter_id, customer_id, date_trunc('hour', event_time, 'UTC'), distinct_value, count(*)
    from meter_events where distinct_value is not null and cancelled_at is null group by 1, 2, 3, 4`;
  await load`
    insert into meter_usage_values_daily (meter_id, customer_id, day_start, distinct_value, event_count)
    select meter_id, customer_id, date_trunc('day', event_time, 'UTC'), distinct_value, count(*)
    from meter_events where distinct_value is not null and cancelled_at is null group by 1, 2, 3, 4`;
  await load`
    update meter_usage_hourly h set distinct_count = v.n
    from (select meter_id, customer_id, hour_start, count(*) as n from meter_usage_values_hourly group by 1, 2, 3) v
    where h.meter_id = v.meter_id and h.customer_id = v.customer_id and h.hour_start = v.hour_start`;
  await load`
    insert into meter_usage_daily (meter_id, customer_id, day_start, distinct_count)
    select meter_id, customer_id, day_start, count(*) from meter_usage_values_daily group by 1, 2, 3`;
  const loadSeconds = (performance.now() - started) / 1000;
  // What autovacuum does after a bulk load anyway; done now so the timings see the steady state.
  const vacuumStarted = performance.now();
  await load`set session_replication_role = origin`;
  await load`vacuum analyze meter_events`;
  for (const table of ['meter_usage_hourly', 'meter_usage_values_hourly', 'meter_usage_values_daily', 'meter_usage_daily']) {
    await load`vacuum analyze ${load(table)}`;
  }
  await load.end();
  console.log(`loaded in ${loadSeconds.toFixed(0)} s, vacuum analyze ${((performance.now() - vacuumStarted) / 1000).toFixed(0)} s`);
}

async function summaries() {
  const kinds = [
    { aggregation: 'sum', eventName: 'load_sum' },
    { aggregation: 'max', eventName: 'load_max' },
    { aggregation: 'unique_count', eventName: 'load_users' },
  ];
  const meters: { id: string; aggregation: string }[] = [];
  for (const k of kinds) meters.push(await call('POST', '/v1/billing/meters', { displayName: k.eventName, ...k, valueKey: 'value' }));
  await loadEvents(meters.map((m) => m.id));
  const [size] = await sql<{ events: number; table: string; indexes: string; rollup: number }[]>`
    select (select count(*)::int from meter_events) as events,
      pg_size_pretty(pg_table_size('meter_events')) as table, pg_size_pretty(pg_indexes_size('meter_events')) as indexes,
      (select count(*)::int from meter_usage_hourly) as rollup`;
  console.log(`meter_events: ${size!.events} rows, table ${size!.table}, indexes ${size!.indexes}; rollup ${size!.rollup} rows`);

  // One customer-month: 31 whole UTC days ending tomorrow (the loaded 30 days and today).
  const end = Math.floor(Date.now() / DAY) * DAY + DAY;
  const rows: Record<string, string | number>[] = [];
  for (const [who, customerId] of [
    ['heavy', customers[0]!],
    ['typical', customers[1]!],
  ] as const) {
    for (const meter of meters) {
      const [events] = await sql<{ n: number }[]>`
        select count(*)::int as n from meter_events where meter_id = ${meter.id} and customer_id = ${customerId}
          and event_time >= ${new Date(end - 31 * DAY)} and event_time < ${new Date(end)}`;
      for (const window of ['hour', 'day', 'none'] as const) {
        const query = new URLSearchParams({
          customerId,
          startTime: new Date(end - 31 * DAY).toISOString(),
          endTime: new Date(end).toISOString(),
          ...(window === 'none' ? {} : { valueGroupingWindow: window }),
        });
        const latencies: number[] = [];
        let windows = 0;
        for (let i = 0; i < summaryRuns + 5; i++) {
          const t0 = performance.now();
          const page = await call('GET', `/v1/billing/meters/${meter.id}/event-summaries?${query}`);
          if (i >= 5) latencies.push(performance.now() - t0); // the first five warm the caches
          windows = page.data.length;
        }
        rows.push({
          customer: who,
          aggregation: meter.aggregation,
          window,
          'events in month': events!.n,
          windows,
          'p50 ms': percentile(latencies, 0.5).toFixed(1),
          'p95 ms': percentile(latencies, 0.95).toFixed(1),
        });
      }
    }
  }
  console.log(`\nSummaries of one customer-month (31 days), ${summaryRuns} sequential runs each, ${loadCount} loaded events`);
  table(rows);
}

try {
  if (seconds > 0) await ingest('into an empty table', 'tokens', seconds);
  if (loadCount > 0) await summaries();
  // The dedupe index and the tables now hold the loaded events: ingestion again, as events are kept (docs/decisions.md).
  if (loadCount > 0 && afterLoadSeconds > 0) await ingest(`with ${loadCount} events stored`, 'tokens_later', afterLoadSeconds);
} finally {
  api.kill('SIGTERM');
  await sql.end();
  await database.stop();
}
