// Analytics: MRR, churn, conversion, LTV and forecast for one merchant, mode
// and currency. SQL is in repo.ts, bucket and rate math in buckets.ts; every
// amount is a bigint, every rate an exact decimal string. docs/analytics.md
// defines each figure with a worked example.
import type { Sql } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';
import { addMonths, periodStart } from '../subscriptions/periods.js';
import { addDays, buildBuckets, divOrZero, formatDay, parseDay, rate, survive, wholeMonthsBetween, type Bucket } from './buckets.js';
import * as repo from './repo.js';
import type {
  ChurnResponse,
  ConversionResponse,
  ForecastQuery,
  ForecastResponse,
  LtvResponse,
  MrrResponse,
  StatsQuery,
} from './schemas.js';

/** Length of the trailing window of the LTV churn rate, in calendar months. */
export const LTV_WINDOW_MONTHS = 3;

type Range = { from: Date; to: Date; end: Date; buckets: Bucket[]; filter: repo.StatsFilter };

function range(scope: MerchantScope, query: StatsQuery): Range {
  // The query schema has already refused dates that do not parse (rangeIssues).
  const from = parseDay(query.from)!;
  const to = parseDay(query.to)!;
  return {
    from,
    to,
    end: addDays(to, 1),
    buckets: buildBuckets(from, to, query.interval),
    filter: { ...scope, currency: query.currency, planId: query.planId },
  };
}

function head(query: StatsQuery) {
  return { interval: query.interval, from: query.from, to: query.to, currency: query.currency, planId: query.planId ?? null };
}

const s = (value: bigint) => value.toString();

/** Balances at every UTC midnight of [start, end]: balance(day) = everything recorded before that day. */
async function balancesByDay(sql: Sql, filter: repo.StatsFilter, start: Date, end: Date) {
  const [opening, changes] = await Promise.all([repo.balanceAt(sql, filter, start), repo.dailyChanges(sql, filter, start, end)]);
  const byDay = new Map(changes.map((c) => [c.day, c]));
  const balances = new Map<string, repo.Balance>();
  let current = opening;
  for (let day = start; day <= end; day = addDays(day, 1)) {
    const key = formatDay(day);
    balances.set(key, current);
    const change = byDay.get(key);
    if (change) current = { mrr: current.mrr + change.mrr, units: current.units + change.gained - change.lost };
  }
  return (at: Date) => balances.get(formatDay(at))!;
}

export function createStatsService({ sql }: { sql: Sql }) {
  return {
    async mrr(scope: MerchantScope, query: StatsQuery): Promise<MrrResponse> {
      const r = range(scope, query);
      const [opening, moves] = await Promise.all([
        repo.balanceAt(sql, r.filter, r.from),
        repo.movements(sql, r.filter, r.buckets, { churnedUnits: false }),
      ]);
      let mrr = opening.mrr;
      let units = opening.units;
      const totals = { newMrr: 0n, expansion: 0n, contraction: 0n, churned: 0n, reactivation: 0n };
      const series = moves.map((m, i) => {
        const starting = mrr;
        const net = m.newMrr + m.expansion + m.reactivation - m.contraction - m.churned;
        mrr += net;
        units += m.unitsGained - m.unitsLost;
        totals.newMrr += m.newMrr;
        totals.expansion += m.expansion;
        totals.contraction += m.contraction;
        totals.churned += m.churned;
        totals.reactivation += m.reactivation;
        return {
          date: r.buckets[i]!.date,
          startingMrr: s(starting),
          newMrr: s(m.newMrr),
          expansionMrr: s(m.expansion),
          contractionMrr: s(m.contraction),
          churnedMrr: s(m.churned),
          reactivationMrr: s(m.reactivation),
          netNewMrr: s(net),
          endingMrr: s(mrr),
          customers: s(units),
        };
      });
      const net = totals.newMrr + totals.expansion + totals.reactivation - totals.contraction - totals.churned;
      return {
        ...head(query),
        summary: {
          startingMrr: s(opening.mrr),
          newMrr: s(totals.newMrr),
          expansionMrr: s(totals.expansion),
          contractionMrr: s(totals.contraction),
          churnedMrr: s(totals.churned),
          reactivationMrr: s(totals.reactivation),
          netNewMrr: s(net),
          endingMrr: s(mrr),
          customers: s(units),
          arr: s(mrr * 12n),
        },
        series,
      };
    },

    async churn(scope: MerchantScope, query: StatsQuery): Promise<ChurnResponse> {
      const r = range(scope, query);
      const [opening, moves, wholeRange] = await Promise.all([
        repo.balanceAt(sql, r.filter, r.from),
        repo.movements(sql, r.filter, r.buckets),
        repo.churnedUnitsVoluntarySplit(sql, r.filter, { start: r.from, end: r.end }),
      ]);
      let mrr = opening.mrr;
      let units = opening.units;
      let churnedMrr = 0n;
      let voluntaryMrr = 0n;
      const series = moves.map((m, i) => {
        const row = churnFigures(units, m.churnedUnits, m.churnedUnitsVoluntary, mrr, m.churnedCancelled, m.churnedLapsed);
        mrr += m.newMrr + m.expansion + m.reactivation - m.contraction - m.churned;
        units += m.unitsGained - m.unitsLost;
        churnedMrr += m.churnedCancelled + m.churnedLapsed;
        voluntaryMrr += m.churnedCancelled;
        return { date: r.buckets[i]!.date, ...row };
      });
      return {
        ...head(query),
        summary: churnFigures(
          opening.units,
          wholeRange.churned,
          wholeRange.voluntary,
          opening.mrr,
          voluntaryMrr,
          churnedMrr - voluntaryMrr,
        ),
        series,
      };
    },

    async conversion(scope: MerchantScope, query: StatsQuery): Promise<ConversionResponse> {
      const r = range(scope, query);
      const rows = await repo.conversion(sql, r.filter, r.buckets);
      const total: repo.ConversionCounts = {
        sessionsCreated: 0n,
        sessionsPaid: 0n,
        sessionsExpired: 0n,
        storefrontCreated: 0n,
        storefrontPaid: 0n,
        storefrontExpired: 0n,
        invoicesSent: 0n,
        invoicesPaid: 0n,
        trialsStarted: 0n,
        trialsConverted: 0n,
      };
      for (const row of rows) for (const key of Object.keys(total) as (keyof repo.ConversionCounts)[]) total[key] += row[key];
      return {
        ...head(query),
        summary: conversionFigures(total),
        series: rows.map((row, i) => ({ date: r.buckets[i]!.date, ...conversionFigures(row) })),
      };
    },

    async ltv(scope: MerchantScope, query: StatsQuery): Promise<LtvResponse> {
      const r = range(scope, query);
      const windows = r.buckets.map((b) => ({ start: addMonths(b.end, -LTV_WINDOW_MONTHS), end: b.end }));
      const earliest = windows.reduce((min, w) => (w.start < min ? w.start : min), r.from);
      const [balance, churned, cohorts] = await Promise.all([
        balancesByDay(sql, r.filter, earliest, r.end),
        repo.churnedUnitsInWindows(sql, r.filter, windows),
        repo.cohorts(sql, r.filter, new Date(Date.UTC(r.from.getUTCFullYear(), r.from.getUTCMonth(), 1)), r.end),
      ]);
      const point = (i: number) => ltvFigures(balance(windows[i]!.end), balance(windows[i]!.start), churned[i]!, windows[i]!.start);
      return {
        ...head(query),
        summary: {
          ...point(windows.length - 1),
          cohorts: cohorts.map((c) => ({
            cohort: c.cohort,
            customers: s(c.customers),
            revenue: s(c.revenue),
            charges: s(c.charges),
            revenuePerCustomer: s(divOrZero(c.revenue, c.customers)),
          })),
        },
        series: r.buckets.map((b, i) => ({ date: b.date, ...point(i) })),
      };
    },

    async forecast(scope: MerchantScope, query: ForecastQuery): Promise<ForecastResponse> {
      const r = range(scope, query);
      const start = r.end;
      const buckets = buildBuckets(start, addDays(start, query.horizon * 31 + 31), query.interval).slice(0, query.horizon);
      const forecastEnd = buckets[buckets.length - 1]!.end;
      const observedDays = BigInt(Math.round((r.end.getTime() - r.from.getTime()) / 86_400_000));
      const [{ atFrom: opening, atEnd: now }, observed, groups] = await Promise.all([
        repo.balancesAt(sql, r.filter, r.from, r.end),
        repo.churnedUnitsVoluntarySplit(sql, r.filter, { start: r.from, end: r.end }),
        repo.scheduleGroups(sql, r.filter),
      ]);
      // Monthly churn c = churned x 365 / (customers x days x 12), kept as the fraction N / D.
      const churnN = observed.churned * 365n;
      const churnD = opening.units * observedDays * 12n;
      const keep = churnD > churnN ? churnD - churnN : 0n;

      const cash = buckets.map(() => 0n);
      const scheduledMrr = buckets.map(() => 0n);
      for (const g of groups) {
        const schedule = { anchor: g.firstPeriodStart, interval: g.interval, intervalCount: g.intervalCount };
        const termEnd = g.remaining === null ? null : periodStart(schedule, g.nextPeriodIndex + g.remaining);
        buckets.forEach((b, i) => {
          const inTerm = termEnd === null || termEnd > b.start;
          const paying = g.status === 'paying' || g.nextChargeAt <= b.start;
          if (inTerm && paying) scheduledMrr[i] = scheduledMrr[i]! + g.mrr;
        });
        addScheduledCharges(cash, buckets, start, forecastEnd, g, schedule);
      }
      const series = buckets.map((b, i) => {
        const months = wholeMonthsBetween(start, b.start);
        return {
          date: b.date,
          monthsAhead: months,
          survival: churnD === 0n ? rate(1n, 1n) : rate(keep ** BigInt(months), churnD ** BigInt(months)),
          scheduledCash: s(cash[i]!),
          cash: s(survive(cash[i]!, keep, churnD, months)),
          scheduledMrr: s(scheduledMrr[i]!),
          mrr: s(survive(scheduledMrr[i]!, keep, churnD, months)),
        };
      });
      return {
        interval: query.interval,
        from: query.from,
        to: query.to,
        currency: query.currency,
        planId: query.planId ?? null,
        summary: {
          mrrNow: s(now.mrr),
          projectedCash: s(series.reduce((sum, p) => sum + BigInt(p.cash), 0n)),
          projectedMrrAtEnd: series[series.length - 1]!.mrr,
          assumptions: {
            horizon: query.horizon,
            observedFrom: query.from,
            observedTo: query.to,
            customersAtObservedStart: s(opening.units),
            churnedCustomersObserved: s(observed.churned),
            monthlyChurnRate: rate(churnN, churnD),
            notes: [
              `The forecast starts on ${formatDay(start)}, the day after \`to\`; \`from\`..\`to\` is the window the churn rate is observed over.`,
              'Scheduled charges come from the next charge date of each trialing, active or at_risk subscription, then one per billing period of its plan until its term (if fixed) ends.',
              'Charges already due before the forecast start (overdue or being retried) are not counted.',
              'Every subscription is assumed to pay each charge; trials are assumed to convert at their first charge.',
              'A subscription with a discount is projected at its discounted amount over the whole horizon; when the discount ends is not projected.',
              'Churn is applied as survival (1 - monthlyChurnRate)^monthsAhead, monthsAhead being whole calendar months from the forecast start to the bucket start; amounts are truncated per bucket.',
              'No new subscriptions, expansions or contractions are projected.',
            ],
          },
        },
        series,
      };
    },
  };
}

const DAY_MS = 86_400_000;
const STEP_DAYS: Partial<Record<repo.ScheduleGroup['interval'], number>> = { daily: 1, weekly: 7 };

/**
 * Adds a schedule group's charges to the bucket they fall in: the next charge, then period
 * `nextPeriodIndex + j` (j >= 1) of the plan until the term ends. Day-based plans are counted
 * arithmetically per bucket (a daily plan has hundreds of charges in a horizon); calendar-month
 * plans are walked, a few per bucket at most.
 */
function addScheduledCharges(
  cash: bigint[],
  buckets: readonly Bucket[],
  start: Date,
  end: Date,
  g: repo.ScheduleGroup,
  schedule: Parameters<typeof periodStart>[0],
) {
  const remaining = g.remaining;
  if (remaining === 0) return;
  const bucketOf = (due: Date) => buckets.findIndex((b) => b.start <= due && due < b.end);
  if (g.nextChargeAt >= start && g.nextChargeAt < end) cash[bucketOf(g.nextChargeAt)]! += g.amount;
  const stepDays = STEP_DAYS[g.interval];
  if (stepDays !== undefined) {
    // Period p starts anchor + p x step days; j runs from 1 to remaining - 1 (or without end).
    const step = stepDays * g.intervalCount * DAY_MS;
    const first = g.nextPeriodIndex + 1;
    const last = remaining === null ? Infinity : g.nextPeriodIndex + remaining - 1;
    const anchor = g.firstPeriodStart.getTime();
    buckets.forEach((b, i) => {
      // Smallest p with anchor + p x step >= b.start, largest with anchor + p x step < b.end.
      const low = Math.max(first, Math.ceil((b.start.getTime() - anchor) / step));
      const high = Math.min(last, Math.ceil((b.end.getTime() - anchor) / step) - 1);
      if (high >= low) cash[i]! += g.amount * BigInt(high - low + 1);
    });
    return;
  }
  for (let j = 1; remaining === null || j < remaining; j++) {
    const due = periodStart(schedule, g.nextPeriodIndex + j);
    if (due >= end) break;
    if (due >= start) cash[bucketOf(due)]! += g.amount;
  }
}

function churnFigures(units: bigint, churned: bigint, voluntary: bigint, mrr: bigint, cancelledMrr: bigint, lapsedMrr: bigint) {
  return {
    customersAtStart: s(units),
    churnedCustomers: s(churned),
    voluntaryChurnedCustomers: s(voluntary),
    involuntaryChurnedCustomers: s(churned - voluntary),
    customerChurnRate: rate(churned, units),
    mrrAtStart: s(mrr),
    churnedMrr: s(cancelledMrr + lapsedMrr),
    voluntaryChurnedMrr: s(cancelledMrr),
    involuntaryChurnedMrr: s(lapsedMrr),
    mrrChurnRate: rate(cancelledMrr + lapsedMrr, mrr),
  };
}

function conversionFigures(c: repo.ConversionCounts) {
  return {
    paymentSessions: {
      created: s(c.sessionsCreated),
      paid: s(c.sessionsPaid),
      expired: s(c.sessionsExpired),
      rate: rate(c.sessionsPaid, c.sessionsCreated),
    },
    storefront: {
      created: s(c.storefrontCreated),
      paid: s(c.storefrontPaid),
      expired: s(c.storefrontExpired),
      rate: rate(c.storefrontPaid, c.storefrontCreated),
    },
    invoices: { sent: s(c.invoicesSent), paid: s(c.invoicesPaid), rate: rate(c.invoicesPaid, c.invoicesSent) },
    trials: { started: s(c.trialsStarted), converted: s(c.trialsConverted), rate: rate(c.trialsConverted, c.trialsStarted) },
  };
}

function ltvFigures(atEnd: repo.Balance, atWindowStart: repo.Balance, churned: bigint, windowStart: Date) {
  const arpa = divOrZero(atEnd.mrr, atEnd.units);
  const months = BigInt(LTV_WINDOW_MONTHS);
  return {
    mrr: s(atEnd.mrr),
    customers: s(atEnd.units),
    arpa: s(arpa),
    windowStart: formatDay(windowStart),
    customersAtWindowStart: s(atWindowStart.units),
    churnedCustomersInWindow: s(churned),
    monthlyChurnRate: rate(churned, atWindowStart.units * months),
    ltv: churned === 0n || atWindowStart.units === 0n ? null : s((arpa * atWindowStart.units * months) / churned),
  };
}

export type StatsService = ReturnType<typeof createStatsService>;
