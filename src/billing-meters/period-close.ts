// The close of a metered subscription's period (issue 41, item 4; docs/metered-billing.md, "Period close"):
// at the start of period n the charge pulls the fixed price of period n in advance plus the usage of period n-1
// in arrears, never more than the cap the subscriber authorised on chain. The first attempt at the period's
// charge runs the close: it aggregates each meter over [start(n-1), start(n)), prices it (pricing.ts), and
// freezes the lines, the total, what is pulled and the rest in subscription_usage_closes together with the
// charge row, in one transaction; a retry reads the frozen close (usage arriving later changes nothing).
// A total above the cap pulls the cap and opens an invoice for the rest (its hosted page and payment session,
// as every invoice has), with subscription.usage_over_cap.
import type { Client } from '@temporalio/client';
import type { ChainConfig } from '../chain/config.js';
import type { Db, Sql } from '../db/client.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { commitWithEvents, type RecordEvent } from '../events/commit.js';
import { newId } from '../ids.js';
import { renderInvoice } from '../invoices/api-shape.js';
import { insertInvoiceInTx, sendDraftInTx } from '../invoices/service.js';
import { markOpenWithoutEmail, type InvoiceRow } from '../invoices/repo.js';
import { discountOnPlan } from '../coupons/discount-amount.js';
import { claimProrations } from '../subscription-plan-changes/repo.js';
import { findPlanById } from '../subscription-plans/repo.js';
import { periodStart } from '../subscriptions/periods.js';
import * as subscriptionRepo from '../subscriptions/repo.js';
import { renderSubscription } from '../subscriptions/api-shape.js';
import { createWorkflowStarter, type QueuedWorkflowStart } from '../temporal/start-outbox.js';
import { findClockOfWallet } from '../test-clocks/repo.js';
import { formatMoney } from '../money/format.js';
import { priceUsage, type TierCharge } from './pricing.js';
import { aggregateExactUsage, findMeter } from './repo.js';

export type CloseLine =
  | { type: 'fixed'; description: string; amount: string }
  | { type: 'discount'; description: string; discountId: string; amount: string }
  | { type: 'proration'; description: string; amount: string }
  | {
      type: 'usage';
      description: string;
      meterId: string;
      model: 'per_unit' | 'package' | 'graduated' | 'volume';
      /** The meter's aggregation over the usage window (decimal text). */
      quantity: string;
      packages?: string;
      tiers?: TierCharge[];
      amount: string;
    };

export type UsageCloseRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  subscriptionId: string;
  periodIndex: number;
  usageStart: Date | null;
  usageEnd: Date | null;
  lines: CloseLine[];
  total: string;
  charged: string;
  remainder: string;
  remainderInvoiceId: string | null;
  /** The close of a cancelled subscription's last usage (closeFinalUsage): nothing pulled, all of it invoiced. */
  final: boolean;
  createdAt: Date;
};

const columns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, subscription_id as "subscriptionId", period_index as "periodIndex",
     usage_start as "usageStart", usage_end as "usageEnd", lines, total::text as total, charged::text as charged,
     remainder::text as remainder, remainder_invoice_id as "remainderInvoiceId", final, created_at as "createdAt"`;

export async function findUsageClose(db: Db, subscriptionId: string, periodIndex: number): Promise<UsageCloseRow | undefined> {
  const [row] = await db<UsageCloseRow[]>`
    select ${columns(db)} from subscription_usage_closes where subscription_id = ${subscriptionId} and period_index = ${periodIndex}`;
  return row;
}

export async function listUsageCloses(db: Db, subscriptionId: string, page?: { before?: string; limit: number }): Promise<UsageCloseRow[]> {
  if (!page)
    return db<UsageCloseRow[]>`
      select ${columns(db)} from subscription_usage_closes where subscription_id = ${subscriptionId} order by period_index`;
  return db<UsageCloseRow[]>`
    select ${columns(db)} from subscription_usage_closes
    where subscription_id = ${subscriptionId} ${page.before ? db`and id < ${page.before}` : db``}
    order by id desc limit ${page.limit + 1}`;
}

/** The API shape of a close (the event's data, GET /v1/subscriptions/{id}/period-closes). */
export function renderUsageClose(row: UsageCloseRow) {
  return {
    id: row.id,
    object: 'subscription_period_close' as const,
    subscriptionId: row.subscriptionId,
    periodIndex: row.periodIndex,
    usageStart: row.usageStart?.toISOString() ?? null,
    usageEnd: row.usageEnd?.toISOString() ?? null,
    lines: row.lines,
    total: row.total,
    charged: row.charged,
    remainder: row.remainder,
    remainderInvoiceId: row.remainderInvoiceId,
    final: row.final,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
  };
}

type Subscription = subscriptionRepo.SubscriptionRow;

/** How a close reads the prorations riding on its period: the close claims them, a preview only looks. */
export type ProrationReader = (db: Db, subscriptionId: string, periodIndex: number) => Promise<bigint>;

/**
 * The lines of period `periodIndex`'s charge: its fixed price (and discount, prorations), then for a metered plan the
 * usage of the period before, with the total, what the charge pulls (at most the cap) and the rest. The close freezes
 * these; the upcoming invoice (upcoming-invoice.ts) shows them before the close, from the same code, so both agree.
 */
export async function closeLines(db: Db, sub: Subscription, periodIndex: number, prorationsOf: ProrationReader) {
  const plan = await findPlanById(db, sub.planId);
  if (!plan) throw new Error(`plan ${sub.planId} of ${sub.id} is missing`);
  const lines: CloseLine[] = [];
  // A metered subscription's amount is the cap, so its price is the plan's fixed amount (as recordFixedAttempt, else).
  const price = BigInt(sub.priceAmount ?? (plan.meteredPrices ? plan.amount : sub.amount));
  lines.push({ type: 'fixed', description: `${plan.name}, period ${periodIndex + 1}`, amount: price.toString() });
  // A coupon takes its share off the fixed price only (docs/metered-billing.md).
  const discounted = sub.discount ? discountOnPlan(sub.planId, price, sub.discount) : null;
  if (discounted)
    lines.push({
      type: 'discount',
      description: sub.discount!.name ?? 'Discount',
      discountId: sub.discount!.id,
      amount: (-discounted.discount).toString(),
    });
  const prorations = await prorationsOf(db, sub.id, periodIndex);
  if (prorations > 0n) lines.push({ type: 'proration', description: 'Plan change proration', amount: prorations.toString() });
  let usage: { start: Date; end: Date } | null = null;
  if (periodIndex >= 1 && plan.meteredPrices) {
    usage = afterCut(sub, {
      start: periodStart(planSchedule(sub, plan), periodIndex - 1),
      end: periodStart(planSchedule(sub, plan), periodIndex),
    });
    lines.push(...(await usageLines(db, sub, plan, usage)));
  }
  const sum = lines.reduce((acc, line) => acc + BigInt(line.amount), 0n);
  const total = sum < 0n ? 0n : sum;
  const cap = BigInt(sub.amount);
  const charged = total < cap ? total : cap;
  return { lines, total, charged, remainder: total - charged, usage, cap, discount: discounted };
}

type Plan = NonNullable<Awaited<ReturnType<typeof findPlanById>>>;

const planSchedule = (sub: Subscription, plan: Plan) => ({
  anchor: sub.firstPeriodStart,
  interval: plan.interval,
  intervalCount: plan.intervalCount,
});

/**
 * A usage window after a threshold bill's cut (usage_billed_until): it starts at the cut when the cut is later, and
 * never ends before it starts, so no usage is billed twice (docs/metered-billing.md, "Usage threshold").
 */
export function afterCut(sub: Pick<Subscription, 'usageBilledUntil'>, window: { start: Date; end: Date }): { start: Date; end: Date } {
  const cut = sub.usageBilledUntil ?? null;
  const start = cut && cut > window.start ? cut : window.start;
  return { start, end: window.end < start ? start : window.end };
}

/** One line per metered price: its meter's exact aggregation of the customer's usage in the window, priced. */
export async function usageLines(db: Db, sub: Subscription, plan: Plan, usage: { start: Date; end: Date }): Promise<CloseLine[]> {
  const lines: CloseLine[] = [];
  for (const metered of plan.meteredPrices ?? []) {
    const meter = await findMeter(db, sub, metered.meterId);
    const quantity = meter ? await aggregateExactUsage(db, meter, sub.customerId, usage) : '0';
    lines.push({
      type: 'usage',
      description: `${meter?.displayName ?? metered.meterId}: ${quantity} units`,
      meterId: metered.meterId,
      model: metered.model,
      quantity,
      ...priceUsage(metered, quantity),
    });
  }
  return lines;
}

/**
 * When an ended metered subscription's last usage closes: the usage window's end plus the plan's grace for late
 * events. The window is the last charged period, up to the cancel when one came before its end (a completed
 * subscription's last period runs to its end). Null when there is no usage to close: a fixed plan, not cancelled or
 * completed, never charged, or already closed (by a charge or an earlier call).
 */
export async function finalUsageWindow(db: Db, subscriptionId: string) {
  const sub = await subscriptionRepo.findSubscriptionById(db, subscriptionId);
  if (!sub?.metered || sub.currentPeriodIndex === null) return null;
  if (sub.status !== 'cancelled' && sub.status !== 'completed') return null;
  const plan = await findPlanById(db, sub.planId);
  if (!plan?.meteredPrices) return null;
  const periodIndex = sub.currentPeriodIndex + 1;
  if (await findUsageClose(db, sub.id, periodIndex)) return null;
  const start = periodStart(planSchedule(sub, plan), sub.currentPeriodIndex);
  const periodEnd = periodStart(planSchedule(sub, plan), periodIndex);
  const end = sub.cancelledAt && sub.cancelledAt < periodEnd ? sub.cancelledAt : periodEnd;
  return {
    sub,
    plan,
    periodIndex,
    usage: afterCut(sub, { start, end }),
    closeAt: new Date(end.getTime() + (plan.usageGracePeriodSeconds ?? 0) * 1000),
  };
}

export type UsageCloserDeps = {
  sql: Sql;
  events: EventDispatcher;
  /** The deployment's chains (the open invoice's payment session); absent: a close above the cap fails and retries. */
  chain?: ChainConfig;
  publicBaseUrl: string;
  taskQueue: string;
  temporal?: Client;
};

export function createUsageCloser(deps: UsageCloserDeps) {
  const { sql, events } = deps;
  const starter = createWorkflowStarter(deps.temporal, sql, () => {});

  /**
   * Writes a close and, when it opened an invoice, its event: `subscription.usage_over_cap` for a period's close,
   * `subscription.final_usage_invoiced` for an ended subscription's final one.
   */
  async function freezeClose(
    tx: Db,
    record: RecordEvent,
    sub: Subscription,
    close: {
      periodIndex: number;
      usage: { start: Date; end: Date } | null;
      lines: CloseLine[];
      total: bigint;
      charged: bigint;
      invoice: InvoiceRow | undefined;
      final: boolean;
    },
  ): Promise<UsageCloseRow> {
    const [row] = await tx<UsageCloseRow[]>`
      insert into subscription_usage_closes (id, merchant_id, livemode, subscription_id, period_index, usage_start, usage_end, lines,
        total, charged, remainder, remainder_invoice_id, final)
      values (${newId('usageClose')}, ${sub.merchantId}, ${sub.livemode}, ${sub.id}, ${close.periodIndex}, ${close.usage?.start ?? null},
        ${close.usage?.end ?? null}, ${tx.json(close.lines as never)}, ${close.total.toString()}, ${close.charged.toString()},
        ${(close.total - close.charged).toString()}, ${close.invoice?.id ?? null}, ${close.final})
      returning ${columns(tx)}`;
    if (close.invoice)
      await record({
        merchantId: sub.merchantId,
        livemode: sub.livemode,
        type: close.final ? 'subscription.final_usage_invoiced' : 'subscription.usage_over_cap',
        data: {
          object: renderUsageClose(row!),
          invoice: renderInvoice(close.invoice, deps.publicBaseUrl),
          subscription: renderSubscription(sub),
        },
      });
    return row!;
  }

  /** The open invoice for what the cap left unpaid. */
  async function openRemainderInvoice(tx: Db, record: RecordEvent, sub: Subscription, periodIndex: number, total: bigint, charged: bigint) {
    return openUsageInvoice(tx, record, sub, periodIndex, {
      amount: total - charged,
      description: `Usage above the authorised cap, period ${periodIndex + 1}: total ${formatMoney(total.toString(), 'USDC')}, ${formatMoney(charged.toString(), 'USDC')} charged on chain`,
      note: `Subscription ${sub.id}: the usage billed this period came to more than the ${formatMoney(sub.amount, 'USDC')} per period your wallet authorised.`,
    });
  }

  /** An invoice for usage that no pull collects, opened at once (payable through its hosted page and session). */
  async function openUsageInvoice(
    tx: Db,
    record: RecordEvent,
    sub: Subscription,
    periodIndex: number,
    invoice: { amount: bigint; description: string; note: string },
  ) {
    if (!deps.chain) throw new Error('an open usage invoice needs the chain configuration');
    const testClock = sub.livemode ? undefined : await findClockOfWallet(tx, sub.merchantId, sub.subscriberAddress);
    const inserted = await insertInvoiceInTx(tx, record, { ...deps, chain: deps.chain }, sub, {
      // The subscription's customer: the portal lists the invoice under them.
      customerId: sub.customerId,
      customerEmail: sub.customerEmail ?? undefined,
      lineItems: [{ description: invoice.description, quantity: 1, unitAmount: invoice.amount.toString() }],
      note: invoice.note,
      ...(testClock ? { testClock } : {}),
      metadata: { subscriptionId: sub.id, periodIndex: String(periodIndex) },
    });
    // Open at once (payable, overdue after its due date): emailed as POST /v1/invoices/{id}/send does when the
    // customer has an address, otherwise only marked sent (the hosted page and the event carry it).
    if (!inserted.row.customerEmail) return { ...inserted, row: await markOpenWithoutEmail(tx, inserted.row.id) };
    const sent = await sendDraftInTx(tx, { merchantId: sub.merchantId, livemode: sub.livemode }, inserted.row, deps);
    return { row: sent.row, starts: [...inserted.starts, sent.start] };
  }

  return {
    /** Opens an invoice for usage no pull collects (the threshold bill's too: usage-threshold.ts). */
    openUsageInvoice,

    /**
     * Closes period `periodIndex` once (later calls read the frozen close) and, in the same transaction,
     * `withCharge` records the charge attempt at the amount pulled (charged) and the close's discount.
     */
    async closeWithCharge<T>(
      subscriptionId: string,
      periodIndex: number,
      withCharge: (tx: Db, close: UsageCloseRow, discount: { id: string; amountOff: string } | null) => Promise<T>,
    ): Promise<T> {
      let starts: QueuedWorkflowStart[] = [];
      const result = await commitWithEvents(sql, events, async (tx, record) => {
        // The subscription locked first (as every writer does): racing attempts close once.
        const sub = (await subscriptionRepo.findSubscriptionById(tx, subscriptionId, { forUpdate: true }))!;
        const frozen = await findUsageClose(tx, sub.id, periodIndex);
        if (frozen) {
          const discount = frozen.lines.find((l) => l.type === 'discount');
          return withCharge(
            tx,
            frozen,
            discount?.type === 'discount' ? { id: discount.discountId, amountOff: (-BigInt(discount.amount)).toString() } : null,
          );
        }
        if (!sub.metered) throw new Error(`subscription ${sub.id} has no metered prices`);
        const { lines, total, charged, usage, discount } = await closeLines(tx, sub, periodIndex, claimProrations);
        const opened = total > charged ? await openRemainderInvoice(tx, record, sub, periodIndex, total, charged) : undefined;
        starts = opened?.starts ?? [];
        const close = await freezeClose(tx, record, sub, { periodIndex, usage, lines, total, charged, invoice: opened?.row, final: false });
        const discountLine = sub.discount && discount ? { id: sub.discount.id, amountOff: discount.discount.toString() } : null;
        return withCharge(tx, close, discountLine);
      });
      await starter.startAfterCommit(starts);
      return result;
    },

    /**
     * An ended (cancelled or completed) metered subscription's last usage, once: the usage of its last charged period
     * up to its end (finalUsageWindow), priced as a close is and frozen as the close of the period after it (`final`),
     * with nothing pulled (the contract pulls once a period, and a cancelled enrolment not at all); a total above 0
     * becomes an open invoice, with subscription.final_usage_invoiced. Null when there was nothing to close.
     */
    async closeFinalUsage(subscriptionId: string): Promise<UsageCloseRow | null> {
      let starts: QueuedWorkflowStart[] = [];
      const close = await commitWithEvents(sql, events, async (tx, record) => {
        await subscriptionRepo.findSubscriptionById(tx, subscriptionId, { forUpdate: true });
        const final = await finalUsageWindow(tx, subscriptionId);
        if (!final) return null;
        const { sub, plan, periodIndex, usage } = final;
        const lines = await usageLines(tx, sub, plan, usage);
        const total = lines.reduce((acc, line) => acc + BigInt(line.amount), 0n);
        const opened =
          total > 0n
            ? await openUsageInvoice(tx, record, sub, periodIndex, {
                amount: total,
                description: `Usage of period ${periodIndex} until the subscription ended: ${lines.map((l) => l.description).join('; ')}`,
                note: `Subscription ${sub.id} has ended (${sub.status}); this is the usage of its last period, which no charge collected.`,
              })
            : undefined;
        starts = opened?.starts ?? [];
        return freezeClose(tx, record, sub, { periodIndex, usage, lines, total, charged: 0n, invoice: opened?.row, final: true });
      });
      await starter.startAfterCommit(starts);
      return close;
    },
  };
}

export type UsageCloser = ReturnType<typeof createUsageCloser>;
