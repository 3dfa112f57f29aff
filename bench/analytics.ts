// GET /v1/stats/* on one merchant with 100,000 subscriptions and 2,000,000
// charges (plus 100,000 payment sessions and 20,000 invoices), generated with
// set-based SQL. The inserts and updates go through the same triggers as the
// service's writes, so the maintained analytics tables are filled as in
// production. Each endpoint is called through app.inject; prints p50/p95.
// Run: node --import tsx bench/analytics.ts [--runs 20]
import { issueKey } from '../src/api-keys/service.js';
import { SCOPES } from '../src/api-keys/scopes.js';
import { createSql } from '../src/db/client.js';
import { createMerchant } from '../src/merchants/service.js';
import { createTestApp } from '../test/support/app.js';
import { benchDatabase } from './support.js';

const args = process.argv.slice(2);
const runsIndex = args.indexOf('--runs');
const runs = runsIndex >= 0 ? Number(args[runsIndex + 1]) : 20;
const SUBSCRIPTIONS = 100_000;
const CHARGES_PER_SUBSCRIPTION = 20;
const CHUNK = SUBSCRIPTIONS / 10;

const database = await benchDatabase();
// Seeding inserts hundreds of thousands of rows a statement: no statement timeout for it.
const sql = createSql(database.url, { max: 10, timeouts: { statementTimeoutMs: 0 } });
const merchant = await createMerchant(sql, { name: 'Bench analytics' });
const { secret } = await issueKey(sql, { merchantId: merchant.id, livemode: false, kind: 'secret', scopes: SCOPES, actor: 'bench' });
const m = merchant.id;

const timed = async (label: string, work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  console.log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
};

await timed(
  'plans',
  () => sql`
  insert into subscription_plans (id, merchant_id, livemode, name, amount, currency, interval, interval_count, trial_period_days)
  select 'plan_bench' || g, ${m}, false, 'Plan ' || g, (g + 1) * 1000000, 'USDC',
         (array['monthly', 'yearly', 'weekly', 'quarterly', 'daily'])[1 + g % 5], 1, case when g % 4 = 0 then 14 else 0 end
  from generate_series(0, 19) g`,
);
await timed(
  'customers',
  () => sql`
  insert into customers (id, merchant_id, livemode, wallet_address, created_at)
  select 'cus_bench' || g, ${m}, false, '0x' || lpad(to_hex(g), 40, '0'),
         timestamptz '2024-01-01' + (g % 730) * interval '1 day' + (g % 86400) * interval '1 second'
  from generate_series(1, ${SUBSCRIPTIONS}) g`,
);
// One subscription per customer, created with the customer; 10% start trialing.
await timed('subscriptions (row trigger per insert)', async () => {
  // In chunks, with statistics after the first, as autovacuum would keep them on a live table.
  for (let chunk = 0; chunk < 10; chunk++) {
    const low = chunk * CHUNK + 1;
    const high = (chunk + 1) * CHUNK;
    await sql`
  insert into subscriptions (id, merchant_id, livemode, plan_id, customer_id, status, chain_id, contract_address, on_chain_id,
    subscriber_address, token_address, amount, period_seconds, periods, first_period_start, trial_end, current_period_index,
    next_charge_at, created_at, updated_at)
  select 'sub_bench' || g, ${m}, false, 'plan_bench' || (g % 20), 'cus_bench' || g,
         case when g % 10 = 0 then 'trialing' else 'active' end, 31337, '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512', g,
         '0x' || lpad(to_hex(g), 40, '0'), '0x5fbdb2315678afecb367f032d93f642f64180aa3', ((g % 20) + 1) * 1000000, 2592000, 0,
         c.created_at, case when g % 10 = 0 then c.created_at + interval '14 days' end, 19,
         timestamptz '2026-12-01' + (g % 30) * interval '1 day', c.created_at, c.created_at
  from generate_series(${low}::int, ${high}::int) g join customers c on c.id = 'cus_bench' || g`;
    if (chunk === 0) await sql`analyze`;
  }
});
// History: trials convert, amounts change, some cancel, lapse or pause.
await timed('history (row trigger per update)', async () => {
  await sql`update subscriptions set status = 'active', updated_at = trial_end where merchant_id = ${m} and status = 'trialing' and on_chain_id % 20 <> 0`;
  await sql`update subscriptions set amount = amount * 2, updated_at = created_at + interval '40 days' where merchant_id = ${m} and on_chain_id % 10 = 1`;
  await sql`update subscriptions set amount = amount / 2, updated_at = created_at + interval '70 days' where merchant_id = ${m} and on_chain_id % 10 = 1 and on_chain_id % 30 = 1`;
  await sql`update subscriptions set status = 'cancelled', cancelled_at = created_at + interval '100 days', updated_at = created_at + interval '100 days', next_charge_at = null
            where merchant_id = ${m} and on_chain_id % 7 = 2`;
  await sql`update subscriptions set status = 'at_risk', updated_at = created_at + interval '50 days' where merchant_id = ${m} and on_chain_id % 13 = 3`;
  await sql`update subscriptions set status = 'lapsed', lapsed_at = created_at + interval '53 days', updated_at = created_at + interval '53 days', next_charge_at = null
            where merchant_id = ${m} and on_chain_id % 13 = 3 and on_chain_id % 2 = 0`;
  await sql`update subscriptions set status = 'paused', updated_at = created_at + interval '60 days', next_charge_at = null where merchant_id = ${m} and on_chain_id % 17 = 4`;
  await sql`update subscriptions set status = 'active', updated_at = created_at + interval '90 days', next_charge_at = timestamptz '2026-12-05'
            where merchant_id = ${m} and on_chain_id % 17 = 4 and on_chain_id % 3 = 0`;
});
await timed(
  `charges: ${SUBSCRIPTIONS * CHARGES_PER_SUBSCRIPTION} (statement trigger)`,
  () => sql`
  insert into subscription_charges (id, merchant_id, livemode, subscription_id, period_index, period_start, amount, status, attempts, settled_at)
  select 'subch_bench' || s.g || '_' || k, ${m}, false, 'sub_bench' || s.g, k, s.created_at + k * interval '1 month', ((s.g % 20) + 1) * 1000000,
         case when (s.g + k) % 20 = 0 then 'failed' else 'succeeded' end, 1,
         case when (s.g + k) % 20 = 0 then null else s.created_at + k * interval '1 month' end
  from (select on_chain_id::bigint as g, created_at from subscriptions where merchant_id = ${m}) s, generate_series(0, ${CHARGES_PER_SUBSCRIPTION - 1}) k`,
);
await timed('payment sessions and invoices', async () => {
  await sql`
    insert into payment_sessions (id, merchant_id, livemode, amount, currency, status, pay_to, token, chain_id, expires_at, created_at)
    select 'ps_bench' || g, ${m}, false, 1000000, 'USDC', (array['completed', 'expired', 'open', 'completed'])[1 + g % 4],
           '0x0000000000000000000000000000000000000001', '0x5fbdb2315678afecb367f032d93f642f64180aa3', 31337,
           timestamptz '2024-01-01' + (g % 1000) * interval '1 day' + interval '1 day', timestamptz '2024-01-01' + (g % 1000) * interval '1 day'
    from generate_series(1, 100000) g`;
  await sql`
    insert into invoices (id, merchant_id, livemode, number, currency, line_items, subtotal, total, status, session_id, due_at, due_in_days, sent_at, paid_at)
    select 'inv_bench' || g, ${m}, false, 'B-' || g, 'USDC', '[]', 1000000, 1000000, case when g % 2 = 0 then 'paid' else 'sent' end,
           'ps_bench' || g, now(), 30, timestamptz '2024-01-01' + (g % 1000) * interval '1 day',
           case when g % 2 = 0 then timestamptz '2024-01-02' + (g % 1000) * interval '1 day' end
    from generate_series(1, 20000) g`;
});
await sql`analyze`;
const [counts] = await sql<{ subscriptions: string; charges: string; changes: string; rollup: string }[]>`
  select (select count(*) from subscriptions where merchant_id = ${m})::text as subscriptions,
         (select count(*) from subscription_charges where merchant_id = ${m})::text as charges,
         (select count(*) from subscription_mrr_changes where merchant_id = ${m})::text as changes,
         (select count(*) from analytics_charge_revenue_daily where merchant_id = ${m})::text as rollup`;
console.log(
  `rows: ${counts!.subscriptions} subscriptions, ${counts!.charges} charges, ${counts!.changes} MRR changes, ${counts!.rollup} revenue rollup rows`,
);
await sql.end();

const appSql = createSql(database.url, { max: 10 });
const t = await createTestApp(appSql);
const cases: [string, string][] = [
  ['mrr (month, 12 months)', '/v1/stats/mrr?from=2025-01-01&to=2025-12-31&interval=month'],
  ['mrr (day, 366 days)', '/v1/stats/mrr?from=2025-01-01&to=2026-01-01&interval=day'],
  ['churn (month, 12 months)', '/v1/stats/churn?from=2025-01-01&to=2025-12-31&interval=month'],
  ['churn (week, 3 years)', '/v1/stats/churn?from=2024-01-01&to=2026-12-30&interval=week'],
  ['conversion (month, 12 months)', '/v1/stats/conversion?from=2025-01-01&to=2025-12-31&interval=month'],
  ['ltv (month, 24 months)', '/v1/stats/ltv?from=2024-01-01&to=2025-12-31&interval=month'],
  ['forecast (month, horizon 12)', '/v1/stats/forecast?from=2025-01-01&to=2025-12-31&interval=month&horizon=12'],
  ['forecast (week, horizon 36)', '/v1/stats/forecast?from=2025-01-01&to=2025-12-31&interval=week&horizon=36'],
];
const rows = [];
for (const [label, url] of cases) {
  const times: number[] = [];
  for (let i = 0; i < runs + 3; i++) {
    const started = performance.now();
    const response = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${secret}` } });
    const elapsed = performance.now() - started;
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    if (i >= 3) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  const pick = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!;
  rows.push({
    endpoint: label,
    runs,
    'p50 ms': Number(pick(0.5).toFixed(1)),
    'p95 ms': Number(pick(0.95).toFixed(1)),
    'max ms': Number(times[times.length - 1]!.toFixed(1)),
  });
}
console.table(rows);
await t.close();
await appSql.end();
await database.stop();
