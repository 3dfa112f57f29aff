// Text Postgres cannot store: U+0000 (text and jsonb both refuse it) and unpaired
// UTF-16 surrogates (they have no UTF-8 form; jsonb refuses their escapes). Any
// string or object key in a request's path, query string or body that holds one
// is refused up front as invalid_request naming the field, so no client input
// reaches the database as a 500.
import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import { InvalidRequestError } from '../errors.js';

const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The dot path (as in validation errors) of the first unstorable string or key, '' for the value itself. */
export function findUnstorableText(value: unknown, path: readonly string[] = []): string | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path.join('.') : undefined;
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = [...path, key];
    if (UNSTORABLE.test(key)) return at.join('.');
    const found = findUnstorableText(item, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

const storableTextPlugin: FastifyPluginAsync = async (app) => {
  app.addHook('preValidation', async (request) => {
    const parts: Array<[string, unknown]> = [
      ['path', request.params],
      ['query string', request.query],
      ['body', request.body],
    ];
    for (const [where, value] of parts) {
      const path = findUnstorableText(value);
      if (path === undefined) continue;
      throw new InvalidRequestError(
        `Invalid ${where}: ${path || '(root)'} contains a NUL character or an unpaired UTF-16 surrogate, which cannot be stored.`,
        { param: path || undefined },
      );
    }
  });
};

export default fp(storableTextPlugin, { name: 'storable-text' });
