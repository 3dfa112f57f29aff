// Activities of the agent's daily run (workflows/agent-daily.ts, docs/agents.md):
// per merchant and mode, the `cashflow` capability (the revenue anomaly check and
// the digest email) and `pricing_intelligence` (suggestions in the feed).
// Idempotent per (merchant, mode, day): each feed record has a once-only key, and
// the digest email is queued in the transaction of its record.
import { formatUnits } from 'viem';
import { BASELINE_DAYS, detectRevenueAnomaly, type AnomalySensitivity } from '../src/agents/cashflow.js';
import * as agentRepo from '../src/agents/repo.js';
import { PRICING_WINDOW_DAYS, pricingSuggestions } from '../src/agents/pricing.js';
import { recordAgentAction } from '../src/agents/service.js';
import type { Sql } from '../src/db/client.js';
import { queueEmail, type EmailDispatcher } from '../src/email/service.js';
import type { EventDispatcher } from '../src/events/dispatch.js';

export type AgentDailyActivityDeps = { sql: Sql; events: EventDispatcher; emails: EmailDispatcher };

/** The email kind of the digest (outbound_emails.kind). */
export const DIGEST_EMAIL_KIND = 'agent_cashflow_digest';

export type CashflowDayResult = { anomaly: 'spike' | 'drop' | null; digest: 'queued' | 'no_email' | 'disabled' | 'already_sent' };

const usdc = (units: bigint) => `${formatUnits(units, 6)} USDC`;
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

export function createAgentDailyActivities({ sql, events, emails }: AgentDailyActivityDeps) {
  return {
    /** Merchants and modes with `capability` enabled. */
    async listAgentScopes(input: {
      capability: 'cashflow' | 'pricing_intelligence';
    }): Promise<{ merchantId: string; livemode: boolean }[]> {
      return agentRepo.listScopesWithCapability(sql, input.capability);
    },

    /**
     * The pricing suggestions of one merchant and mode (src/agents/pricing.ts) over the
     * PRICING_WINDOW_DAYS days up to the end of `day`, each recorded once per plan, rule and calendar
     * month (outcome `suggested`). Never changes a price.
     */
    async runPricingSuggestions(input: { merchantId: string; livemode: boolean; day: string }): Promise<{ suggested: string[] }> {
      const scope = { merchantId: input.merchantId, livemode: input.livemode };
      const config = await agentRepo.findConfig(sql, scope);
      if (!config?.config.enabledCapabilities.includes('pricing_intelligence')) return { suggested: [] };
      const stats = await agentRepo.planChurnInWindow(sql, scope, new Date(`${addDays(input.day, 1)}T00:00:00Z`), PRICING_WINDOW_DAYS);
      const suggestions = pricingSuggestions(stats);
      const month = input.day.slice(0, 7);
      const eventIds = await sql.begin(async (tx) => {
        const ids: (string | undefined)[] = [];
        for (const s of suggestions) {
          ids.push(
            await recordAgentAction(tx, {
              ...scope,
              capability: 'pricing_intelligence',
              actionType: 'price_suggestion',
              outcome: 'suggested',
              summary: s.summary,
              actionKey: `pricing:${s.planId}:${s.rule}:${month}`,
              details: {
                planId: s.planId,
                rule: s.rule,
                planChurnBps: s.planChurnBps,
                merchantChurnBps: s.merchantChurnBps,
                windowDays: PRICING_WINDOW_DAYS,
                day: input.day,
              },
            }),
          );
        }
        return ids;
      });
      await events.dispatch(
        sql,
        eventIds.filter((id): id is string => id !== undefined),
      );
      return { suggested: suggestions.map((s) => `${s.planId}:${s.rule}`) };
    },

    /**
     * The cashflow work of one merchant, mode and (finished) UTC day: the day's settled revenue judged
     * against the BASELINE_DAYS before it (a `revenue_anomaly` record when it is one), and, with
     * digestEnabled, the digest emailed to the merchant (`digest_sent`).
     */
    async runCashflowDay(input: { merchantId: string; livemode: boolean; day: string }): Promise<CashflowDayResult> {
      const scope = { merchantId: input.merchantId, livemode: input.livemode };
      const config = await agentRepo.findConfig(sql, scope);
      if (!config?.config.enabledCapabilities.includes('cashflow')) return { anomaly: null, digest: 'disabled' };
      const { cashflow } = config.config;
      const series = await agentRepo.dailySettledRevenue(sql, scope, addDays(input.day, -BASELINE_DAYS), input.day);
      const today = series[series.length - 1]!;
      const baseline = series.slice(0, -1);
      const judged = detectRevenueAnomaly(
        baseline.map((d) => d.amount),
        today.amount,
        cashflow.anomalySensitivity as AnomalySensitivity,
      );
      const last7 = series.slice(-7).reduce((a, d) => a + d.amount, 0n);
      const atRisk = await agentRepo.countAtRiskSubscriptions(sql, scope);

      const { eventIds, emailId, digest } = await sql
        .begin(async (tx) => {
          const eventIds: (string | undefined)[] = [];
          if (judged.anomaly) {
            eventIds.push(
              await recordAgentAction(tx, {
                ...scope,
                capability: 'cashflow',
                actionType: 'revenue_anomaly',
                outcome: 'succeeded',
                summary: `Settled revenue on ${input.day} was ${usdc(today.amount)}, a ${judged.direction} of ${judged.deviationPercent > 0 ? '+' : ''}${judged.deviationPercent}% against the ${BASELINE_DAYS}-day mean of ${usdc(judged.mean)} (${cashflow.anomalySensitivity} sensitivity).`,
                actionKey: `cashflow:${input.day}:anomaly`,
                details: {
                  day: input.day,
                  revenue: today.amount.toString(),
                  baselineMean: judged.mean.toString(),
                  direction: judged.direction,
                  deviationPercent: judged.deviationPercent,
                  sensitivity: cashflow.anomalySensitivity,
                },
              }),
            );
          }
          if (!cashflow.digestEnabled) return { eventIds, emailId: null, digest: 'disabled' as const };
          const merchant = await agentRepo.findMerchantEmail(tx, input.merchantId);
          const lines = [
            `Cashflow digest for ${merchant?.name ?? 'your account'} (${input.livemode ? 'live' : 'test'} mode), ${input.day} (UTC).`,
            '',
            `Settled revenue: ${usdc(today.amount)} from ${today.payments} ${today.payments === 1 ? 'payment' : 'payments'}.`,
            `Last 7 days: ${usdc(last7)}. ${BASELINE_DAYS}-day daily mean before this day: ${usdc(judged.mean)}.`,
            judged.anomaly
              ? `Anomaly: a ${judged.direction} of ${judged.deviationPercent > 0 ? '+' : ''}${judged.deviationPercent}% against the mean.`
              : judged.reason === 'insufficient_history'
                ? 'Anomalies: not judged yet (fewer than 7 days with revenue in the baseline).'
                : 'Anomalies: none.',
            `Subscriptions at risk now: ${atRisk}.`,
          ];
          const emailId = merchant?.email
            ? await queueEmail(tx, {
                ...scope,
                to: merchant.email,
                kind: DIGEST_EMAIL_KIND,
                subject: `Cashflow digest ${input.day}: ${usdc(today.amount)}`,
                text: lines.join('\n'),
              })
            : null;
          const recorded = await recordAgentAction(tx, {
            ...scope,
            capability: 'cashflow',
            actionType: 'digest_sent',
            outcome: emailId ? 'succeeded' : 'failed',
            summary: emailId
              ? `Cashflow digest for ${input.day} emailed to ${merchant!.email}.`
              : `Cashflow digest for ${input.day} not sent: the account has no email.`,
            actionKey: `cashflow:${input.day}:digest`,
            details: {
              day: input.day,
              revenue: today.amount.toString(),
              last7Days: last7.toString(),
              atRiskSubscriptions: atRisk,
              emailId,
            },
          });
          if (!recorded) throw new DigestAlreadySent();
          eventIds.push(recorded);
          return { eventIds, emailId, digest: emailId ? ('queued' as const) : ('no_email' as const) };
        })
        .catch((error: unknown) => {
          // The day's digest was recorded by an earlier run: roll back (no second email) and say so.
          if (error instanceof DigestAlreadySent)
            return { eventIds: [] as (string | undefined)[], emailId: null, digest: 'already_sent' as const };
          throw error;
        });
      if (emailId) await emails.dispatch(sql, [emailId]);
      await events.dispatch(
        sql,
        (eventIds as (string | undefined)[]).filter((id): id is string => id !== undefined),
      );
      return { anomaly: judged.anomaly ? judged.direction : null, digest };
    },
  };
}

class DigestAlreadySent extends Error {}

export type AgentDailyActivities = ReturnType<typeof createAgentDailyActivities>;
