// A metered plan's usage threshold (issue 41, item 4; docs/metered-billing.md, "Usage threshold"): when the usage a
// subscription has not been billed for reaches the plan's `usageThreshold` mid-period, it is invoiced at once (an open
// invoice, as above the cap) and the subscription's cut (usage_billed_until) moves to the end of what was billed, so
// the period close (and the upcoming invoice, and the final close) bill only the usage after it. Nothing is pulled on
// chain: the contract pulls once a period, and the period's charge has used it. Found by one periodic sweep
// (workflows/usage-threshold-sweep.ts), not by a workflow or timer per subscription.
import type { Sql, Db } from '../db/client.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { commitWithEvents } from '../events/commit.js';
import { newId } from '../ids.js';
import { renderInvoice } from '../invoices/api-shape.js';
import { formatMoney } from '../money/format.js';
import { findPlanById, type PlanRow } from '../subscription-plans/repo.js';
import { periodStart } from '../subscriptions/periods.js';
import * as subscriptionRepo from '../subscriptions/repo.js';
import { renderSubscription } from '../subscriptions/api-shape.js';
import type { Client } from '@temporalio/client';
import { createWorkflowStarter, type QueuedWorkflowStart } from '../temporal/start-outbox.js';
import { businessNow } from '../test-clocks/business-time.js';
import { afterCut, findUsageClose, usageLines, type CloseLine, type UsageCloser } from './period-close.js';

/** The statuses whose usage is still billed by a coming period close (a paused or ended one is not swept; the candidates' query lists them too). */
const SWEPT_STATUSES = ['active', 'trialing', 'at_risk'] as const;

export type ThresholdBillRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  subscriptionId: string;
  usageStart: Date;
  usageEnd: Date;
  lines: CloseLine[];
  total: string;
  invoiceId: string;
  createdAt: Date;
};

const columns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, subscription_id as "subscriptionId", usage_start as "usageStart",
     usage_end as "usageEnd", lines, total::text as total, invoice_id as "invoiceId", created_at as "createdAt"`;

export async function listThresholdBills(db: Db, subscriptionId: string): Promise<ThresholdBillRow[]> {
  return db<ThresholdBillRow[]>`
    select ${columns(db)} from subscription_usage_threshold_bills where subscription_id = ${subscriptionId} order by usage_end`;
}

/** The event's `object`. */
export function renderThresholdBill(row: ThresholdBillRow) {
  return {
    id: row.id,
    object: 'subscription_usage_threshold_bill' as const,
    subscriptionId: row.subscriptionId,
    usageStart: row.usageStart.toISOString(),
    usageEnd: row.usageEnd.toISOString(),
    lines: row.lines,
    total: row.total,
    invoiceId: row.invoiceId,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The usage a threshold bill at `at` would price: from the cut (or the current period's start) to `at` less the plan's
 * grace for late events (a late event stays in the window of the next bill or the close), never past the period's end
 * (what comes after is the next period's). Null when it is empty or the period's close is already frozen (a charge
 * being retried: that close billed it).
 */
export async function thresholdWindow(db: Db, sub: subscriptionRepo.SubscriptionRow, plan: PlanRow, at: Date) {
  if (sub.currentPeriodIndex === null || !plan.meteredPrices) return null;
  if (await findUsageClose(db, sub.id, sub.currentPeriodIndex + 1)) return null;
  const schedule = { anchor: sub.firstPeriodStart, interval: plan.interval, intervalCount: plan.intervalCount };
  const periodEnd = periodStart(schedule, sub.currentPeriodIndex + 1);
  const settled = new Date(at.getTime() - (plan.usageGracePeriodSeconds ?? 0) * 1000);
  const window = afterCut(sub, { start: periodStart(schedule, sub.currentPeriodIndex), end: settled < periodEnd ? settled : periodEnd });
  return window.end > window.start ? window : null;
}

export type ThresholdBillerDeps = {
  sql: Sql;
  events: EventDispatcher;
  usageCloser: UsageCloser;
  publicBaseUrl: string;
  temporal?: Client;
};

export function createThresholdBiller(deps: ThresholdBillerDeps) {
  const { sql, events, usageCloser } = deps;
  const starter = createWorkflowStarter(deps.temporal, sql, () => {});

  return {
    /** One page of the subscriptions the sweep looks at: swept statuses, charged at least once, a plan with a threshold. */
    async candidates(page: { afterId: string | null; limit: number }): Promise<string[]> {
      const rows = await sql<{ id: string }[]>`
        select s.id from subscriptions s join subscription_plans p on p.id = s.plan_id
        where p.usage_threshold is not null and s.status in ('active', 'trialing', 'at_risk') and s.current_period_index is not null
          ${page.afterId ? sql`and s.id > ${page.afterId}` : sql``}
        order by s.id limit ${page.limit}`;
      return rows.map((r) => r.id);
    },

    /**
     * Bills one subscription's unbilled usage up to the sweep's time when it has reached the plan's threshold: in one
     * transaction under the subscription's lock, the open invoice, the bill's row, the cut and the event. `nowMs`: the
     * sweep's time (its workflow's); a subscription on a test clock uses the clock's. Running it again at the same time
     * finds an empty window (the cut is there) and bills nothing. Null when nothing was billed.
     */
    async billUsageThreshold(subscriptionId: string, nowMs: number): Promise<ThresholdBillRow | null> {
      let starts: QueuedWorkflowStart[] = [];
      const bill = await commitWithEvents(sql, events, async (tx, record) => {
        const sub = await subscriptionRepo.findSubscriptionById(tx, subscriptionId, { forUpdate: true });
        if (!sub || !(SWEPT_STATUSES as readonly string[]).includes(sub.status)) return null;
        const plan = await findPlanById(tx, sub.planId);
        if (!plan?.usageThreshold) return null;
        const window = await thresholdWindow(tx, sub, plan, await businessNow(tx, sub, () => new Date(nowMs)));
        if (!window) return null;
        const lines = await usageLines(tx, sub, plan, window);
        const total = lines.reduce((acc, line) => acc + BigInt(line.amount), 0n);
        if (total < BigInt(plan.usageThreshold)) return null;
        const periodIndex = sub.currentPeriodIndex! + 1;
        const opened = await usageCloser.openUsageInvoice(tx, record, sub, periodIndex, {
          amount: total,
          description: `Usage from ${window.start.toISOString()} to ${window.end.toISOString()} (threshold ${formatMoney(plan.usageThreshold, 'USDC')}): ${lines.map((l) => l.description).join('; ')}`,
          note: `Subscription ${sub.id}: your usage reached the plan's billing threshold before the period ended; this usage will not be billed again with the period.`,
        });
        starts = opened.starts;
        const [row] = await tx<ThresholdBillRow[]>`
          insert into subscription_usage_threshold_bills (id, merchant_id, livemode, subscription_id, usage_start, usage_end, lines, total, invoice_id)
          values (${newId('usageThresholdBill')}, ${sub.merchantId}, ${sub.livemode}, ${sub.id}, ${window.start}, ${window.end},
            ${tx.json(lines as never)}, ${total.toString()}, ${opened.row.id})
          returning ${columns(tx)}`;
        await tx`update subscriptions set usage_billed_until = ${window.end}, updated_at = now() where id = ${sub.id}`;
        await record({
          merchantId: sub.merchantId,
          livemode: sub.livemode,
          type: 'subscription.usage_threshold_reached',
          data: {
            object: renderThresholdBill(row!),
            invoice: renderInvoice(opened.row, deps.publicBaseUrl),
            subscription: renderSubscription({ ...sub, usageBilledUntil: window.end }),
          },
        });
        return row!;
      });
      await starter.startAfterCommit(starts);
      return bill;
    },
  };
}

export type ThresholdBiller = ReturnType<typeof createThresholdBiller>;
