// `Idempotency-Key` on POST requests. The first request with a key runs and its
// response (status and body) is stored; a retry with the same payload gets the
// stored response back, marked `Idempotent-Replayed: true`; a different payload
// is 409 idempotency_error. Concurrent requests with one key run once: the
// later ones wait for the first and replay its response.
//
// Crash safety: the request runs in one transaction with its stored response
// (src/db/request-transaction.ts): the plugin opens it before the handler and
// hands it to the route as `request.db`, which the route builds its services on.
// So a retry after any crash either replays or runs for the first time. A key whose holder died is taken over once its
// lease (`IDEMPOTENCY_LEASE_SECONDS`) ran out; a holder that outlived its lease
// finds its token replaced at completion and rolls back, so one effect commits.
import fp from 'fastify-plugin';
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Sql } from '../db/client.js';
import { RequestTransaction, runInRequestTransaction } from '../db/request-transaction.js';
import { IdempotencyError, InvalidRequestError } from '../errors.js';
import type { Principal } from '../http/principal.js';
import * as repo from '../idempotency/repo.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

export type IdempotencyOptions = {
  sql: Sql;
  /** How long a key is remembered (default 24 hours). */
  retentionSeconds?: number;
  /** The lease of a key's holder: after this long a retry takes over a key whose request never finished (default 60 s). */
  leaseSeconds?: number;
  /** How long a concurrent request waits for the first one to finish before answering 409 (default 30 s). */
  waitForOwnerMs?: number;
};

/** What a request holding a key carries until its response is stored. */
export type HeldIdempotencyKey = {
  ref: repo.IdempotencyKeyRef;
  leaseToken: string;
  transaction: RequestTransaction;
  /** The open transaction's handle (`request.db`); none for a route whose writes commit on their own. */
  handle?: Sql;
};

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey?: HeldIdempotencyKey;
    /**
     * Where this request's queries run: the open transaction of a POST holding an Idempotency-Key
     * (committed with its stored response; its `begin` is a savepoint), else the pool. Routes build
     * their services on it.
     */
    readonly db: Sql;
  }
}

/** 1 to IDEMPOTENCY_KEY_MAX_LENGTH printable ASCII characters without spaces; the OpenAPI document carries it as the header's pattern. */
export const IDEMPOTENCY_KEY_PATTERN = `^[\\x21-\\x7e]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}$`;
const KEY_SHAPE = /^[\x21-\x7e]+$/;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route refuses a POST without Idempotency-Key (the relay: the key names the submission); documented as required. */
    idempotencyKeyRequired?: true;
    /**
     * The route's writes commit on their own, before its response is stored: the key still runs it once
     * and replays its answer, but no request transaction is opened (`request.db` is the pool). For a
     * route that sends to the chain (a send cannot roll back and never runs in a request transaction)
     * or whose answer needs a worker to see its effect first.
     */
    commitsBeforeResponse?: true;
  }
}

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
    throw new InvalidRequestError(`Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters without spaces.`, {
      param: 'Idempotency-Key',
    });
  }
  return key;
}

/** The class whose keys a request uses: a publishable-key request never meets a secret key's or a dashboard session's key. */
export function idempotencyKeyClass(principal: Principal): repo.IdempotencyKeyClass {
  if (principal.type === 'dashboard') return 'dashboard';
  return principal.kind === 'publishable' ? 'publishable' : 'secret';
}

const idempotencyPlugin: FastifyPluginAsync<IdempotencyOptions> = async (app, options) => {
  const { sql } = options;
  const retentionSeconds = options.retentionSeconds ?? 24 * 60 * 60;
  const leaseSeconds = options.leaseSeconds ?? 60;
  const waitForOwnerMs = options.waitForOwnerMs ?? 30_000;

  app.decorateRequest('idempotencyKey', undefined);
  app.decorateRequest('db', {
    getter(this: FastifyRequest): Sql {
      return this.idempotencyKey?.handle ?? sql;
    },
  });

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || !request.principal) return;
    const key = readIdempotencyKey(request);
    if (key === undefined) return;
    const { merchantId, livemode } = request.principal;
    const ref = { merchantId, livemode, keyClass: idempotencyKeyClass(request.principal), key };
    const hash = requestHash(request);
    const path = request.url.split('?')[0] ?? request.url;
    const leaseToken = randomUUID();
    const deadline = Date.now() + waitForOwnerMs;

    for (;;) {
      // Also takes over the key when its holder's lease ran out (compared by Postgres).
      if (await repo.claimKey(sql, ref, { requestHash: hash, method: request.method, path, retentionSeconds, leaseSeconds, leaseToken })) {
        const transaction = new RequestTransaction((error) => request.log.warn({ err: error }, 'work after the idempotent commit failed'));
        request.idempotencyKey = { ref, leaseToken, transaction };
        if (!request.routeOptions.config.commitsBeforeResponse) request.idempotencyKey.handle = await transaction.open(sql);
        return;
      }
      const existing = await repo.findKey(sql, ref);
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
      if (Date.now() > deadline) {
        throw new IdempotencyError('A request with this Idempotency-Key is still being processed; retry later.');
      }
      await sleep(50);
    }
  });

  // Marks the handler's async context as this request's (the send guard refuses a send while its
  // transaction is open). Callback style: an async hook's context does not reach the handler.
  app.addHook('preHandler', (request, _reply, done) => {
    const held = request.idempotencyKey;
    if (!held) return done();
    runInRequestTransaction(held.transaction, () => done());
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const held = request.idempotencyKey;
    if (!held) return payload;
    request.idempotencyKey = undefined;
    const { ref, leaseToken, transaction } = held;
    // A server error is not remembered and its effect is rolled back: the client may retry with the same key.
    if (reply.statusCode >= 500) {
      await transaction.rollback();
      await repo.releaseKey(sql, ref, leaseToken);
      return payload;
    }
    const body = typeof payload === 'string' ? payload : String(payload ?? '');
    let stored: boolean;
    try {
      stored = await transaction.commit(sql, (db) => repo.completeKey(db, ref, leaseToken, reply.statusCode, body));
    } catch (error) {
      // Most likely nothing committed: free the key so the retry runs at once. Should the COMMIT have gone
      // through before the connection died, the key is completed and this deletes nothing (it needs `in_progress`).
      await repo.releaseKey(sql, ref, leaseToken).catch(() => undefined);
      throw error;
    }
    if (!stored) {
      throw new IdempotencyError(
        'This request outlived its Idempotency-Key lease and a retry took the key over; its effect was rolled back. Retry to get the result.',
      );
    }
    return payload;
  });

  // A request that ended without passing onSend must not keep its connection (nothing it did commits).
  const abandon = async (request: FastifyRequest) => {
    const held = request.idempotencyKey;
    if (!held) return;
    request.idempotencyKey = undefined;
    await held.transaction.rollback();
    await repo.releaseKey(sql, held.ref, held.leaseToken);
  };
  app.addHook('onResponse', abandon);
};

export default fp(idempotencyPlugin, { name: 'idempotency', dependencies: ['auth'] });
