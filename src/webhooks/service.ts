// Webhook endpoints (registration, disable/enable, secret rotation) and the
// inspection and replay of delivery records.
import type { Client } from '@temporalio/client';
import type { Db, Sql } from '../db/client.js';
import { InternalError, InvalidRequestError, InvalidStateError, NotFoundError, PermissionDeniedError } from '../errors.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type ListQuery, type Page } from '../http/pagination.js';
import { newId } from '../ids.js';
import * as repo from './repo.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { createWorkflowStarter, queueWorkflowStart, workflowStart } from '../temporal/start-outbox.js';
import { webhookDeliveryWorkflow, webhookDeliveryWorkflowId } from '../../workflows/webhook-delivery.js';
import type { WebhookDeliveryInput } from './runs.js';
import { deliveryRunTags, startDeliveryRun } from './starts.js';
import {
  ALL_EVENTS,
  TEST_EVENT_TYPE,
  type CreateEndpointBody,
  type Delivery,
  type DeliveryListQuery,
  type Endpoint,
  type EndpointWithSecret,
  type Replay,
  type TestEvent,
  type TestEventType,
} from './schemas.js';
import { encryptSecret, generateSigningSecret, secretPrefix } from './secrets.js';
import { checkTarget, TargetRefusedError, type TargetPolicy } from './targets.js';

/** How long the previous secret keeps signing beside the new one after a rotation. */
export const SECRET_ROTATION_OVERLAP_SECONDS = 24 * 60 * 60;

/** A listener past its expiry receives nothing: it reads as disabled (`expired`). */
export function isExpired(row: Pick<repo.EndpointRow, 'expiresAt'>, now = Date.now()): boolean {
  return row.expiresAt !== null && row.expiresAt.getTime() <= now;
}

export function renderEndpoint(row: repo.EndpointRow): Endpoint {
  const expired = row.status === 'active' && isExpired(row);
  return {
    id: row.id,
    object: 'webhook_endpoint',
    url: row.url,
    events: row.events,
    mode: row.livemode ? 'live' : 'test',
    status: expired ? 'disabled' : row.status,
    disabledReason: expired ? 'expired' : row.disabledReason,
    disabledAt: expired ? row.expiresAt!.toISOString() : (row.disabledAt?.toISOString() ?? null),
    signingSecretPrefix: row.secretPrefix,
    previousSecretExpiresAt:
      row.previousSecretExpiresAt && row.previousSecretExpiresAt > new Date() ? row.previousSecretExpiresAt.toISOString() : null,
    description: row.description,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
    kind: row.kind,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

export function renderDelivery(row: repo.DeliveryRow): Delivery {
  return {
    id: row.id,
    object: 'webhook_delivery',
    endpointId: row.endpointId,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attempt: row.attempt,
    replay: row.sequence,
    responseStatus: row.responseStatus,
    responseBodyExcerpt: row.responseBodyExcerpt,
    error: row.error,
    durationMs: row.durationMs,
    attemptedAt: row.attemptedAt.toISOString(),
    nextRetryAt: row.nextRetryAt?.toISOString() ?? null,
    livemode: row.livemode,
  };
}

export type WebhookServiceDeps = {
  sql: Sql;
  temporal: Client | undefined;
  taskQueue: string;
  encryptionKey: Buffer;
  targets: TargetPolicy;
  /** A delivery start of a test event that failed after commit (the outbox sweep performs it). */
  onStartError?: (error: unknown, start: { workflowId: string; action: string }) => void;
  /** How long POST .../test waits for the first attempt to be recorded. */
  testEventWaitMs?: number;
};

/**
 * The `data` of a test event of a platform kind: a copy of the merchant's newest test-mode event of that
 * kind, so the receiver sees the real shape, and never a live object (a receiver that ignores `data.test`
 * cannot act on real money). `data.test` = true marks it; with no such event yet, `data.object` is null.
 */
async function testEventDataOfType(
  db: Db,
  merchantId: string,
  type: Exclude<TestEventType, typeof TEST_EVENT_TYPE>,
): Promise<Record<string, unknown>> {
  const sample = await repo.findNewestTestModeEventData(db, merchantId, type);
  if (sample) return { ...sample, test: true };
  return {
    object: null,
    test: true,
    message: `No ${type} event has happened in test mode yet, so this test event carries no object; it tests delivery and signature checks.`,
  };
}

/** How long POST /v1/webhook-endpoints/{id}/test waits for the first attempt (the attempt itself times out after 10 s). */
export const TEST_EVENT_WAIT_MS = 15_000;

export function createWebhookService({
  sql,
  temporal,
  taskQueue,
  encryptionKey,
  targets,
  onStartError,
  testEventWaitMs = TEST_EVENT_WAIT_MS,
}: WebhookServiceDeps) {
  const starter = createWorkflowStarter(temporal, sql, (error, start) => onStartError?.(error, start));

  async function loadEndpoint(scope: MerchantScope, id: string, db: Db = sql, forUpdate = false) {
    const row = await repo.findEndpoint(db, scope, id, { forUpdate });
    if (!row) throw new NotFoundError(`No such webhook endpoint: ${id}.`, { param: 'id' });
    return row;
  }

  async function sendTestEventNow(scope: MerchantScope, id: string, type: TestEventType): Promise<TestEvent> {
    const { eventId, start } = await sql.begin(async (tx) => {
      const row = await loadEndpoint(scope, id, tx, true);
      if (row.status !== 'active' || isExpired(row)) {
        throw new InvalidStateError('The webhook endpoint is disabled; enable it before sending a test event.');
      }
      const data =
        type === TEST_EVENT_TYPE
          ? {
              object: { id: row.id, object: 'webhook_endpoint', url: row.url, mode: row.livemode ? 'live' : 'test' },
              message: 'A test event sent with POST /v1/webhook-endpoints/{id}/test.',
            }
          : await testEventDataOfType(tx, scope.merchantId, type);
      const event = await repo.insertTestEvent(tx, { id: newId('event'), ...scope, type, data });
      const input: WebhookDeliveryInput = { eventId: event.id, endpointId: row.id, sequence: 0 };
      const queued = await queueWorkflowStart(
        tx,
        workflowStart(webhookDeliveryWorkflow, {
          workflowId: webhookDeliveryWorkflowId(input),
          taskQueue,
          args: [input],
          tags: deliveryRunTags(scope, input),
        }),
      );
      return { eventId: event.id, start: queued };
    });
    await starter.startAfterCommit([start]);
    const deadline = Date.now() + testEventWaitMs;
    let first = await repo.findFirstAttemptOfRun(sql, start.workflowId);
    while (!first && Date.now() < deadline) {
      await sleep(100);
      first = await repo.findFirstAttemptOfRun(sql, start.workflowId);
    }
    return { object: 'webhook_test_event', endpointId: id, eventId, eventType: type, delivery: first ? renderDelivery(first) : null };
  }

  return {
    async create(scope: MerchantScope, input: CreateEndpointBody): Promise<EndpointWithSecret> {
      const keyMode = scope.livemode ? 'live' : 'test';
      if (input.mode !== undefined && input.mode !== keyMode) {
        // A valid mode the key may not act in: a permission, like a live object asked with a test key.
        throw new PermissionDeniedError(
          `A ${keyMode}-mode key cannot register a ${input.mode}-mode endpoint; use a ${input.mode}-mode key.`,
          { param: 'mode' },
        );
      }
      try {
        await checkTarget(input.url, targets, scope.livemode);
      } catch (error) {
        if (error instanceof TargetRefusedError) throw new InvalidRequestError(error.message, { param: 'url' });
        throw error;
      }
      const events = input.events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(input.events)];
      const id = newId('webhookEndpoint');
      const signingSecret = generateSigningSecret();
      const row = await repo.insertEndpoint(sql, {
        id,
        ...scope,
        url: input.url,
        events,
        description: input.description,
        secretCiphertext: encryptSecret(encryptionKey, id, signingSecret),
        secretPrefix: secretPrefix(signingSecret),
      });
      return { endpoint: renderEndpoint(row), signingSecret };
    },

    async get(scope: MerchantScope, id: string): Promise<Endpoint> {
      return renderEndpoint(await loadEndpoint(scope, id));
    },

    async list(scope: MerchantScope, query: ListQuery): Promise<Page<Endpoint>> {
      const rows = await repo.listEndpoints(sql, scope, { before: decodeCursor(query.cursor), limit: query.limit });
      return toPage(rows, query.limit, renderEndpoint);
    },

    async disable(scope: MerchantScope, id: string): Promise<Endpoint> {
      return sql.begin(async (tx) => {
        const row = await loadEndpoint(scope, id, tx, true);
        if (row.status === 'disabled') throw new InvalidStateError('The webhook endpoint is already disabled.');
        return renderEndpoint(await repo.setEndpointStatus(tx, id, { status: 'disabled', reason: 'manual' }));
      });
    },

    async enable(scope: MerchantScope, id: string): Promise<Endpoint> {
      return sql.begin(async (tx) => {
        const row = await loadEndpoint(scope, id, tx, true);
        if (isExpired(row)) throw new InvalidStateError('The listener has expired; start `npm run listen` again for a new one.');
        if (row.status === 'active') throw new InvalidStateError('The webhook endpoint is already active.');
        return renderEndpoint(await repo.setEndpointStatus(tx, id, { status: 'active' }));
      });
    },

    async rotateSecret(scope: MerchantScope, id: string): Promise<EndpointWithSecret> {
      return sql.begin(async (tx) => {
        const row = await loadEndpoint(scope, id, tx, true);
        const signingSecret = generateSigningSecret();
        const updated = await repo.rotateEndpointSecret(tx, id, {
          ciphertext: encryptSecret(encryptionKey, id, signingSecret),
          prefix: secretPrefix(signingSecret),
          previousCiphertext: row.secretCiphertext,
          overlapSeconds: SECRET_ROTATION_OVERLAP_SECONDS,
        });
        return { endpoint: renderEndpoint(updated), signingSecret };
      });
    },

    /**
     * Sends a `webhook_endpoint.test` event to this endpoint only: the event is recorded already
     * dispatched (so no other endpoint gets it), and its delivery run is queued in the same
     * transaction and started after commit, through the usual delivery workflow (signed, retried,
     * recorded). Answers with the first attempt once it is recorded, or null after the wait.
     * The answer needs the worker to see the event, so its route commits before the Idempotency-Key
     * stores the answer (`commitsBeforeResponse`: no request transaction): a crash between the two can
     * send a second test event, which only tests the endpoint again.
     */
    async sendTestEvent(scope: MerchantScope, id: string, type: TestEventType = TEST_EVENT_TYPE): Promise<TestEvent> {
      return sendTestEventNow(scope, id, type);
    },

    async getDelivery(scope: MerchantScope, id: string): Promise<Delivery> {
      const row = await repo.findDelivery(sql, scope, id);
      if (!row) throw new NotFoundError(`No such webhook delivery: ${id}.`, { param: 'id' });
      return renderDelivery(row);
    },

    async listDeliveries(scope: MerchantScope, query: DeliveryListQuery): Promise<Page<Delivery>> {
      const rows = await repo.listDeliveries(sql, scope, {
        endpointId: query.endpointId,
        status: query.status,
        before: decodeCursor(query.cursor),
        limit: query.limit,
      });
      return toPage(rows, query.limit, renderDelivery);
    },

    async replay(scope: MerchantScope, id: string): Promise<Replay> {
      const delivery = await repo.findDelivery(sql, scope, id);
      if (!delivery) throw new NotFoundError(`No such webhook delivery: ${id}.`, { param: 'id' });
      const endpoint = await loadEndpoint(scope, delivery.endpointId);
      if (endpoint.status !== 'active') {
        throw new InvalidStateError('The webhook endpoint is disabled; enable it before replaying deliveries.');
      }
      if (!temporal) throw new InternalError('Replay is unavailable: no workflow service is configured.');
      const sequence = await repo.nextRunSequence(sql, delivery.eventId, delivery.endpointId);
      // A concurrent replay that picked the same number hits the same workflow id: one run.
      await startDeliveryRun(temporal, taskQueue, scope, { eventId: delivery.eventId, endpointId: delivery.endpointId, sequence });
      return {
        object: 'webhook_replay',
        deliveryId: delivery.id,
        endpointId: delivery.endpointId,
        eventId: delivery.eventId,
        replay: sequence,
        status: 'queued',
      };
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
