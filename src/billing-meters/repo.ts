// SQL for billing meters, meter events and their hourly rollup. An event is inserted at most once per
// (merchant, mode, identifier): the primary key of meter_events decides, so racing duplicates cannot both count.
import type { Db, Sql } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';
import type { MeterAggregation } from './schemas.js';

export type MeterRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  displayName: string;
  eventName: string;
  aggregation: MeterAggregation;
  valueKey: string | null;
  customerMappingType: 'by_id' | 'by_wallet';
  customerPayloadKey: string;
  status: 'active' | 'inactive';
  deactivatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

const columns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, display_name as "displayName", event_name as "eventName", aggregation,
     value_key as "valueKey", customer_mapping_type as "customerMappingType", customer_payload_key as "customerPayloadKey",
     status, deactivated_at as "deactivatedAt", created_at as "createdAt", updated_at as "updatedAt"`;

export const ACTIVE_EVENT_NAME_INDEX = 'billing_meters_active_event_name';

export type NewMeter = Omit<MeterRow, 'status' | 'deactivatedAt' | 'createdAt' | 'updatedAt'>;

export async function insertMeter(db: Db, m: NewMeter): Promise<MeterRow> {
  const [row] = await db<MeterRow[]>`
    insert into billing_meters (id, merchant_id, livemode, display_name, event_name, aggregation, value_key,
      customer_mapping_type, customer_payload_key)
    values (${m.id}, ${m.merchantId}, ${m.livemode}, ${m.displayName}, ${m.eventName}, ${m.aggregation}, ${m.valueKey},
      ${m.customerMappingType}, ${m.customerPayloadKey})
    returning ${columns(db)}`;
  return row!;
}

export async function findMeter(db: Db, scope: MerchantScope, id: string, options: { lock?: boolean } = {}): Promise<MeterRow | undefined> {
  const [row] = await db<MeterRow[]>`
    select ${columns(db)} from billing_meters
    where id = ${id} and merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}
    ${options.lock ? db`for update` : db``}`;
  return row;
}

/** The active meters of these event names (at most one each). */
export async function findActiveMetersByEventName(db: Db, scope: MerchantScope, eventNames: string[]): Promise<MeterRow[]> {
  return db<MeterRow[]>`
    select ${columns(db)} from billing_meters
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and status = 'active'
      and event_name = any(${eventNames}::text[])`;
}

export async function listMeters(
  db: Db,
  scope: MerchantScope,
  page: { status?: 'active' | 'inactive'; before?: string; limit: number },
): Promise<MeterRow[]> {
  return db<MeterRow[]>`
    select ${columns(db)} from billing_meters
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}
      ${page.status ? db`and status = ${page.status}` : db``}
      ${page.before ? db`and id < ${page.before}` : db``}
    order by id desc limit ${page.limit + 1}`;
}

export async function updateMeterDisplayName(db: Db, id: string, displayName: string): Promise<MeterRow> {
  const [row] = await db<MeterRow[]>`
    update billing_meters set display_name = ${displayName}, updated_at = now() where id = ${id} returning ${columns(db)}`;
  return row!;
}

export async function setMeterStatus(db: Db, id: string, status: 'active' | 'inactive'): Promise<MeterRow> {
  const [row] = await db<MeterRow[]>`
    update billing_meters
    set status = ${status}, deactivated_at = ${status === 'inactive' ? db`now()` : db`null`}, updated_at = now()
    where id = ${id} returning ${columns(db)}`;
  return row!;
}

/** Customer ids of the scope among `ids`. */
export async function existingCustomerIds(db: Db, scope: MerchantScope, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db<{ id: string }[]>`
    select id from customers where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and id = any(${ids}::text[])`;
  return new Set(rows.map((r) => r.id));
}

/** Customer ids of the scope by lower-cased wallet address. */
export async function customerIdsByWallet(db: Db, scope: MerchantScope, wallets: string[]): Promise<Map<string, string>> {
  if (wallets.length === 0) return new Map();
  const rows = await db<{ id: string; walletAddress: string }[]>`
    select id, wallet_address as "walletAddress" from customers
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and wallet_address = any(${wallets}::text[])`;
  return new Map(rows.map((r) => [r.walletAddress, r.id]));
}

export type NewMeterEvent = {
  identifier: string;
  meterId: string;
  customerId: string;
  eventTime: Date;
  quantity: string | null;
  distinctValue: string | null;
  payload: Record<string, string>;
};

/**
 * Inserts the events in one statement and adds them to the rollups in the same statement; returns the identifiers
 * actually inserted (the others were duplicates). Rows go in sorted by identifier, and rollup rows by key, table
 * after table in one order (distinct values of the hour, the hour, distinct values of the day, the day: the day's
 * CTEs wait for the hour's, and cancelMeterEvent locks in the same order), so two statements that share rows wait
 * on each other in the same order and never deadlock.
 *
 * A distinct value (unique_count meters) moves its hour's or day's distinct count only when it is new there: the
 * upsert returns the value's count after it, and a count equal to what this statement added was 0 or absent
 * before (the upsert sees the latest committed count under the row lock, so racing statements count it once).
 */
export async function insertMeterEvents(db: Db, scope: MerchantScope, events: NewMeterEvent[]): Promise<Set<string>> {
  if (events.length === 0) return new Set();
  const rows = await db<{ identifier: string }[]>`
    with input as (
      select * from unnest(
        ${events.map((e) => e.identifier)}::text[],
        ${events.map((e) => e.meterId)}::text[],
        ${events.map((e) => e.customerId)}::text[],
        ${events.map((e) => e.eventTime.toISOString())}::timestamptz[],
        ${events.map((e) => e.quantity)}::numeric[],
        ${events.map((e) => e.distinctValue)}::text[],
        ${events.map((e) => JSON.stringify(e.payload))}::jsonb[]
      ) as t(identifier, meter_id, customer_id, event_time, quantity, distinct_value, payload)
    ), inserted as (
      insert into meter_events (merchant_id, livemode, identifier, meter_id, customer_id, event_time, quantity, distinct_value, payload)
      select ${scope.merchantId}, ${scope.livemode}, identifier, meter_id, customer_id, event_time, quantity, distinct_value, payload
      from input order by identifier
      on conflict (merchant_id, livemode, identifier) do nothing
      returning identifier, meter_id, customer_id, date_trunc('hour', event_time, 'UTC') as hour_start,
        date_trunc('day', event_time, 'UTC') as day_start, quantity, distinct_value
    ), hour_values as (
      select meter_id, customer_id, hour_start, distinct_value, count(*) as n
      from inserted where distinct_value is not null group by 1, 2, 3, 4
    ), hour_values_after as (
      insert into meter_usage_values_hourly (meter_id, customer_id, hour_start, distinct_value, event_count)
      select * from hour_values order by 1, 2, 3, 4
      on conflict (meter_id, customer_id, hour_start, distinct_value) do update
        set event_count = meter_usage_values_hourly.event_count + excluded.event_count
      returning meter_id, customer_id, hour_start, distinct_value, event_count
    ), hour_new_values as (
      select meter_id, customer_id, hour_start, count(*) as n
      from hour_values_after join hour_values using (meter_id, customer_id, hour_start, distinct_value)
      where event_count = n group by 1, 2, 3
    ), rolled_up as (
      insert into meter_usage_hourly (merchant_id, livemode, meter_id, customer_id, hour_start, quantity_sum, event_count, quantity_max, distinct_count)
      select ${scope.merchantId}, ${scope.livemode}, meter_id, customer_id, hour_start,
        coalesce(sum(quantity), 0), count(*), max(quantity), coalesce(max(hour_new_values.n), 0)
      from inserted left join hour_new_values using (meter_id, customer_id, hour_start)
      group by meter_id, customer_id, hour_start order by 3, 4, 5
      on conflict (meter_id, customer_id, hour_start) do update
        set quantity_sum = meter_usage_hourly.quantity_sum + excluded.quantity_sum,
            event_count = meter_usage_hourly.event_count + excluded.event_count,
            quantity_max = greatest(meter_usage_hourly.quantity_max, excluded.quantity_max),
            distinct_count = meter_usage_hourly.distinct_count + excluded.distinct_count
      returning 1
    ), day_values as (
      -- Joined to the hour's count so that it runs after the hour's rows are locked (the order in the comment above).
      select meter_id, customer_id, day_start, distinct_value, count(*) as n
      from inserted, (select count(*) from rolled_up) as hour_done
      where distinct_value is not null group by 1, 2, 3, 4
    ), day_values_after as (
      insert into meter_usage_values_daily (meter_id, customer_id, day_start, distinct_value, event_count)
      select * from day_values order by 1, 2, 3, 4
      on conflict (meter_id, customer_id, day_start, distinct_value) do update
        set event_count = meter_usage_values_daily.event_count + excluded.event_count
      returning meter_id, customer_id, day_start, distinct_value, event_count
    ), day_new_values as (
      select meter_id, customer_id, day_start, count(*) as n
      from day_values_after join day_values using (meter_id, customer_id, day_start, distinct_value)
      where event_count = n group by 1, 2, 3
    ), daily as (
      insert into meter_usage_daily (meter_id, customer_id, day_start, distinct_count)
      select * from day_new_values order by 1, 2, 3
      on conflict (meter_id, customer_id, day_start) do update
        set distinct_count = meter_usage_daily.distinct_count + excluded.distinct_count
    )
    select identifier from inserted`;
  return new Set(rows.map((r) => r.identifier));
}

export type StoredMeterEvent = { identifier: string; createdAt: Date; cancelledAt: Date | null };

export async function findMeterEvent(db: Db, scope: MerchantScope, identifier: string): Promise<StoredMeterEvent | undefined> {
  const [row] = await db<StoredMeterEvent[]>`
    select identifier, created_at as "createdAt", cancelled_at as "cancelledAt" from meter_events
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and identifier = ${identifier}`;
  return row;
}

/**
 * Marks the event cancelled and takes it out of the rollups; only an uncancelled event accepted after
 * `acceptedAfter`. Undefined when no such event (so a racing second cancellation does nothing). Rollup rows are
 * locked in insertMeterEvents's order: the hour's distinct value and the hour first, then (in the statement) the
 * day's. The hour's max is recomputed from its other uncancelled events: its row is locked before the statement
 * starts, so the statement's snapshot sees every insert and cancellation that touched the hour before it, and those
 * after it wait. A distinct value whose count reaches 0 leaves its hour's and day's distinct counts.
 */
export async function cancelMeterEvent(sql: Sql, scope: MerchantScope, identifier: string, acceptedAfter: Date): Promise<Date | undefined> {
  return sql.begin(async (tx) => {
    const event = () => tx`
      select meter_id, customer_id, date_trunc('hour', event_time, 'UTC') as hour_start, distinct_value from meter_events
      where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and identifier = ${identifier}`;
    await tx`
      select 1 from meter_usage_values_hourly v join (${event()}) e using (meter_id, customer_id, hour_start, distinct_value)
      for update of v`;
    await tx`select 1 from meter_usage_hourly h join (${event()}) e using (meter_id, customer_id, hour_start) for update of h`;
    const [row] = await tx<{ cancelledAt: Date }[]>`
      with cancelled as (
        update meter_events set cancelled_at = now()
        where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and identifier = ${identifier}
          and cancelled_at is null and created_at > ${acceptedAfter}
        returning identifier, meter_id, customer_id, date_trunc('hour', event_time, 'UTC') as hour_start,
          date_trunc('day', event_time, 'UTC') as day_start, quantity, distinct_value, cancelled_at
      ), hour_value as (
        update meter_usage_values_hourly v set event_count = v.event_count - 1
        from cancelled c
        where v.meter_id = c.meter_id and v.customer_id = c.customer_id and v.hour_start = c.hour_start
          and v.distinct_value = c.distinct_value
        returning v.event_count
      ), rolled_back as (
        update meter_usage_hourly h
        set quantity_sum = h.quantity_sum - coalesce(c.quantity, 0), event_count = h.event_count - 1,
          distinct_count = h.distinct_count - (select count(*) from hour_value where event_count = 0),
          -- The statement's snapshot still shows the cancelled event uncancelled: it is left out by identifier.
          quantity_max = (
            select max(e.quantity) from meter_events e
            where e.meter_id = c.meter_id and e.customer_id = c.customer_id and e.cancelled_at is null
              and e.event_time >= h.hour_start and e.event_time < h.hour_start + interval '1 hour' and e.identifier <> c.identifier)
        from cancelled c
        where h.meter_id = c.meter_id and h.customer_id = c.customer_id and h.hour_start = c.hour_start
      ), day_value as (
        update meter_usage_values_daily v set event_count = v.event_count - 1
        from cancelled c
        where v.meter_id = c.meter_id and v.customer_id = c.customer_id and v.day_start = c.day_start
          and v.distinct_value = c.distinct_value
        returning v.event_count
      ), daily as (
        update meter_usage_daily d set distinct_count = d.distinct_count - 1
        from cancelled c
        where d.meter_id = c.meter_id and d.customer_id = c.customer_id and d.day_start = c.day_start
          and exists (select 1 from day_value where event_count = 0)
      )
      select cancelled_at as "cancelledAt" from cancelled`;
    return row?.cancelledAt;
  });
}

export type UsageWindow = { start: Date; end: Date; value: string };

type UsageRow = { start: Date; value: string | null };

/**
 * The meter's aggregation of one customer's uncancelled events with start <= time < end, per UTC `window`
 * (hour or day; only windows with events) or, without one, over the whole range (one row, '0' when no event).
 * `sum`, `count` and `max` read the hourly rollup, so start and end must be whole UTC hours; the others read the
 * covering index of meter_events. Values are exact decimal text without trailing zeros. Period close
 * (issue 41, item 4) calls this for a customer, meter and billing period.
 */
export async function aggregateUsage(
  db: Db,
  meter: { id: string; aggregation: MeterAggregation },
  customerId: string,
  range: { start: Date; end: Date; window?: 'hour' | 'day' },
): Promise<UsageWindow[]> {
  const { start, end, window } = range;
  const bucket = (column: string) => (window ? db`date_trunc(${window}, ${db(column)}, 'UTC')` : db`${start.toISOString()}::timestamptz`);
  const from = (column: string) =>
    db`meter_id = ${meter.id} and customer_id = ${customerId} and ${db(column)} >= ${start} and ${db(column)} < ${end}`;
  let rows: UsageRow[];
  switch (meter.aggregation) {
    case 'sum':
    case 'count':
      rows = await db<UsageRow[]>`
        select ${bucket('hour_start')} as start,
          trim_scale(${meter.aggregation === 'sum' ? db`sum(quantity_sum)` : db`sum(event_count)::numeric`})::text as value
        from meter_usage_hourly where ${from('hour_start')} and event_count > 0
        group by 1 order by 1`;
      break;
    case 'max':
      rows = await db<UsageRow[]>`
        select ${bucket('hour_start')} as start, trim_scale(max(quantity_max))::text as value
        from meter_usage_hourly where ${from('hour_start')} and event_count > 0
        group by 1 order by 1`;
      break;
    case 'last':
      rows = await db<UsageRow[]>`
        select ${bucket('event_time')} as start,
          trim_scale((array_agg(quantity order by event_time desc, created_at desc))[1])::text as value
        from meter_events where ${from('event_time')} and cancelled_at is null group by 1 order by 1`;
      break;
    case 'unique_count':
      // Each window size keeps its own distinct count; a whole range unites the distinct values of its pieces.
      if (!window) return [{ start, end, value: await countDistinctValues(db, meter.id, customerId, range) }];
      rows = await db<UsageRow[]>`
        ${
          window === 'hour'
            ? db`select hour_start as start, distinct_count::text as value from meter_usage_hourly where ${from('hour_start')}`
            : db`select day_start as start, distinct_count::text as value from meter_usage_daily where ${from('day_start')}`
        } and distinct_count > 0 order by 1`;
      break;
  }
  if (!window) return [{ start, end, value: rows[0]?.value ?? '0' }];
  const step = window === 'hour' ? 3_600_000 : 86_400_000;
  return rows.map((r) => ({ start: r.start, end: new Date(r.start.getTime() + step), value: r.value ?? '0' }));
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * The distinct values of a customer's uncancelled events with start <= timestamp < end, at any boundaries: the
 * whole days inside from the daily values, the whole hours around them from the hourly values, the seconds at the
 * edges from the events, united (a value in several pieces counts once). A heavy customer's month reads about
 * (days x values a day) rows rather than every event.
 */
async function countDistinctValues(db: Db, meterId: string, customerId: string, range: { start: Date; end: Date }): Promise<string> {
  const { start, end } = range;
  const [firstHour, lastHour] = wholeUnitsInside(start.getTime(), end.getTime(), HOUR_MS);
  const [firstDay, lastDay] = wholeUnitsInside(firstHour, lastHour, DAY_MS);
  const at = (ms: number) => new Date(ms);
  const of = db`meter_id = ${meterId} and customer_id = ${customerId}`;
  const [row] = await db<{ value: string }[]>`
    select count(*)::text as value from (
      select distinct_value from meter_events where ${of} and cancelled_at is null
        and ((event_time >= ${start} and event_time < ${at(firstHour)}) or (event_time >= ${at(lastHour)} and event_time < ${end}))
      union
      select distinct_value from meter_usage_values_hourly where ${of} and event_count > 0
        and ((hour_start >= ${at(firstHour)} and hour_start < ${at(firstDay)}) or (hour_start >= ${at(lastDay)} and hour_start < ${at(lastHour)}))
      union
      select distinct_value from meter_usage_values_daily where ${of} and event_count > 0
        and day_start >= ${at(firstDay)} and day_start < ${at(lastDay)}
    ) distinct_values`;
  return row!.value;
}

/**
 * The whole `unit`s inside [start, end) as [first, last) in epoch ms; [end, end) when there is none, so that the
 * pieces before and after it cover [start, end) exactly once.
 */
function wholeUnitsInside(start: number, end: number, unit: number): [number, number] {
  const first = Math.ceil(start / unit) * unit;
  const last = Math.floor(end / unit) * unit;
  return first < last ? [first, last] : [end, end];
}

/**
 * A meter's aggregation of a customer's uncancelled events with start <= timestamp < end, exactly, at any
 * boundaries (a billing period starts at the enrolment's second, not on an hour): `sum`, `count` and `max` read
 * the whole hours inside the range from the hourly rollup and the partial hours at its edges from the events;
 * `last` and `unique_count` read the events (aggregateUsage). The period close's reading (period-close.ts).
 */
export async function aggregateExactUsage(
  db: Db,
  meter: { id: string; aggregation: MeterAggregation },
  customerId: string,
  range: { start: Date; end: Date },
): Promise<string> {
  const { aggregation } = meter;
  if (aggregation === 'last') return (await aggregateUsage(db, meter, customerId, range))[0]!.value;
  if (aggregation === 'unique_count') return countDistinctValues(db, meter.id, customerId, range);
  const { start, end } = range;
  // No whole hour inside: the events alone ([start, end) and an empty [end, end)).
  const [firstHour, lastHour] = wholeUnitsInside(start.getTime(), end.getTime(), HOUR_MS);
  const [innerStart, innerEnd] = [new Date(firstHour), new Date(lastHour)];
  // The rollup's column and the events' expression of each aggregation, and how the two halves combine.
  const rollup = { sum: db`sum(quantity_sum)`, count: db`sum(event_count)::numeric`, max: db`max(quantity_max)` }[aggregation];
  const events = { sum: db`sum(quantity)`, count: db`count(*)::numeric`, max: db`max(quantity)` }[aggregation];
  const inner = db`(select ${rollup} from meter_usage_hourly
      where meter_id = ${meter.id} and customer_id = ${customerId} and event_count > 0
        and hour_start >= ${innerStart} and hour_start < ${innerEnd})`;
  const edges = db`(select ${events} from meter_events
      where meter_id = ${meter.id} and customer_id = ${customerId} and cancelled_at is null
        and ((event_time >= ${start} and event_time < ${innerStart}) or (event_time >= ${innerEnd} and event_time < ${end})))`;
  const [row] = await db<{ value: string }[]>`
    select trim_scale(${aggregation === 'max' ? db`coalesce(greatest(${inner}, ${edges}), 0)` : db`coalesce(${inner}, 0) + coalesce(${edges}, 0)`})::text as value`;
  return row!.value;
}
