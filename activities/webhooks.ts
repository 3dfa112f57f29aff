// Activities of webhook fan-out and delivery. Each is idempotent with a
// business key: runs by their id (whd_<event>_<endpoint>[_r<N>]), attempts by
// (run, attempt number), notices by (endpoint, kind, time). A retried attempt
// may send twice: delivery is at-least-once and receivers dedupe on webhook-id.
import https from 'node:https';
import type { Client } from '@temporalio/client';
import type { Sql } from '../src/db/client.js';
import { findEvent } from '../src/events/outbox.js';
import { newId } from '../src/ids.js';
import { DELIVERY_REQUEST_BODY_MAX_CHARS, webhookBody } from '../src/webhooks/payload.js';
import * as repo from '../src/webhooks/repo.js';
import { decryptSecret } from '../src/webhooks/secrets.js';
import { sendWebhook, type SendResult } from '../src/webhooks/sender.js';
import { signPayload } from '../src/webhooks/signing.js';
import { startDeliveryRun } from '../src/webhooks/starts.js';
import { queueEmail, startEmailDelivery } from '../src/email/service.js';
import { findMerchant } from '../src/merchants/repo.js';
import { checkTarget, systemResolver, TargetRefusedError, type Resolver } from '../src/webhooks/targets.js';
import { createListenerHandoff } from '../src/webhooks/listener-handoff.js';
import { permanentFailure, PERMANENT_FAILURES } from '../src/temporal/failures.js';

/** Five or more permanent failures within this window disable an endpoint. */
export const AUTO_DISABLE_THRESHOLD = 5;
export const AUTO_DISABLE_WINDOW_SECONDS = 24 * 60 * 60;
/** Retry-After is honoured up to this long; a longer value waits this long. */
export const MAX_RETRY_AFTER_MS = 12 * 60 * 60 * 1000;
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;

export type WebhookActivityDeps = {
  sql: Sql;
  temporal: Client;
  taskQueue: string;
  /** Without settings (a worker that never delivers webhooks) delivery attempts fail and retry. */
  webhooks?: {
    encryptionKey: Buffer;
    allowPrivateTargets: boolean;
    resolver?: Resolver;
    /** Extra trusted CA certificates for receivers (tests and local receivers only). */
    ca?: string | Buffer;
    attemptTimeoutMs?: number;
  };
};

export type AttemptInput = {
  runId: string;
  eventId: string;
  endpointId: string;
  /** 0 for the fan-out's run, N for replay N. */
  sequence: number;
  attempt: number;
  /** The scheduled (jittered) delay before the next attempt, or null when this is the last one. */
  plannedNextDelayMs: number | null;
};

export type AttemptOutcome =
  | { outcome: 'endpoint_disabled' }
  | { outcome: 'duplicate' }
  | { outcome: 'succeeded'; deliveryId: string; responseStatus: number | null }
  | { outcome: 'permanently_failed'; deliveryId: string; responseStatus: number | null }
  | { outcome: 'failed'; deliveryId: string; responseStatus: number | null; nextDelayMs: number };

function classify(result: SendResult, plannedNextDelayMs: number | null): { status: repo.DeliveryOutcome; nextDelayMs: number | null } {
  if (result.status !== null && result.status >= 200 && result.status < 300) return { status: 'succeeded', nextDelayMs: null };
  // 410 Gone: the receiver says this URL will never accept deliveries again.
  if (result.status === 410 || plannedNextDelayMs === null) return { status: 'permanently_failed', nextDelayMs: null };
  let delay = plannedNextDelayMs;
  if ((result.status === 429 || result.status === 503) && result.retryAfterSeconds !== null) {
    delay = Math.max(delay, Math.min(result.retryAfterSeconds * 1000, MAX_RETRY_AFTER_MS));
  }
  return { status: 'failed', nextDelayMs: delay };
}

export function createWebhookActivities({ sql, temporal, taskQueue, webhooks: settings }: WebhookActivityDeps) {
  const resolver = settings?.resolver ?? systemResolver;
  const agent = new https.Agent({ keepAlive: true, maxSockets: 64 });
  const timeoutMs = settings?.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  // Listener endpoints (npm run listen) are answered through Postgres by the CLI, never sent to by the worker.
  const listeners = createListenerHandoff(sql);
  const requireSettings = () => {
    if (!settings) throw new Error('No webhook settings on this worker');
    return settings;
  };

  /** Sends one signed request (or hands it to the developer's CLI); a refused address is an outcome, not an error. */
  async function send(
    endpoint: repo.EndpointRow,
    request: { runId: string; attempt: number; event: { id: string; type: string }; headers: Record<string, string>; body: Buffer },
  ): Promise<SendResult> {
    if (endpoint.kind === 'listener' && !endpoint.livemode) {
      // Handed to the developer's CLI, which makes the request on their machine; the worker sends nothing.
      return listeners.deliver({
        endpointId: endpoint.id,
        runId: request.runId,
        attempt: request.attempt,
        eventId: request.event.id,
        eventType: request.event.type,
        headers: { ...request.headers },
        body: request.body,
        timeoutMs,
      });
    }
    const webhooks = requireSettings();
    try {
      // Every URL rule applies to every other endpoint (a live-mode row of kind listener cannot exist; were
      // one there, its URL would still go through this check and be refused: it is not an https URL).
      const target = await checkTarget(endpoint.url, { resolver, allowPrivateTargets: webhooks.allowPrivateTargets }, endpoint.livemode);
      return await sendWebhook(target, { ...request.headers }, request.body, { timeoutMs, ca: webhooks.ca, agent });
    } catch (error) {
      if (!(error instanceof TargetRefusedError)) throw error;
      return { status: null, retryAfterSeconds: null, bodyExcerpt: null, error: `blocked: ${error.message}`, durationMs: 0 };
    }
  }

  return {
    /**
     * Starts one delivery run per active endpoint of the event's merchant and
     * mode subscribed to its kind (or to `*`). Plain starts, not children: a
     * run outlives the dispatch and never grows its history. Returns how many
     * runs it started (0 when all existed: the fan-out ran before).
     */
    async fanOutWebhookDeliveries(event: { id: string; merchantId: string; livemode: boolean; type: string }): Promise<number> {
      const endpointIds = await repo.findSubscribedEndpointIds(sql, { merchantId: event.merchantId, livemode: event.livemode }, event.type);
      const started = await Promise.all(
        endpointIds.map((endpointId) => startDeliveryRun(temporal, taskQueue, event, { eventId: event.id, endpointId, sequence: 0 })),
      );
      return started.filter(Boolean).length;
    },

    /**
     * One attempt: checks the endpoint is still active, re-checks the target's
     * addresses, signs and sends the exact body bytes to the checked address,
     * and records the attempt. The first attempt also records the run (and
     * sends nothing when that run already ended: a duplicate start); a
     * successful attempt also ends the run, so the common path is one activity.
     */
    async attemptWebhookDelivery(input: AttemptInput): Promise<AttemptOutcome> {
      const endpoint = await repo.findEndpointById(sql, input.endpointId);
      if (!endpoint || endpoint.status !== 'active') return { outcome: 'endpoint_disabled' };
      // An expired listener (its CLI session closed long enough ago) is treated as disabled.
      if (endpoint.expiresAt && endpoint.expiresAt.getTime() <= Date.now()) return { outcome: 'endpoint_disabled' };
      // Looked up before the run is recorded: the run row references the event.
      const event = await findEvent(sql, input.eventId);
      if (!event) throw permanentFailure(PERMANENT_FAILURES.eventNotFound, `event ${input.eventId} not found`);
      if (input.attempt === 1) {
        const run = await repo.ensureRun(sql, {
          id: input.runId,
          merchantId: endpoint.merchantId,
          livemode: endpoint.livemode,
          eventId: input.eventId,
          endpointId: endpoint.id,
          sequence: input.sequence,
        });
        if (run.status !== 'in_progress') return { outcome: 'duplicate' };
      }
      const body = webhookBody(event);
      const now = Date.now();
      const webhooks = requireSettings();
      const secrets = [decryptSecret(webhooks.encryptionKey, endpoint.id, endpoint.secretCiphertext)];
      if (endpoint.previousSecretCiphertext && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt.getTime() > now) {
        secrets.push(decryptSecret(webhooks.encryptionKey, endpoint.id, endpoint.previousSecretCiphertext));
      }
      const headers = signPayload(secrets, event.id, Math.floor(now / 1000), body);

      // Recorded before the request goes out, so a send that a crash cuts short is still in the history.
      const deliveryId = newId('webhookDelivery');
      await repo.recordSendStarted(sql, {
        id: deliveryId,
        merchantId: endpoint.merchantId,
        livemode: endpoint.livemode,
        runId: input.runId,
        endpointId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
        attempt: input.attempt,
        attemptedAt: new Date(now),
        requestBody: body.toString('utf8').slice(0, DELIVERY_REQUEST_BODY_MAX_CHARS),
      });
      let result: SendResult;
      try {
        result = await send(endpoint, { runId: input.runId, attempt: input.attempt, event, headers, body });
      } catch (error) {
        // The activity is retried; this send's outcome is unknown to us.
        const message = `interrupted: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500);
        await repo
          .recordSendFinished(sql, deliveryId, {
            status: 'interrupted',
            responseStatus: null,
            responseBodyExcerpt: null,
            error: message,
            durationMs: Date.now() - now,
            nextRetryAt: null,
          })
          .catch(() => undefined);
        throw error;
      }

      const { status, nextDelayMs } = classify(result, input.plannedNextDelayMs);
      await repo.recordSendFinished(sql, deliveryId, {
        status,
        responseStatus: result.status,
        responseBodyExcerpt: result.bodyExcerpt,
        error: result.error,
        durationMs: result.durationMs,
        nextRetryAt: nextDelayMs === null ? null : new Date(Date.now() + nextDelayMs),
      });
      if (status === 'failed') return { outcome: 'failed', deliveryId, responseStatus: result.status, nextDelayMs: nextDelayMs! };
      if (status === 'succeeded') {
        await repo.finishRun(sql, input.runId, 'succeeded');
        return { outcome: 'succeeded', deliveryId, responseStatus: result.status };
      }
      return { outcome: 'permanently_failed', deliveryId, responseStatus: result.status };
    },
    /**
     * Ends a run. A permanent failure counts toward auto-disable: the fifth
     * within 24 hours disables the endpoint (returned so the workflow can
     * notify the merchant).
     */
    async finishWebhookRun(input: {
      runId: string;
      endpointId: string;
      status: 'succeeded' | 'permanently_failed' | 'cancelled';
    }): Promise<{ disabledAt: string; failures: number } | null> {
      return sql.begin(async (tx) => {
        const finished = await repo.finishRun(tx, input.runId, input.status);
        if (!finished || input.status !== 'permanently_failed') return null;
        const [endpoint] = await tx<{ status: string }[]>`select status from webhook_endpoints where id = ${input.endpointId} for update`;
        if (endpoint?.status !== 'active') return null;
        const failures = await repo.countRecentPermanentFailures(tx, input.endpointId, AUTO_DISABLE_WINDOW_SECONDS);
        if (failures < AUTO_DISABLE_THRESHOLD) return null;
        const disabled = await repo.setEndpointStatus(tx, input.endpointId, { status: 'disabled', reason: 'too_many_failures' });
        return { disabledAt: disabled.disabledAt!.toISOString(), failures };
      });
    },

    /**
     * The single place where the merchant is told an endpoint was disabled
     * automatically: the notice and its email are written in one transaction
     * (idempotent per endpoint and disable time), then the email's delivery
     * workflow is started (the outbox sweep starts it if this start is lost).
     */
    async notifyWebhookEndpointDisabled(input: { endpointId: string; disabledAt: string; failures: number }): Promise<void> {
      const emailId = await sql.begin(async (tx) => {
        const endpoint = await repo.findEndpointById(tx, input.endpointId);
        if (!endpoint) return null;
        const recorded = await repo.insertNotice(tx, {
          id: newId('webhookNotice'),
          merchantId: endpoint.merchantId,
          livemode: endpoint.livemode,
          endpointId: endpoint.id,
          kind: 'webhook_endpoint.disabled',
          occurredAt: new Date(input.disabledAt),
          data: { url: endpoint.url, reason: 'too_many_failures', permanentFailures: input.failures, windowHours: 24 },
        });
        const merchant = await findMerchant(tx, endpoint.merchantId);
        if (!recorded || !merchant?.email) return null;
        const id = await queueEmail(tx, {
          merchantId: endpoint.merchantId,
          livemode: endpoint.livemode,
          to: merchant.email,
          kind: 'webhook_endpoint_disabled',
          subject: 'A webhook endpoint was disabled',
          text:
            `Your ${endpoint.livemode ? 'live' : 'test'} webhook endpoint ${endpoint.id} (${endpoint.url}) was disabled after ` +
            `${input.failures} deliveries failed permanently within 24 hours.\n\n` +
            'Fix the receiver, then enable it again with POST /v1/webhook-endpoints/' +
            endpoint.id +
            '/enable. ' +
            'Events that occur while it is disabled are not delivered; replay them from their delivery records.',
        });
        await repo.markNoticeEmailed(tx, endpoint.id, 'webhook_endpoint.disabled', new Date(input.disabledAt));
        return id;
      });
      if (emailId) await startEmailDelivery(temporal, sql, taskQueue, emailId);
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
