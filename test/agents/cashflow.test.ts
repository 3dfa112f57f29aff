// The agent's daily run end to end: the daily Temporal Schedule starts
// agentDailyWorkflow on a real worker (Temporal dev server). `cashflow`: it judges
// yesterday's settled revenue (real Postgres ledger) against the 28 days before
// it, records the anomaly in the feed and emails the digest through a real SMTP
// sink. `pricing_intelligence`: suggestions from the merchant's subscriptions,
// recorded as `suggested`, no price changed. A second run the same day sends and
// records nothing twice.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as agentRepo from '../../src/agents/repo.js';
import { defaultAgentConfig, mergeAgentConfig } from '../../src/agents/service.js';
import type { UpdateAgentConfigBody } from '../../src/agents/schemas.js';
import { startSmtpSink, type SmtpSink } from '../../tools/dev/smtp-sink.js';
import { createMailer, type Mailer } from '../../src/email/mailer.js';
import { newId } from '../../src/ids.js';
import { ensureSchedule, SCHEDULES } from '../../src/temporal/schedules.js';
import { agentDailyWorkflow } from '../../workflows/agent-daily.js';
import { seedMerchant, type SeededMerchant } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { recordHistory } from '../support/histories.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { until } from '../support/until.js';

let db: TestDatabase;
let sink: SmtpSink;
let mailer: Mailer;
let temporal: DevServerWorker;
let merchant: SeededMerchant;
let quiet: SeededMerchant;
let pricing: SeededMerchant;

const DAY_MS = 86_400_000;
const utcDay = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);

beforeAll(async () => {
  db = await createTestDatabase();
  sink = await startSmtpSink();
  mailer = createMailer({ smtpUrl: sink.smtpUrl, from: 'StablePay <no-reply@stablepay.local>' });
  temporal = await startDevServerWorker(db.sql, { mailer });
  merchant = await seedMerchant(db.sql, 'Cashflow merchant');
  quiet = await seedMerchant(db.sql, 'Quiet merchant');
  pricing = await seedMerchant(db.sql, 'Pricing merchant');
  await db.sql`update merchants set email = 'owner-cashflow@example.com' where id = ${merchant.merchantId}`;
  await db.sql`update merchants set email = 'owner-quiet@example.com' where id = ${quiet.merchantId}`;
}, 180_000);

afterAll(async () => {
  await temporal?.stop();
  mailer?.close();
  await sink?.stop();
  await db?.drop();
});

async function configure(merchantId: string, patch: UpdateAgentConfigBody): Promise<void> {
  const scope = { merchantId, livemode: false };
  const current = await agentRepo.ensureConfig(db.sql, scope, defaultAgentConfig());
  await agentRepo.updateConfig(db.sql, scope, mergeAgentConfig(current.config, patch));
}

/** A completed payment session settled at noon UTC of `day` (the ledger the digest reads). */
async function settled(merchantId: string, day: string, usdc: number, livemode = false): Promise<void> {
  await db.sql`
    insert into payment_sessions (id, merchant_id, livemode, amount, currency, status, pay_to, token, chain_id, expires_at, completed_at)
    values (${newId('paymentSession')}, ${merchantId}, ${livemode}, ${(BigInt(usdc) * 1_000_000n).toString()}, 'USDC', 'completed',
            '0x0000000000000000000000000000000000000001', '0x0000000000000000000000000000000000000002', 31337,
            ${`${day}T23:00:00Z`}, ${`${day}T12:00:00Z`})`;
}

let walletSeq = 0;
/** A plan with `exposed` subscriptions created 100 days ago, `churned` of them cancelled 10 days ago. */
async function planWithChurn(merchantId: string, name: string, exposed: number, churned: number): Promise<string> {
  const planId = newId('plan');
  await db.sql`insert into subscription_plans (id, merchant_id, livemode, name, amount, currency, interval, interval_count, trial_period_days)
               values (${planId}, ${merchantId}, false, ${name}, 10000000, 'USDC', 'monthly', 1, 0)`;
  for (let i = 0; i < exposed; i++) {
    const wallet = `0x${(++walletSeq).toString(16).padStart(40, '0')}`;
    const customerId = newId('customer');
    await db.sql`insert into customers (id, merchant_id, livemode, wallet_address) values (${customerId}, ${merchantId}, false, ${wallet})`;
    const created = new Date(Date.now() - 100 * DAY_MS);
    const ended = i < churned ? new Date(Date.now() - 10 * DAY_MS) : null;
    await db.sql`
      insert into subscriptions (id, merchant_id, livemode, plan_id, customer_id, status, chain_id, contract_address, on_chain_id,
        subscriber_address, token_address, amount, period_seconds, periods, first_period_start, cancelled_at, created_at, updated_at)
      values (${newId('subscription')}, ${merchantId}, false, ${planId}, ${customerId}, ${ended ? 'cancelled' : 'active'}, 31337,
        '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512', ${walletSeq}, ${wallet}, '0x5fbdb2315678afecb367f032d93f642f64180aa3',
        10000000, 2592000, 0, ${created}, ${ended}, ${created}, ${ended ?? created})`;
  }
  return planId;
}

const feed = (merchantId: string) =>
  db.sql<{ actionType: string; outcome: string; summary: string; details: Record<string, unknown> }[]>`
    select action_type as "actionType", outcome, summary, details from agent_activity where merchant_id = ${merchantId} and capability = 'cashflow' order by id`;

describe('cashflow: daily digest and revenue anomalies', () => {
  it("the daily Schedule runs the digest: yesterday's drop is recorded as an anomaly and emailed; a second run sends nothing twice", async () => {
    await configure(merchant.merchantId, {
      enabledCapabilities: ['cashflow'],
      cashflow: { digestEnabled: true, anomalySensitivity: 'medium' },
    });
    // 28 steady days (90 and 110 USDC, mean 100), then yesterday only 10 USDC: a drop of 90 %.
    for (let i = 29; i >= 2; i--) await settled(merchant.merchantId, utcDay(-i), i % 2 === 0 ? 90 : 110);
    await settled(merchant.merchantId, utcDay(-1), 10);
    // Noise that must not count: another mode, and today (not finished).
    await settled(merchant.merchantId, utcDay(-1), 500, true);
    await settled(merchant.merchantId, utcDay(0), 700);
    // A merchant with cashflow enabled but no digest and no history: nothing to report, nothing sent.
    await configure(quiet.merchantId, { enabledCapabilities: ['cashflow', 'recovery'] });
    // Pricing: Basic loses 6 of 10 (60 %), Pro 3 of 30 (10 %), the merchant 9 of 40 (22.5 %).
    const basic = await planWithChurn(pricing.merchantId, 'Basic', 10, 6);
    const pro = await planWithChurn(pricing.merchantId, 'Pro', 30, 3);
    await configure(pricing.merchantId, { enabledCapabilities: ['pricing_intelligence'] });

    const definition = SCHEDULES.find((s) => s.id === 'agent-daily');
    expect(definition).toMatchObject({ workflow: agentDailyWorkflow, every: '1 day' });
    const id = `${definition!.id}-${randomBytes(4).toString('hex')}`;
    await ensureSchedule(temporal.client, temporal.taskQueue, { ...definition!, id });
    const schedule = temporal.client.schedule.getHandle(id);
    try {
      const described = await schedule.describe();
      expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'agentDailyWorkflow', taskQueue: temporal.taskQueue });
      expect(described.spec.intervals?.[0]?.every).toBe(DAY_MS);

      const runOnce = async (n: number) => {
        await schedule.trigger();
        const run = await until(
          async () => (await schedule.describe()).info.recentActions,
          (actions) => actions.length >= n,
          'the schedule to start its run',
        );
        const started = run.at(-1)!.action.workflow;
        const handle = temporal.client.workflow.getHandle(started.workflowId, started.firstExecutionRunId);
        const result = await handle.result();
        if (n === 1) await recordHistory(handle, 'agent-daily', 'base');
        return result;
      };

      const first = await runOnce(1);
      expect(first.day).toBe(utcDay(-1));
      expect(first.cashflow).toEqual(
        expect.arrayContaining([
          { merchantId: merchant.merchantId, livemode: false, anomaly: 'drop', digest: 'queued', yield: { action: 'disabled' } },
          { merchantId: quiet.merchantId, livemode: false, anomaly: null, digest: 'disabled', yield: { action: 'disabled' } },
        ]),
      );
      // Queued in the email outbox with its record, then delivered by the worker's email workflow.
      const [queued, ...more] = await db.sql<{ subject: string; textBody: string }[]>`
        select subject, text_body as "textBody" from outbound_emails where kind = 'agent_cashflow_digest' and to_address = 'owner-cashflow@example.com'`;
      expect(more).toEqual([]);
      expect(queued!.subject).toBe(`Cashflow digest ${utcDay(-1)}: 10 USDC`);
      expect(queued!.textBody).toContain('Settled revenue: 10 USDC from 1 payment.');
      expect(queued!.textBody).toContain('28-day daily mean before this day: 100 USDC.');
      expect(queued!.textBody).toContain('Anomaly: a drop of -90% against the mean.');
      const mail = await sink.waitFor((m) => m.to.includes('owner-cashflow@example.com'), 30_000);
      expect(mail.subject).toBe(queued!.subject);
      expect(mail.text).toContain('Settled revenue: 10 USDC from 1 payment.');

      expect(first.pricing).toEqual([
        { merchantId: pricing.merchantId, livemode: false, suggested: [`${basic}:high_churn`, `${pro}:low_churn`].sort() },
      ]);

      const second = await runOnce(2);
      expect(second.cashflow).toEqual(
        expect.arrayContaining([
          { merchantId: merchant.merchantId, livemode: false, anomaly: 'drop', digest: 'already_sent', yield: { action: 'disabled' } },
        ]),
      );
    } finally {
      await schedule.delete();
    }

    await new Promise((r) => setTimeout(r, 500));
    expect(sink.messages({ to: 'owner-cashflow@example.com' })).toHaveLength(1);
    expect(sink.messages({ to: 'owner-quiet@example.com' })).toHaveLength(0);
    const records = await feed(merchant.merchantId);
    expect(records.map((r) => [r.actionType, r.outcome])).toEqual([
      ['revenue_anomaly', 'succeeded'],
      ['digest_sent', 'succeeded'],
    ]);
    expect(records[0]!.details).toMatchObject({
      day: utcDay(-1),
      revenue: '10000000',
      baselineMean: '100000000',
      direction: 'drop',
      deviationPercent: -90,
      sensitivity: 'medium',
    });
    expect(records[0]!.summary).toContain('a drop of -90% against the 28-day mean of 100 USDC (medium sensitivity)');
    expect(await feed(quiet.merchantId)).toEqual([]);
    const suggestions = await db.sql<{ outcome: string; summary: string; details: Record<string, unknown> }[]>`
      select outcome, summary, details from agent_activity where merchant_id = ${pricing.merchantId} and capability = 'pricing_intelligence' order by summary`;
    expect(suggestions.map((r) => [r.outcome, r.details.planId, r.details.rule])).toEqual([
      ['suggested', basic, 'high_churn'],
      ['suggested', pro, 'low_churn'],
    ]);
    expect(suggestions[0]!.summary).toBe(
      'Plan Basic lost 60.0% of its subscribers in 90 days against 22.5% across your plans: review its price (lower it, or offer a longer interval).',
    );
    // Read-only: the prices are as they were.
    expect(
      (await db.sql`select amount::text from subscription_plans where merchant_id = ${pricing.merchantId}`).map((r) => r.amount),
    ).toEqual(['10000000', '10000000']);
    const executed = await db.sql<{ n: number }[]>`
      select count(*)::int as n from events where type = 'agent.action_executed' and merchant_id = ${merchant.merchantId} and data->'object'->>'capability' = 'cashflow'`;
    expect(executed[0]!.n).toBe(2);
  }, 120_000);
});
