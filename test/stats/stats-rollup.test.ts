// Migration 00018 (analytics churn rollup): analytics_mrr_daily, the per-day rollup of the MRR ledger
// (subscription_mrr_changes), holds exactly what a direct aggregation of the ledger gives, column by
// column: after the migration's backfill of a ledger written before it, after more subscription
// inserts and updates (the triggers of 00014 append to the ledger, the rollup trigger sums), and after
// ledger rows are updated, deleted and truncated by hand. Real Postgres; the direct aggregation below
// is written from the column definitions in the migration, not taken from it.
import { readdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSql, type Sql } from '../../src/db/client.js';
import { ensureDatabase } from '../../src/db/databases.js';

const MIGRATIONS = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));
const ROLLUP_MIGRATION = '00018_analytics_churn_rollup.sql';

let sql: Sql;
let seq = 0;

async function applyMigrations(which: (file: string) => boolean): Promise<void> {
  const files = readdirSync(MIGRATIONS)
    .filter((f) => /^\d{5}_.*\.sql$/.test(f) && which(f))
    .sort();
  await sql.begin(async (tx) => {
    for (const file of files) await tx.file(`${MIGRATIONS}${file}`);
  });
}

/** The ledger summed per (merchant, mode, currency, plan, UTC day), every column of the rollup. */
async function direct() {
  return sql`
    select merchant_id, livemode, currency, plan_id, to_char((occurred_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day,
      sum(mrr_after - mrr_before)::text as mrr,
      count(*) filter (where customer_mrr_before = 0 and customer_mrr_after > 0)::text as customers_gained,
      count(*) filter (where customer_mrr_before > 0 and customer_mrr_after = 0)::text as customers_lost,
      count(*) filter (where mrr_before = 0 and mrr_after > 0)::text as subscriptions_gained,
      count(*) filter (where mrr_before > 0 and mrr_after = 0)::text as subscriptions_lost,
      coalesce(sum(mrr_after) filter (where kind = 'new'), 0)::text as new_mrr,
      coalesce(sum(mrr_after - mrr_before) filter (where kind = 'expansion'), 0)::text as expansion_mrr,
      coalesce(sum(mrr_before - mrr_after) filter (where kind = 'contraction'), 0)::text as contraction_mrr,
      coalesce(sum(mrr_before) filter (where kind = 'churned'), 0)::text as churned_mrr,
      coalesce(sum(mrr_after) filter (where kind = 'reactivation'), 0)::text as reactivation_mrr,
      coalesce(sum(mrr_before) filter (where kind = 'churned' and status_after = 'cancelled'), 0)::text as churned_cancelled_mrr,
      coalesce(sum(mrr_before) filter (where kind = 'churned' and status_after = 'lapsed'), 0)::text as churned_lapsed_mrr
    from subscription_mrr_changes
    group by 1, 2, 3, 4, 5
    order by 1, 2, 3, 4, 5`;
}

/** The rollup's rows, leaving out days whose counters all went back to zero (deleted ledger rows). */
async function rollup() {
  return sql`
    select merchant_id, livemode, currency, plan_id, to_char(day, 'YYYY-MM-DD') as day, mrr::text,
      customers_gained::text, customers_lost::text, subscriptions_gained::text, subscriptions_lost::text,
      new_mrr::text, expansion_mrr::text, contraction_mrr::text, churned_mrr::text, reactivation_mrr::text,
      churned_cancelled_mrr::text, churned_lapsed_mrr::text
    from analytics_mrr_daily
    where not (mrr = 0 and customers_gained = 0 and customers_lost = 0 and subscriptions_gained = 0 and subscriptions_lost = 0
      and new_mrr = 0 and expansion_mrr = 0 and contraction_mrr = 0 and churned_mrr = 0 and reactivation_mrr = 0
      and churned_cancelled_mrr = 0 and churned_lapsed_mrr = 0)
    order by 1, 2, 3, 4, 5`;
}

async function expectAgreement() {
  const expected = await direct();
  expect(expected.length).toBeGreaterThan(0);
  expect([...(await rollup())]).toEqual([...expected]);
  return expected;
}

const merchantId = 'merchant_rollup';
const plans = { monthly: 'plan_rollup_monthly', yearly: 'plan_rollup_yearly', weekly: 'plan_rollup_weekly' };
const customerIds: string[] = [];

async function subscribe(customer: number, plan: keyof typeof plans, amount: number, at: string): Promise<string> {
  const id = `sub_rollup_${++seq}`;
  await sql`
    insert into subscriptions (id, merchant_id, livemode, plan_id, customer_id, status, chain_id, contract_address, on_chain_id,
      subscriber_address, token_address, amount, period_seconds, periods, first_period_start, created_at, updated_at)
    values (${id}, ${merchantId}, false, ${plans[plan]}, ${customerIds[customer]!}, 'active', 31337, '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
      ${seq}, ${`0x${seq.toString(16).padStart(40, '0')}`}, '0x5fbdb2315678afecb367f032d93f642f64180aa3', ${amount}, 2592000, 0, ${at}, ${at}, ${at})`;
  return id;
}

/** A status or amount change of one or several subscriptions in one statement (one statement trigger). */
async function change(ids: string[], at: string, update: { status?: string; amount?: number }) {
  await sql`
    update subscriptions set
      status = coalesce(${update.status ?? null}, status),
      amount = coalesce(${update.amount ?? null}::numeric, amount),
      updated_at = ${at},
      cancelled_at = case when ${update.status ?? null}::text = 'cancelled' then ${at}::timestamptz else cancelled_at end,
      lapsed_at = case when ${update.status ?? null}::text = 'lapsed' then ${at}::timestamptz else lapsed_at end
    where id in ${sql(ids)}`;
}

/** A history over a few weeks: several customers holding one or two subscriptions, every kind of movement. */
async function history(day: (n: number) => string): Promise<string[]> {
  const s = [
    await subscribe(0, 'monthly', 10_000_000, day(0)),
    await subscribe(1, 'yearly', 120_000_000, day(0)),
    await subscribe(2, 'weekly', 1_000_000, day(1)),
    await subscribe(2, 'monthly', 10_000_000, day(1)), // customer 2 holds two
    await subscribe(3, 'monthly', 20_000_000, day(2)),
    await subscribe(4, 'weekly', 3_000_000, day(2)),
  ];
  await change([s[0]!], day(3), { amount: 15_000_000 }); // expansion
  await change([s[1]!], day(3), { amount: 60_000_000 }); // contraction, same day and another plan
  await change([s[2]!, s[5]!], day(4), { status: 'at_risk' }); // no MRR change
  await change([s[2]!, s[5]!], day(5), { status: 'lapsed' }); // customer 2 still pays through s[3]
  await change([s[3]!], day(5), { status: 'cancelled' }); // now customer 2 has churned
  await change([s[4]!], day(6), { status: 'paused' }); // churned, neither cancel nor lapse
  await change([s[4]!], day(8), { status: 'active' }); // reactivation
  await change([s[5]!], day(8), { status: 'active' }); // reactivation after a lapse
  await change([s[0]!, s[4]!], day(9), { status: 'cancelled' }); // two cancels in one statement
  return s;
}

const dayOf = (base: string) => (n: number) => new Date(Date.parse(base) + n * 86_400_000 + 3_600_000 * (n % 5)).toISOString();

beforeAll(async () => {
  const adminUrl = inject('postgresAdminUrl');
  const name = `rollup_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(adminUrl, name);
  sql = createSql(adminUrl.replace(/\/postgres$/, `/${name}`), { max: 2 });
});

afterAll(async () => {
  await sql?.end({ timeout: 5 });
});

describe('analytics_mrr_daily (migration 00018) agrees with the MRR ledger', () => {
  it('after the backfill, more inserts and updates, and ledger updates, deletes and a truncate', async () => {
    // The schema as it was before 00018, and a history written through its triggers.
    await applyMigrations((file) => file < ROLLUP_MIGRATION);
    await sql`insert into merchants (id, name, api_version) values (${merchantId}, 'Rollup', '2026-01-01')`;
    for (const [interval, id] of Object.entries(plans)) {
      await sql`insert into subscription_plans (id, merchant_id, livemode, name, amount, currency, interval, interval_count, trial_period_days)
                values (${id}, ${merchantId}, false, ${id}, 1000000, 'USDC', ${interval}, 1, 0)`;
    }
    for (let i = 0; i < 12; i++) {
      customerIds.push(`cus_rollup_${i}`);
      await sql`insert into customers (id, merchant_id, livemode, wallet_address, created_at)
                values (${customerIds[i]!}, ${merchantId}, false, ${`0x${(1000 + i).toString(16).padStart(40, '0')}`}, '2024-01-01')`;
    }
    await history(dayOf('2024-01-01T08:00:00Z'));

    // Backfill: every column of every (plan, day), the 00016 columns recomputed as well.
    await applyMigrations((file) => file === ROLLUP_MIGRATION);
    const backfilled = await expectAgreement();
    const total = (column: string) => backfilled.reduce((sum, row) => sum + BigInt(row[column] as string), 0n);
    // Not a vacuous agreement: each movement of the history is there. By hand from history(): MRR of
    // weekly 1M = 1M x 52 / 12 = 4_333_333, weekly 3M = 13_000_000, yearly 120M = 10M (60M: 5M).
    expect(total('new_mrr')).toBe(10_000_000n + 10_000_000n + 4_333_333n + 10_000_000n + 20_000_000n + 13_000_000n);
    expect(total('expansion_mrr')).toBe(5_000_000n); // s0 10M -> 15M
    expect(total('contraction_mrr')).toBe(5_000_000n); // s1 10M -> 5M
    expect(total('churned_lapsed_mrr')).toBe(4_333_333n + 13_000_000n); // s2, s5
    expect(total('churned_cancelled_mrr')).toBe(10_000_000n + 15_000_000n + 20_000_000n); // s3, s0, s4
    expect(total('churned_mrr')).toBe(45_000_000n + 17_333_333n + 20_000_000n); // + s4's pause
    expect(total('reactivation_mrr')).toBe(20_000_000n + 13_000_000n); // s4, s5
    expect(total('customers_lost')).toBe(5n); // customers 2, 3 (pause), 4 (lapse), 0, 3 (cancel)

    // More history through the triggers, on the same days and on new ones.
    const later = await history(dayOf('2024-01-05T20:00:00Z'));
    await expectAgreement();

    // A correction by hand: a ledger row moved to another day, a cancel recorded as a lapse, in one statement.
    await sql`update subscription_mrr_changes set occurred_at = occurred_at + interval '3 days',
                status_after = case when status_after = 'cancelled' then 'lapsed' else status_after end
              where subscription_id in ${sql([later[0]!, later[3]!])}`;
    await expectAgreement();

    // Deletes: one subscription's rows, then every row of a day.
    await sql`delete from subscription_mrr_changes where subscription_id = ${later[4]!}`;
    await expectAgreement();
    await sql`delete from subscription_mrr_changes where (occurred_at at time zone 'UTC')::date = '2024-01-06'`;
    await expectAgreement();

    await sql`truncate subscription_mrr_changes`;
    expect(await direct()).toHaveLength(0);
    expect(await rollup()).toHaveLength(0);
    expect(await sql`select 1 from analytics_mrr_daily`).toHaveLength(0);
  });
});
