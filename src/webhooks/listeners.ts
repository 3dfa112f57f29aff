// Webhook listeners: the api's side of `npm run listen` (local webhook
// development, test mode only). A listener is a webhook endpoint of kind
// `listener` with its own signing secret; the CLI holds its event stream
// (Server-Sent Events) open. Delivery attempts reach this process through
// Postgres: the worker inserts a request row and NOTIFYs
// LISTENER_REQUEST_CHANNEL (src/webhooks/listener-handoff.ts); every api
// process LISTENs once and pushes the request to the streams of that listener
// it holds. The CLI forwards it to the local URL and posts the local response
// back here; the answer is stored and NOTIFYd to the waiting attempt.
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Sql } from '../db/client.js';
import { InvalidStateError, NotFoundError, PermissionDeniedError } from '../errors.js';
import type { MerchantScope } from '../http/principal.js';
import { newId } from '../ids.js';
import * as repo from './repo.js';
import { RESPONSE_EXCERPT_BYTES } from './sender.js';
import { ALL_EVENTS, type CreateListenerBody, type ListenerAnswer, type ListenerAnswerBody, type ListenerWithSecret } from './schemas.js';
import { encryptSecret, generateSigningSecret, secretPrefix } from './secrets.js';
import { isExpired, renderEndpoint } from './service.js';

/** A listener expires this long after its last stream closed (or its api process stopped refreshing it). */
export const LISTENER_EXPIRY_SECONDS = 60 * 60;
/** How often an open stream gets a keepalive comment and its session is marked seen. */
export const LISTENER_HEARTBEAT_MS = 10_000;
/** What `url` of a listener reads: it is not an https URL, so no code path could ever send to it. */
export const LISTENER_URL_SCHEME = 'listener:';

type StreamSubscriber = (requestId: string | undefined) => void;

export type WebhookListenerServiceDeps = {
  sql: Sql;
  encryptionKey: Buffer;
  onError?: (error: unknown) => void;
};

export function createWebhookListenerService({ sql, encryptionKey, onError = () => undefined }: WebhookListenerServiceDeps) {
  // endpoint id -> the open streams of this process for it
  const subscribers = new Map<string, Set<StreamSubscriber>>();
  const streams = new Set<PassThrough>();
  let listening: Promise<{ unlisten: () => Promise<void> }> | undefined;

  const ensureListening = () => {
    listening ??= sql.listen(
      repo.LISTENER_REQUEST_CHANNEL,
      (payload) => {
        const [endpointId, requestId] = payload.split(' ');
        for (const subscriber of subscribers.get(endpointId ?? '') ?? []) subscriber(requestId);
      },
      // On every (re)connect of the LISTEN connection: look again for what a gap may have hidden.
      () => {
        for (const set of subscribers.values()) for (const subscriber of set) subscriber(undefined);
      },
    );
    return listening;
  };

  async function loadListener(scope: MerchantScope, id: string) {
    const row = await repo.findEndpoint(sql, scope, id);
    if (!row || row.kind !== 'listener') throw new NotFoundError(`No such webhook listener: ${id}.`, { param: 'id' });
    return row;
  }

  return {
    async create(scope: MerchantScope, input: CreateListenerBody): Promise<ListenerWithSecret> {
      if (scope.livemode) {
        throw new PermissionDeniedError(
          'Webhook listeners (npm run listen) are available in test mode only: use a sk_test_ key. Live-mode endpoints must be public https URLs.',
        );
      }
      const events = input.events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(input.events)];
      const id = newId('webhookEndpoint');
      const signingSecret = generateSigningSecret();
      const row = await repo.insertEndpoint(sql, {
        id,
        ...scope,
        url: `${LISTENER_URL_SCHEME}${input.forwardTo ?? ''}`,
        events,
        description: input.description || 'npm run listen',
        secretCiphertext: encryptSecret(encryptionKey, id, signingSecret),
        secretPrefix: secretPrefix(signingSecret),
        listenerExpiresInSeconds: LISTENER_EXPIRY_SECONDS,
      });
      return {
        object: 'webhook_listener',
        endpoint: renderEndpoint(row),
        signingSecret,
        streamPath: `/v1/webhook-listeners/${id}/stream`,
        expiresAfterCloseSeconds: LISTENER_EXPIRY_SECONDS,
      };
    },

    /**
     * Holds the listener's event stream open: every pending request now, then each new one as the
     * worker hands it over, a keepalive every LISTENER_HEARTBEAT_MS (which also keeps the session
     * counted as connected and the listener from expiring). A request may be sent twice (after a
     * reconnect of the LISTEN connection or to two sessions): the first answer counts.
     */
    async stream(scope: MerchantScope, id: string, reply: FastifyReply): Promise<FastifyReply> {
      const row = await loadListener(scope, id);
      if (row.status !== 'active' || isExpired(row)) {
        throw new InvalidStateError(
          isExpired(row)
            ? 'The listener has expired; start `npm run listen` again for a new one.'
            : 'The listener is disabled; enable it first.',
        );
      }
      await ensureListening();
      const session = { id: newId('webhookListenerSession'), endpointId: id, expiresInSeconds: LISTENER_EXPIRY_SECONDS };
      await repo.openListenerSession(sql, session);

      const out = new PassThrough();
      streams.add(out);
      const sent = new Set<string>();
      let closed = false;
      let pushing = Promise.resolve();
      const push = (requestId: string | undefined) => {
        pushing = pushing
          .then(async () => {
            if (closed || (requestId && sent.has(requestId))) return;
            const rows = await repo.findPendingListenerRequests(sql, id, requestId ? [requestId] : undefined);
            for (const pending of rows) {
              if (closed || sent.has(pending.id)) continue;
              sent.add(pending.id);
              const data = {
                requestId: pending.id,
                eventId: pending.eventId,
                eventType: pending.eventType,
                attempt: pending.attempt,
                answerBy: pending.answerBy.toISOString(),
                headers: pending.headers,
                body: pending.body.toString('base64'),
              };
              out.write(`event: delivery\nid: ${pending.id}\ndata: ${JSON.stringify(data)}\n\n`);
            }
          })
          .catch(onError);
      };
      let set = subscribers.get(id);
      if (!set) subscribers.set(id, (set = new Set()));
      set.add(push);

      const heartbeat = setInterval(() => {
        out.write(': keepalive\n\n');
        repo.touchListenerSession(sql, session).catch(onError);
      }, LISTENER_HEARTBEAT_MS);
      const close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        set.delete(push);
        if (set.size === 0) subscribers.delete(id);
        streams.delete(out);
        out.end();
        repo.closeListenerSession(sql, session).catch(onError);
      };
      // The response's close: the client went away (a request's own close fires once its body is read).
      reply.raw.on('close', close);
      out.on('close', close);

      out.write(`event: ready\ndata: ${JSON.stringify({ listenerId: id, sessionId: session.id })}\n\n`);
      push(undefined);
      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-accel-buffering', 'no')
        .send(out);
    },

    async answer(scope: MerchantScope, id: string, input: ListenerAnswerBody): Promise<ListenerAnswer> {
      await loadListener(scope, id);
      const excerpt =
        input.bodyExcerpt === null ? null : Buffer.from(input.bodyExcerpt, 'utf8').subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
      const recorded = await repo.answerListenerRequest(sql, id, input.requestId, {
        responseStatus: input.status,
        responseBodyExcerpt: excerpt && excerpt.length > 0 ? excerpt : null,
        error: input.error,
        durationMs: input.durationMs,
      });
      return { object: 'webhook_listener_answer', requestId: input.requestId, recorded };
    },

    /** Ends every open stream (their sessions close; the CLIs reconnect elsewhere) and stops listening. */
    async close(): Promise<void> {
      for (const out of [...streams]) out.destroy();
      const subscription = await listening?.catch(() => undefined);
      listening = undefined;
      await subscription?.unlisten().catch(() => undefined);
    },
  };
}

export type WebhookListenerService = ReturnType<typeof createWebhookListenerService>;
