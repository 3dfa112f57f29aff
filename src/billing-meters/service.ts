// Billing meters and their usage events (issue 41, items 1 and 2). Events are rows, not workflows: an
// accepted identifier is stored once per merchant and mode, a duplicate is accepted and ignored.
import { isUniqueViolation, type Sql } from '../db/client.js';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import { newId } from '../ids.js';
import * as repo from './repo.js';
import { checkMeterEvent, type CheckedMeterEvent, type MeterEventRefusal } from './event-checks.js';
import type {
  CreateMeterBody,
  Meter,
  MeterEvent,
  MeterEventBatch,
  MeterEventBatchResult,
  MeterEventBody,
  MeterEventCancellation,
  MeterEventSummary,
  MeterListQuery,
  SummaryQuery,
  UpdateMeterBody,
} from './schemas.js';

/** How long after it was accepted an event may be cancelled. */
export const CANCEL_WINDOW_MS = 24 * 3_600_000;
/** The longest range one summary request covers. */
const MAX_SUMMARY_RANGE_MS = 366 * 86_400_000;

export function renderMeter(row: repo.MeterRow): Meter {
  return {
    id: row.id,
    object: 'billing.meter',
    displayName: row.displayName,
    eventName: row.eventName,
    aggregation: row.aggregation,
    valueKey: row.valueKey,
    customerMapping: { type: row.customerMappingType, eventPayloadKey: row.customerPayloadKey },
    status: row.status,
    deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const meterNotFound = (id: string) => new NotFoundError(`No such billing meter: ${id}.`, { param: 'id' });

const eventNameTaken = (eventName: string) =>
  new InvalidRequestError(`An active meter already takes the event name ${eventName}.`, { param: 'eventName' });

/** The refusal of one event as the API's error (single endpoint) or as a batch item's error. */
const refusalError = (refusal: MeterEventRefusal) => new InvalidRequestError(refusal.message, { param: refusal.param });

export function createMeterService({ sql, now = () => new Date() }: { sql: Sql; now?: () => Date }) {
  /** Checks each event against the active meters and the customers of the scope (two queries in all). */
  async function checkEvents(scope: MerchantScope, events: MeterEventBody[]): Promise<Array<CheckedMeterEvent | MeterEventRefusal>> {
    const meters = await repo.findActiveMetersByEventName(sql, scope, [...new Set(events.map((e) => e.eventName))]);
    const byEventName = new Map(meters.map((m) => [m.eventName, m]));
    const customerKeys = events.flatMap((e) => {
      const m = byEventName.get(e.eventName);
      const key = m ? e.payload[m.customerPayloadKey] : undefined;
      return m && key !== undefined ? [{ type: m.customerMappingType, key }] : [];
    });
    const ids = await repo.existingCustomerIds(
      sql,
      scope,
      customerKeys.filter((k) => k.type === 'by_id').map((k) => k.key),
    );
    const wallets = await repo.customerIdsByWallet(
      sql,
      scope,
      customerKeys.filter((k) => k.type === 'by_wallet').map((k) => k.key.toLowerCase()),
    );
    const at = now();
    return events.map((event) =>
      checkMeterEvent(event, byEventName.get(event.eventName), {
        now: at,
        customerId: (type, key) => (type === 'by_id' ? (ids.has(key) ? key : undefined) : wallets.get(key.toLowerCase())),
      }),
    );
  }

  return {
    async create(scope: MerchantScope, input: CreateMeterBody): Promise<Meter> {
      try {
        // Its own transaction (a savepoint inside a request's), so a refused name leaves the request's usable.
        const row = await sql.begin((tx) =>
          repo.insertMeter(tx, {
            id: newId('billingMeter'),
            ...scope,
            displayName: input.displayName,
            eventName: input.eventName,
            aggregation: input.aggregation,
            valueKey: input.valueKey ?? null,
            customerMappingType: input.customerMapping.type,
            customerPayloadKey: input.customerMapping.eventPayloadKey,
          }),
        );
        return renderMeter(row);
      } catch (error) {
        if (isUniqueViolation(error, repo.ACTIVE_EVENT_NAME_INDEX)) throw eventNameTaken(input.eventName);
        throw error;
      }
    },

    async get(scope: MerchantScope, id: string): Promise<Meter> {
      const row = await repo.findMeter(sql, scope, id);
      if (!row) throw meterNotFound(id);
      return renderMeter(row);
    },

    async list(scope: MerchantScope, query: MeterListQuery): Promise<Page<Meter>> {
      const rows = await repo.listMeters(sql, scope, { status: query.status, before: decodeCursor(query.cursor), limit: query.limit });
      return toPage(rows, query.limit, renderMeter);
    },

    async update(scope: MerchantScope, id: string, input: UpdateMeterBody): Promise<Meter> {
      const current = await repo.findMeter(sql, scope, id);
      if (!current) throw meterNotFound(id);
      if (input.displayName === undefined || input.displayName === current.displayName) return renderMeter(current);
      return renderMeter(await repo.updateMeterDisplayName(sql, id, input.displayName));
    },

    /** Deactivating stops new events; reactivating needs the event name free among active meters. */
    async setStatus(scope: MerchantScope, id: string, status: 'active' | 'inactive'): Promise<Meter> {
      const current = await repo.findMeter(sql, scope, id);
      if (!current) throw meterNotFound(id);
      if (current.status === status) return renderMeter(current);
      try {
        return renderMeter(await sql.begin((tx) => repo.setMeterStatus(tx, id, status)));
      } catch (error) {
        if (isUniqueViolation(error, repo.ACTIVE_EVENT_NAME_INDEX)) throw eventNameTaken(current.eventName);
        throw error;
      }
    },

    async ingest(scope: MerchantScope, input: MeterEventBody): Promise<MeterEvent> {
      const checked = (await checkEvents(scope, [input]))[0]!;
      if (checked.kind === 'refused') throw refusalError(checked);
      const inserted = await repo.insertMeterEvents(sql, scope, [checked]);
      return {
        object: 'billing.meter_event',
        identifier: checked.identifier,
        eventName: input.eventName,
        timestamp: checked.eventTime.toISOString(),
        payload: input.payload,
        duplicate: !inserted.has(checked.identifier),
        livemode: scope.livemode,
      };
    },

    /** Refusals are per event; the accepted ones are inserted in one statement. */
    async ingestBatch(scope: MerchantScope, events: MeterEventBody[]): Promise<MeterEventBatch> {
      const checked = await checkEvents(scope, events);
      const accepted = checked.filter((c): c is CheckedMeterEvent => c.kind === 'checked');
      const inserted = await repo.insertMeterEvents(sql, scope, accepted);
      // A repeated identifier within the batch counts once: the first occurrence is the one stored.
      const claimed = new Set<string>();
      const data = checked.map((c, i): MeterEventBatchResult => {
        if (c.kind === 'refused') {
          return {
            identifier: events[i]!.identifier,
            status: 'refused',
            error: { code: 'invalid_request', message: c.message, param: c.param },
          };
        }
        const first = inserted.has(c.identifier) && !claimed.has(c.identifier);
        claimed.add(c.identifier);
        return { identifier: c.identifier, status: first ? 'accepted' : 'duplicate' };
      });
      const count = (status: MeterEventBatchResult['status']) => data.filter((d) => d.status === status).length;
      return {
        object: 'billing.meter_event_batch',
        accepted: count('accepted'),
        duplicates: count('duplicate'),
        refused: count('refused'),
        data,
      };
    },

    /** Within 24 h of its acceptance; cancelling a cancelled event again answers the first cancellation. */
    async cancel(scope: MerchantScope, identifier: string): Promise<MeterEventCancellation> {
      const stored = await repo.findMeterEvent(sql, scope, identifier);
      if (!stored) throw new NotFoundError(`No such meter event: ${identifier}.`, { param: 'identifier' });
      const render = (cancelledAt: Date): MeterEventCancellation => ({
        object: 'billing.meter_event_cancellation',
        identifier,
        cancelledAt: cancelledAt.toISOString(),
      });
      if (stored.cancelledAt) return render(stored.cancelledAt);
      const acceptedAfter = new Date(now().getTime() - CANCEL_WINDOW_MS);
      if (stored.createdAt <= acceptedAfter) {
        throw new InvalidRequestError('A meter event can be cancelled only within 24 hours of being accepted.', { param: 'identifier' });
      }
      const cancelledAt = await repo.cancelMeterEvent(sql, scope, identifier, acceptedAfter);
      if (cancelledAt) return render(cancelledAt);
      // Cancelled by a concurrent request in between: answer that cancellation.
      return render((await repo.findMeterEvent(sql, scope, identifier))!.cancelledAt!);
    },

    async summaries(scope: MerchantScope, meterId: string, query: SummaryQuery): Promise<Page<MeterEventSummary>> {
      const meter = await repo.findMeter(sql, scope, meterId);
      if (!meter) throw meterNotFound(meterId);
      const start = new Date(query.startTime);
      const end = new Date(query.endTime);
      const unit = query.valueGroupingWindow === 'day' ? 86_400_000 : 3_600_000;
      const alignment = unit === 86_400_000 ? 'a whole UTC day' : 'a whole UTC hour';
      if (start.getTime() % unit !== 0) throw new InvalidRequestError(`startTime must be on ${alignment}.`, { param: 'startTime' });
      if (end.getTime() % unit !== 0) throw new InvalidRequestError(`endTime must be on ${alignment}.`, { param: 'endTime' });
      if (end <= start) throw new InvalidRequestError('endTime must be after startTime.', { param: 'endTime' });
      if (end.getTime() - start.getTime() > MAX_SUMMARY_RANGE_MS) {
        throw new InvalidRequestError('endTime must be at most 366 days after startTime.', { param: 'endTime' });
      }
      if ((await repo.existingCustomerIds(sql, scope, [query.customerId])).size === 0) {
        throw new InvalidRequestError(`No such customer: ${query.customerId}.`, { param: 'customerId' });
      }
      const windows = await repo.aggregateUsage(sql, meter, query.customerId, { start, end, window: query.valueGroupingWindow });
      return {
        data: windows.map((w) => ({
          object: 'billing.meter_event_summary' as const,
          meterId,
          customerId: query.customerId,
          startTime: w.start.toISOString(),
          endTime: w.end.toISOString(),
          aggregatedValue: w.value,
        })),
        nextCursor: '',
        hasMore: false,
      };
    },
  };
}

export type MeterService = ReturnType<typeof createMeterService>;
