// `Idempotency-Key` on POST requests. The first request with a key runs and its
// response (status and body) is stored; a retry with the same payload gets the
// stored response back, marked `Idempotent-Replayed: true`; a different payload
// is 409 idempotency_error. Concurrent requests with one key run once: the
// later ones wait for the first and replay its response.
import fp from 'fastify-plugin';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Sql } from '../db/client.js';
import { IdempotencyError, InvalidRequestError } from '../errors.js';
import * as repo from '../idempotency/repo.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

export type IdempotencyOptions = {
  sql: Sql;
  /** How long a key is remembered (default 24 hours). */
  retentionSeconds?: number;
  /** After this long an in-progress key whose request never finished may be taken over. */
  staleAfterSeconds?: number;
  /** How long a concurrent request waits for the first one to finish. */
  waitForOwnerMs?: number;
};

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey?: repo.IdempotencyKeyRef;
  }
}

const KEY_SHAPE = /^[\x21-\x7e]+$/;

/** Orders object keys so that `{a,b}` and `{b,a}` hash alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function requestHash(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${canonicalJson(request.body)}`)
    .digest('hex');
}

export function readIdempotencyKey(request: FastifyRequest): string | undefined {
  const header = request.headers[IDEMPOTENCY_HEADER];
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !KEY_SHAPE.test(key)) {
    throw new InvalidRequestError(
      `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters without spaces.`,
      { param: 'Idempotency-Key' },
    );
  }
  return key;
}

const idempotencyPlugin: FastifyPluginAsync<IdempotencyOptions> = async (app, options) => {
  const { sql } = options;
  const retentionSeconds = options.retentionSeconds ?? 24 * 60 * 60;
  const staleAfterSeconds = options.staleAfterSeconds ?? 60;
  const waitForOwnerMs = options.waitForOwnerMs ?? 30_000;

  app.decorateRequest('idempotencyKey', undefined);

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || !request.principal) return;
    const key = readIdempotencyKey(request);
    if (key === undefined) return;
    const ref = { merchantId: request.principal.merchantId, livemode: request.principal.livemode, key };
    const hash = requestHash(request);
    const path = request.url.split('?')[0] ?? request.url;
    const deadline = Date.now() + waitForOwnerMs;

    for (;;) {
      if (await repo.claimKey(sql, ref, { requestHash: hash, method: request.method, path, retentionSeconds })) {
        request.idempotencyKey = ref;
        return;
      }
      const existing = await repo.findKey(sql, ref, staleAfterSeconds);
      if (!existing || existing.expired) continue;
      if (existing.requestHash !== hash) {
        throw new IdempotencyError('This Idempotency-Key was already used with a different request.');
      }
      if (existing.state === 'completed') {
        return reply
          .code(existing.responseStatus ?? 200)
          .header(REPLAYED_HEADER, 'true')
          .type('application/json; charset=utf-8')
          .send(existing.responseBody ?? '');
      }
      if (existing.stale && (await repo.takeOverStaleKey(sql, ref, existing.lockedAt))) {
        request.idempotencyKey = ref;
        return;
      }
      if (Date.now() > deadline) {
        throw new IdempotencyError('A request with this Idempotency-Key is still being processed; retry later.');
      }
      await sleep(50);
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const ref = request.idempotencyKey;
    if (!ref) return payload;
    request.idempotencyKey = undefined;
    // A server error is not remembered: the client may retry with the same key.
    if (reply.statusCode >= 500) await repo.releaseKey(sql, ref);
    else await repo.completeKey(sql, ref, reply.statusCode, typeof payload === 'string' ? payload : String(payload ?? ''));
    return payload;
  });
};

export default fp(idempotencyPlugin, { name: 'idempotency', dependencies: ['auth'] });
