// Usage-event ingestion through the batch endpoint of the real api (issue 41, item 6), with a share of
// duplicates, then the p95 of one customer-month's summary. Prints events/s and whether the stored count and
// sum are exact.
// Run: npx tsx bench/meter-events.ts [--events 20000] [--duplicates 0.05] [--concurrency 4] [--customers 50] [--summaries 200]
import { issueKey } from '../src/api-keys/service.js';
import { SCOPES } from '../src/api-keys/scopes.js';
import { upsertCustomer } from '../src/customers/repo.js';
import { createSql } from '../src/db/client.js';
import { createMerchant } from '../src/merchants/service.js';
import { newId } from '../src/ids.js';
import { benchDatabase, freePort, startServer, table } from './support.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const total = option('events', 20_000);
const duplicateShare = option('duplicates', 0.05);
const concurrency = option('concurrency', 4);
const customerCount = option('customers', 50);
const summaryRuns = option('summaries', 200);
const BATCH = 100;
const DAY = 86_400_000;

const database = await benchDatabase();
const sql = createSql(database.url, { max: 2 });
const merchant = await createMerchant(sql, { name: 'Bench' });
const { secret } = await issueKey(sql, { merchantId: merchant.id, livemode: false, kind: 'secret', scopes: SCOPES, actor: 'bench' });
const customers: string[] = [];
for (let i = 0; i < customerCount; i++) {
  const wallet = `0x${(i + 1).toString(16).padStart(40, '0')}`;
  customers.push(
    (await upsertCustomer(sql, { id: newId('customer'), merchantId: merchant.id, livemode: false, walletAddress: wallet })).id,
  );
}

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

try {
  const meter = await call('POST', '/v1/billing/meters', {
    displayName: 'Tokens',
    eventName: 'tokens',
    aggregation: 'sum',
    valueKey: 'tokens',
  });

  // Distinct events spread over the last 30 days; a share of the sends repeat an identifier already sent.
  const now = Date.now();
  const distinct = Math.round(total * (1 - duplicateShare));
  const events = Array.from({ length: distinct }, (_, i) => ({
    eventName: 'tokens',
    identifier: `ev-${i}`,
    timestamp: new Date(now - Math.floor(((i * 7919) % (30 * 24 * 60)) * 60_000) - 60_000).toISOString(),
    payload: { customerId: customers[i % customerCount]!, tokens: String((i % 9) + 1) },
  }));
  const sends = [...events];
  for (let i = 0; sends.length < total; i++) sends.push(events[(i * 104_729) % distinct]!);
  // Shuffled (a fixed seed), so a duplicate may land in the same moment as its original, in another batch.
  let seed = 42;
  for (let i = sends.length - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = seed % (i + 1);
    [sends[i], sends[j]] = [sends[j]!, sends[i]!];
  }
  const expectedSum = events.reduce((sum, e) => sum + BigInt(e.payload.tokens), 0n);

  const batches: (typeof events)[] = [];
  for (let i = 0; i < sends.length; i += BATCH) batches.push(sends.slice(i, i + BATCH));
  let next = 0;
  let accepted = 0;
  let duplicates = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < batches.length) {
        const result = await call('POST', '/v1/billing/meter-events/batch', { events: batches[next++]! });
        accepted += result.accepted;
        duplicates += result.duplicates;
        if (result.refused > 0)
          throw new Error(`refused: ${JSON.stringify(result.data.find((d: { status: string }) => d.status === 'refused'))}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;

  const [stored] = await sql<
    { n: number; sum: string }[]
  >`select count(*)::int as n, coalesce(sum(quantity), 0)::text as sum from meter_events`;
  const storedSum = BigInt(stored!.sum.split('.')[0]!);

  // One customer-month: 31 whole UTC days ending tomorrow, grouped by day.
  const end = Math.floor(now / DAY) * DAY + DAY;
  const query = new URLSearchParams({
    customerId: customers[0]!,
    startTime: new Date(end - 31 * DAY).toISOString(),
    endTime: new Date(end).toISOString(),
    valueGroupingWindow: 'day',
  });
  const latencies: number[] = [];
  for (let i = 0; i < summaryRuns; i++) {
    const t0 = performance.now();
    await call('GET', `/v1/billing/meters/${meter.id}/event-summaries?${query}`);
    latencies.push(performance.now() - t0);
  }
  latencies.sort((a, b) => a - b);
  const p95 = latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.95) - 1)]!;

  console.log(
    `\nMeter events: ${sends.length} sent in batches of ${BATCH}, ${concurrency} concurrent, ${sends.length - distinct} duplicates`,
  );
  table([
    { figure: 'events/s (sent, incl. duplicates)', value: Math.round(sends.length / seconds) },
    { figure: 'accepted / expected', value: `${accepted} / ${distinct}` },
    { figure: 'duplicates reported / sent', value: `${duplicates} / ${sends.length - distinct}` },
    { figure: 'stored count exact', value: String(stored!.n === distinct) },
    { figure: 'stored sum exact', value: String(storedSum === expectedSum) },
    { figure: `summary p95 ms (one customer-month, ${summaryRuns} runs)`, value: p95.toFixed(1) },
  ]);
  if (stored!.n !== distinct || storedSum !== expectedSum || accepted !== distinct) process.exitCode = 1;
} finally {
  api.kill('SIGTERM');
  await sql.end();
  await database.stop();
}
