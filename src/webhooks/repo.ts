// SQL for webhook endpoints, delivery runs, delivery records and notices.
import type { Db } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';

export type EndpointRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  url: string;
  events: string[];
  description: string;
  status: 'active' | 'disabled';
  disabledReason: 'manual' | 'too_many_failures' | null;
  disabledAt: Date | null;
  secretCiphertext: Buffer;
  secretPrefix: string;
  previousSecretCiphertext: Buffer | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  /** `url`: the api sends to `url`. `listener`: a test-mode `npm run listen` session receives it (src/webhooks/listeners.ts). */
  kind: 'url' | 'listener';
  /** Listeners only: nothing is delivered after this time. */
  expiresAt: Date | null;
};

const endpointColumns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, url, events, description, status, disabled_reason as "disabledReason",
     disabled_at as "disabledAt", secret_ciphertext as "secretCiphertext", secret_prefix as "secretPrefix",
     previous_secret_ciphertext as "previousSecretCiphertext", previous_secret_expires_at as "previousSecretExpiresAt",
     created_at as "createdAt", kind, expires_at as "expiresAt"`;

export async function insertEndpoint(
  db: Db,
  row: Pick<EndpointRow, 'id' | 'merchantId' | 'livemode' | 'url' | 'events' | 'description' | 'secretCiphertext' | 'secretPrefix'> & {
    /** A listener: expires this many seconds from now unless a session keeps it alive. */
    listenerExpiresInSeconds?: number;
  },
): Promise<EndpointRow> {
  const listener = row.listenerExpiresInSeconds !== undefined;
  const [inserted] = await db<EndpointRow[]>`
    insert into webhook_endpoints (id, merchant_id, livemode, url, events, description, status, secret_ciphertext, secret_prefix, kind, expires_at)
    values (${row.id}, ${row.merchantId}, ${row.livemode}, ${row.url}, ${db.array(row.events)}, ${row.description}, 'active',
            ${row.secretCiphertext}, ${row.secretPrefix}, ${listener ? 'listener' : 'url'},
            ${listener ? db`now() + make_interval(secs => ${row.listenerExpiresInSeconds!})` : null})
    returning ${endpointColumns(db)}`;
  return inserted!;
}

export async function findEndpoint(
  db: Db,
  scope: MerchantScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<EndpointRow | undefined> {
  const [row] = await db<EndpointRow[]>`
    select ${endpointColumns(db)} from webhook_endpoints
    where id = ${id} and merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}
    ${options.forUpdate ? db`for update` : db``}`;
  return row;
}

/** Worker-side read by id alone (the workflow carries ids it got from the fan-out). */
export async function findEndpointById(db: Db, id: string): Promise<EndpointRow | undefined> {
  const [row] = await db<EndpointRow[]>`select ${endpointColumns(db)} from webhook_endpoints where id = ${id}`;
  return row;
}

export async function listEndpoints(db: Db, scope: MerchantScope, page: { before?: string; limit: number }): Promise<EndpointRow[]> {
  return db<EndpointRow[]>`
    select ${endpointColumns(db)} from webhook_endpoints
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}
      ${page.before ? db`and id < ${page.before}` : db``}
    order by id desc limit ${page.limit + 1}`;
}

export async function setEndpointStatus(
  db: Db,
  id: string,
  change: { status: 'active' } | { status: 'disabled'; reason: 'manual' | 'too_many_failures' },
): Promise<EndpointRow> {
  const [row] = await db<EndpointRow[]>`
    update webhook_endpoints set
      status = ${change.status},
      disabled_reason = ${change.status === 'disabled' ? change.reason : null},
      disabled_at = ${change.status === 'disabled' ? db`now()` : null},
      updated_at = now()
    where id = ${id}
    returning ${endpointColumns(db)}`;
  return row!;
}

export async function rotateEndpointSecret(
  db: Db,
  id: string,
  secret: { ciphertext: Buffer; prefix: string; previousCiphertext: Buffer; overlapSeconds: number },
): Promise<EndpointRow> {
  const [row] = await db<EndpointRow[]>`
    update webhook_endpoints set
      secret_ciphertext = ${secret.ciphertext},
      secret_prefix = ${secret.prefix},
      previous_secret_ciphertext = ${secret.previousCiphertext},
      previous_secret_expires_at = now() + make_interval(secs => ${secret.overlapSeconds}),
      updated_at = now()
    where id = ${id}
    returning ${endpointColumns(db)}`;
  return row!;
}

/** Active endpoints of the merchant and mode subscribed to `type` (or to `*`). */
export async function findSubscribedEndpointIds(db: Db, scope: MerchantScope, type: string): Promise<string[]> {
  const rows = await db<{ id: string }[]>`
    select id from webhook_endpoints
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and status = 'active'
      and (expires_at is null or expires_at > now())
      and (${type} = any(events) or '*' = any(events))
    order by id`;
  return rows.map((r) => r.id);
}

/**
 * For a batch of events, every (event, endpoint) pair to deliver: the active
 * endpoints of each event's merchant and mode subscribed to its kind (or to
 * `*`). One query for the whole batch; an event nobody subscribes to has no pair.
 */
export async function findSubscribedEndpointsOfEvents(
  db: Db,
  eventIds: readonly string[],
): Promise<Array<{ eventId: string; endpointId: string }>> {
  if (eventIds.length === 0) return [];
  return db<Array<{ eventId: string; endpointId: string }>>`
    select e.id as "eventId", w.id as "endpointId"
    from events e
    join webhook_endpoints w
      on w.merchant_id = e.merchant_id and w.livemode = e.livemode and w.status = 'active'
     and (w.expires_at is null or w.expires_at > now())
     and (e.type = any(w.events) or '*' = any(w.events))
    where e.id in ${db(eventIds as string[])}
    order by e.created_at, e.id, w.id`;
}

// Delivery runs -------------------------------------------------------------

export type RunRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  eventId: string;
  endpointId: string;
  sequence: number;
  status: 'in_progress' | 'succeeded' | 'permanently_failed' | 'cancelled';
};

const runColumns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, event_id as "eventId", endpoint_id as "endpointId", sequence, status`;

/** Inserts the run unless it exists; returns the stored row either way. */
export async function ensureRun(db: Db, run: Omit<RunRow, 'status'>): Promise<RunRow> {
  await db`
    insert into webhook_delivery_runs (id, merchant_id, livemode, event_id, endpoint_id, sequence, status)
    values (${run.id}, ${run.merchantId}, ${run.livemode}, ${run.eventId}, ${run.endpointId}, ${run.sequence}, 'in_progress')
    on conflict do nothing`;
  const [row] = await db<RunRow[]>`select ${runColumns(db)} from webhook_delivery_runs where id = ${run.id}`;
  return row!;
}

export async function findRun(db: Db, id: string): Promise<RunRow | undefined> {
  const [row] = await db<RunRow[]>`select ${runColumns(db)} from webhook_delivery_runs where id = ${id}`;
  return row;
}

export async function nextRunSequence(db: Db, eventId: string, endpointId: string): Promise<number> {
  const [row] = await db<{ next: number }[]>`
    select coalesce(max(sequence), -1)::int + 1 as next from webhook_delivery_runs
    where event_id = ${eventId} and endpoint_id = ${endpointId}`;
  return row!.next;
}

/** Ends an in-progress run; false when it had already ended. */
export async function finishRun(db: Db, id: string, status: 'succeeded' | 'permanently_failed' | 'cancelled'): Promise<boolean> {
  const rows = await db`
    update webhook_delivery_runs set status = ${status}, finished_at = now()
    where id = ${id} and status = 'in_progress' returning id`;
  if (status === 'cancelled') {
    await db`update webhook_deliveries set next_retry_at = null where run_id = ${id}`;
  }
  return rows.length > 0;
}

export async function countRecentPermanentFailures(db: Db, endpointId: string, windowSeconds: number): Promise<number> {
  const [row] = await db<{ n: number }[]>`
    select count(*)::int as n from webhook_delivery_runs
    where endpoint_id = ${endpointId} and status = 'permanently_failed'
      and finished_at > now() - make_interval(secs => ${windowSeconds})`;
  return row!.n;
}

// Delivery records (one per send of an attempt) -------------------------------

/** `sending` until the send's outcome is recorded; `interrupted` when the worker stopped before that. */
export type DeliveryStatus = 'sending' | 'interrupted' | 'succeeded' | 'failed' | 'permanently_failed';
export type DeliveryOutcome = Extract<DeliveryStatus, 'succeeded' | 'failed' | 'permanently_failed'>;

export const INTERRUPTED_SEND_ERROR =
  'interrupted: the sender stopped (crash or timeout) before the answer was recorded; the attempt was sent again';

export type DeliveryRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  runId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  sequence: number;
  status: DeliveryStatus;
  responseStatus: number | null;
  responseBodyExcerpt: string | null;
  error: string | null;
  durationMs: number;
  attemptedAt: Date;
  nextRetryAt: Date | null;
};

const deliveryColumns = (db: Db) =>
  db`d.id, d.merchant_id as "merchantId", d.livemode, d.run_id as "runId", d.endpoint_id as "endpointId",
     d.event_id as "eventId", d.event_type as "eventType", d.attempt, r.sequence, d.status,
     d.response_status as "responseStatus", d.response_body_excerpt as "responseBodyExcerpt", d.error,
     d.duration_ms as "durationMs", d.attempted_at as "attemptedAt", d.next_retry_at as "nextRetryAt"`;

/**
 * Records a send before its request goes out (`sending`). A record of the same attempt still
 * `sending` belongs to a send that a crash cut short: it becomes `interrupted`, and this send gets the next number.
 */
export async function recordSendStarted(
  db: Db,
  row: Pick<
    DeliveryRow,
    'id' | 'merchantId' | 'livemode' | 'runId' | 'endpointId' | 'eventId' | 'eventType' | 'attempt' | 'attemptedAt'
  > & {
    /** The exact body this send signs and sends (GET /v1/events/{id} shows it). */
    requestBody: string;
  },
): Promise<void> {
  await db`
    with interrupted as (
      update webhook_deliveries set status = 'interrupted', error = ${INTERRUPTED_SEND_ERROR}
      where run_id = ${row.runId} and attempt = ${row.attempt} and status = 'sending'
      returning 1
    )
    insert into webhook_deliveries (id, merchant_id, livemode, run_id, endpoint_id, event_id, event_type, attempt, send, status,
      duration_ms, attempted_at, request_body)
    values (${row.id}, ${row.merchantId}, ${row.livemode}, ${row.runId}, ${row.endpointId}, ${row.eventId}, ${row.eventType},
      ${row.attempt},
      (select coalesce(max(send), 0) + 1 from webhook_deliveries where run_id = ${row.runId} and attempt = ${row.attempt}),
      'sending', 0, ${row.attemptedAt}, ${row.requestBody})`;
}

/** Records the outcome of a send recorded by `recordSendStarted`. */
export async function recordSendFinished(
  db: Db,
  id: string,
  outcome: Pick<DeliveryRow, 'responseStatus' | 'responseBodyExcerpt' | 'error' | 'durationMs' | 'nextRetryAt'> & {
    status: DeliveryOutcome | 'interrupted';
  },
): Promise<void> {
  await db`
    update webhook_deliveries set status = ${outcome.status}, response_status = ${outcome.responseStatus},
      response_body_excerpt = ${outcome.responseBodyExcerpt}, error = ${outcome.error}, duration_ms = ${outcome.durationMs},
      next_retry_at = ${outcome.nextRetryAt}
    where id = ${id}`;
}

export async function findDelivery(db: Db, scope: MerchantScope, id: string): Promise<DeliveryRow | undefined> {
  const [row] = await db<DeliveryRow[]>`
    select ${deliveryColumns(db)} from webhook_deliveries d join webhook_delivery_runs r on r.id = d.run_id
    where d.id = ${id} and d.merchant_id = ${scope.merchantId} and d.livemode = ${scope.livemode}`;
  return row;
}

export async function listDeliveries(
  db: Db,
  scope: MerchantScope,
  filter: { endpointId?: string; status?: DeliveryRow['status']; before?: string; limit: number },
): Promise<DeliveryRow[]> {
  return db<DeliveryRow[]>`
    select ${deliveryColumns(db)} from webhook_deliveries d join webhook_delivery_runs r on r.id = d.run_id
    where d.merchant_id = ${scope.merchantId} and d.livemode = ${scope.livemode}
      ${filter.endpointId ? db`and d.endpoint_id = ${filter.endpointId}` : db``}
      ${filter.status ? db`and d.status = ${filter.status}` : db``}
      ${filter.before ? db`and d.id < ${filter.before}` : db``}
    order by d.id desc limit ${filter.limit + 1}`;
}

// Notices --------------------------------------------------------------------

export async function insertNotice(
  db: Db,
  notice: {
    id: string;
    merchantId: string;
    livemode: boolean;
    endpointId: string;
    kind: 'webhook_endpoint.disabled';
    occurredAt: Date;
    data: Record<string, unknown>;
  },
): Promise<boolean> {
  const rows = await db`
    insert into webhook_endpoint_notices (id, merchant_id, livemode, endpoint_id, kind, occurred_at, data)
    values (${notice.id}, ${notice.merchantId}, ${notice.livemode}, ${notice.endpointId}, ${notice.kind}, ${notice.occurredAt},
            ${db.json(notice.data as never)})
    on conflict (endpoint_id, kind, occurred_at) do nothing returning id`;
  return rows.length > 0;
}

export async function markNoticeEmailed(db: Db, endpointId: string, kind: 'webhook_endpoint.disabled', occurredAt: Date): Promise<void> {
  await db`
    update webhook_endpoint_notices set emailed_at = now()
    where endpoint_id = ${endpointId} and kind = ${kind} and occurred_at = ${occurredAt}`;
}

// Test events -----------------------------------------------------------------

/**
 * Records a `webhook_endpoint.test` event already marked dispatched: the event
 * dispatcher never claims it, so it reaches only the endpoint whose delivery
 * run the caller starts, never the endpoint's `*` siblings.
 */
export async function insertTestEvent(
  db: Db,
  event: { id: string; merchantId: string; livemode: boolean; type: string; data: Record<string, unknown> },
): Promise<{ id: string; createdAt: Date }> {
  const [row] = await db<{ id: string; createdAt: Date }[]>`
    insert into events (id, merchant_id, livemode, type, data, dispatched_at)
    values (${event.id}, ${event.merchantId}, ${event.livemode}, ${event.type}, ${db.json(event.data as never)}, now())
    returning id, created_at as "createdAt"`;
  return row!;
}

/** The `data` of the merchant's newest real (not test) test-mode event of one kind, to copy into a test event of that kind. */
export async function findNewestTestModeEventData(db: Db, merchantId: string, type: string): Promise<Record<string, unknown> | undefined> {
  const [row] = await db<{ data: Record<string, unknown> }[]>`
    select data from events
    where merchant_id = ${merchantId} and livemode = false and type = ${type} and coalesce(data->>'test', '') <> 'true'
    order by id desc limit 1`;
  return row?.data;
}

/** The first attempt of a run, once its outcome is recorded (its last send, when a crash interrupted one). */
export async function findFirstAttemptOfRun(db: Db, runId: string): Promise<DeliveryRow | undefined> {
  const [row] = await db<DeliveryRow[]>`
    select ${deliveryColumns(db)} from webhook_deliveries d join webhook_delivery_runs r on r.id = d.run_id
    where d.run_id = ${runId} and d.attempt = 1 and d.status not in ('sending', 'interrupted')
    order by d.send desc limit 1`;
  return row;
}

// Listener sessions and hand-off requests (npm run listen) ---------------------

/** Channel the worker notifies when it hands a request to a listener: payload `<endpointId> <requestId>`. */
export const LISTENER_REQUEST_CHANNEL = 'webhook_listener_requests';
/** Channel the api notifies when the CLI answered a request: payload `<requestId>`. */
export const LISTENER_ANSWER_CHANNEL = 'webhook_listener_answers';

export async function openListenerSession(db: Db, session: { id: string; endpointId: string; expiresInSeconds: number }): Promise<void> {
  await db`insert into webhook_listener_sessions (id, endpoint_id) values (${session.id}, ${session.endpointId})`;
  await extendListener(db, session.endpointId, session.expiresInSeconds);
}

/** Marks the session seen now and pushes the listener's expiry to now + grace. */
export async function touchListenerSession(db: Db, session: { id: string; endpointId: string; expiresInSeconds: number }): Promise<void> {
  await db`update webhook_listener_sessions set seen_at = now() where id = ${session.id} and closed_at is null`;
  await extendListener(db, session.endpointId, session.expiresInSeconds);
}

export async function closeListenerSession(db: Db, session: { id: string; endpointId: string; expiresInSeconds: number }): Promise<void> {
  await db`update webhook_listener_sessions set closed_at = now(), seen_at = now() where id = ${session.id} and closed_at is null`;
  await extendListener(db, session.endpointId, session.expiresInSeconds);
}

async function extendListener(db: Db, endpointId: string, expiresInSeconds: number): Promise<void> {
  await db`
    update webhook_endpoints set expires_at = greatest(expires_at, now() + make_interval(secs => ${expiresInSeconds}))
    where id = ${endpointId} and kind = 'listener' and expires_at > now()`;
}

/** Whether a stream of the listener is open and was seen within `withinSeconds`. */
export async function hasConnectedListenerSession(db: Db, endpointId: string, withinSeconds: number): Promise<boolean> {
  const rows = await db`
    select 1 from webhook_listener_sessions
    where endpoint_id = ${endpointId} and closed_at is null and seen_at > now() - make_interval(secs => ${withinSeconds})
    limit 1`;
  return rows.length > 0;
}

export type ListenerRequestRow = {
  id: string;
  endpointId: string;
  runId: string;
  attempt: number;
  eventId: string;
  eventType: string;
  headers: Record<string, string>;
  body: Buffer;
  createdAt: Date;
  answerBy: Date;
};

export type ListenerAnswer = {
  responseStatus: number | null;
  responseBodyExcerpt: string | null;
  error: string | null;
  durationMs: number | null;
  answeredAt: Date | null;
};

/** Queues a request for the listener and notifies the api processes (the notification leaves at commit). */
export async function insertListenerRequest(
  db: Db,
  row: Omit<ListenerRequestRow, 'createdAt' | 'answerBy'> & { answerWithinMs: number },
): Promise<void> {
  await db`
    insert into webhook_listener_requests (id, endpoint_id, run_id, attempt, event_id, event_type, headers, body, answer_by)
    values (${row.id}, ${row.endpointId}, ${row.runId}, ${row.attempt}, ${row.eventId}, ${row.eventType},
            ${db.json(row.headers as never)}, ${row.body}, now() + make_interval(secs => ${row.answerWithinMs / 1000}))`;
  await db`select pg_notify(${LISTENER_REQUEST_CHANNEL}, ${`${row.endpointId} ${row.id}`})`;
}

const listenerRequestColumns = (db: Db) =>
  db`id, endpoint_id as "endpointId", run_id as "runId", attempt, event_id as "eventId", event_type as "eventType",
     headers, body, created_at as "createdAt", answer_by as "answerBy"`;

/** Requests of the listener still waiting for an answer, oldest first. */
export async function findPendingListenerRequests(db: Db, endpointId: string, ids?: readonly string[]): Promise<ListenerRequestRow[]> {
  return db<ListenerRequestRow[]>`
    select ${listenerRequestColumns(db)} from webhook_listener_requests
    where endpoint_id = ${endpointId} and answered_at is null and answer_by > now()
      ${ids ? db`and id in ${db(ids as string[])}` : db``}
    order by created_at, id`;
}

export async function findListenerAnswer(db: Db, id: string): Promise<ListenerAnswer | undefined> {
  const [row] = await db<ListenerAnswer[]>`
    select response_status as "responseStatus", response_body_excerpt as "responseBodyExcerpt", error,
           duration_ms as "durationMs", answered_at as "answeredAt"
    from webhook_listener_requests where id = ${id}`;
  return row;
}

/** Records the CLI's answer (the first one wins) and notifies the waiting attempt; false when there is nothing to answer. */
export async function answerListenerRequest(
  db: Db,
  endpointId: string,
  id: string,
  answer: { responseStatus: number | null; responseBodyExcerpt: string | null; error: string | null; durationMs: number },
): Promise<boolean> {
  const rows = await db`
    update webhook_listener_requests set response_status = ${answer.responseStatus},
      response_body_excerpt = ${answer.responseBodyExcerpt}, error = ${answer.error}, duration_ms = ${answer.durationMs},
      answered_at = now()
    where id = ${id} and endpoint_id = ${endpointId} and answered_at is null and answer_by > now()
    returning id`;
  if (rows.length === 0) return false;
  await db`select pg_notify(${LISTENER_ANSWER_CHANNEL}, ${id})`;
  return true;
}

/** Removes a request once its attempt is over, and any request whose attempt died before removing its own. */
export async function deleteListenerRequest(db: Db, id: string): Promise<void> {
  await db`delete from webhook_listener_requests where id = ${id} or answer_by < now() - interval '1 hour'`;
}
