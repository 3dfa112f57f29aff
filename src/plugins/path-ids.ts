// `{id}` path parameters are opaque (spec, Resources): an id that names no
// object is 404 not_found whatever its shape. Routes declare their path ids
// with `pathId(kind)` (src/http/schemas.ts); this hook answers 404 for a value
// that is not shaped like an id of that kind, after validation (so too long or
// control characters stay invalid_request) and before idempotency claims a key
// or any handler looks the id up.
import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { NotFoundError } from '../errors.js';
import { pathIdKind } from '../http/schemas.js';
import { isId, type IdKind } from '../ids.js';

const idsOfParams = new WeakMap<object, Array<[string, IdKind]>>();

/** The path parameters of a params schema declared with pathId, and their kinds (computed once per schema). */
function pathIdsOf(params: unknown): Array<[string, IdKind]> {
  if (!(params instanceof z.ZodObject)) return [];
  let ids = idsOfParams.get(params);
  if (!ids) {
    ids = Object.entries(params.shape).flatMap(([name, schema]): Array<[string, IdKind]> => {
      const kind = pathIdKind(schema);
      return kind ? [[name, kind]] : [];
    });
    idsOfParams.set(params, ids);
  }
  return ids;
}

/** `webhookEndpoint` -> `webhook endpoint`. */
function noun(kind: IdKind): string {
  return kind.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
}

const pathIdsPlugin: FastifyPluginAsync = async (app) => {
  app.addHook('preHandler', async (request) => {
    const ids = pathIdsOf(request.routeOptions.schema?.params);
    if (ids.length === 0) return;
    const params = request.params as Record<string, unknown>;
    for (const [name, kind] of ids) {
      const value = params[name];
      if (typeof value === 'string' && !isId(kind, value)) throw new NotFoundError(`No such ${noun(kind)}: ${value}.`, { param: name });
    }
  });
};

/** Register before the idempotency plugin, so a 404 for an unknown id claims no Idempotency-Key. */
export default fp(pathIdsPlugin, { name: 'path-ids' });
