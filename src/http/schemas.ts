// Zod building blocks shared by every resource's schemas.ts.
import { z } from 'zod';
import { ID_PREFIXES, idPattern, type IdKind } from '../ids.js';

/** A positive integer amount in the token's smallest unit, as a string (never a float). */
export const amountString = z
  .string()
  .regex(/^[1-9][0-9]{0,29}$/, 'must be a positive integer string of at most 30 digits')
  .describe('A positive integer amount in the smallest unit (USDC has 6 decimals), as a string.');

/** An EVM chain id (EIP-155): which of the mode's configured chains (issue 39). */
export const chainIdField = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** `?chainId=` on a list: only objects on that chain. */
export const chainIdQuery = z.coerce
  .number()
  .int()
  .positive()
  .max(Number.MAX_SAFE_INTEGER)
  .optional()
  .describe("Only objects on this chain (an EIP-155 chain id of the mode's configured chains).");

export const timestamp = z.iso.datetime({ offset: true }).describe('ISO 8601 timestamp.');

/** The longest path id looked up; a longer one is `invalid_request` (ours are about 30 characters). */
export const PATH_ID_MAX_LENGTH = 255;

const pathIdKinds = new WeakMap<z.ZodType, IdKind>();

/**
 * An `{id}` path parameter of one kind. Ids are opaque strings (spec, Resources): any string of
 * printable characters up to PATH_ID_MAX_LENGTH is accepted, and one that names no object is
 * `404 not_found` whatever its shape. The shape check of `kind` (prefix and ULID) runs before the
 * handler, in src/plugins/path-ids.ts, and answers 404 there, so a lookup never sees a foreign shape.
 * Too long, empty or with control characters: `invalid_request`, param `id`.
 */
export function pathId(kind: IdKind) {
  const schema = z
    .string()
    .min(1)
    .max(PATH_ID_MAX_LENGTH)
    .regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain control characters')
    .describe(`Identifier of the object (ours start with \`${ID_PREFIXES[kind]}_\`); opaque, an unknown one is not_found.`);
  pathIdKinds.set(schema, kind);
  return schema;
}

/** The kind a `pathId(kind)` schema was made for; undefined for any other schema. */
export function pathIdKind(schema: unknown): IdKind | undefined {
  return schema instanceof z.ZodType ? pathIdKinds.get(schema) : undefined;
}

/**
 * An id of one kind given in a query filter or a body (`?planId=`, `paymentSessionId`): a value
 * not shaped like an id of that kind is `invalid_request`. A pattern, not a refinement, so the
 * OpenAPI document carries the exact format. Path ids use `pathId` instead.
 */
export function idParam(kind: IdKind) {
  return z
    .string()
    .regex(idPattern(kind), `must be an id starting with ${ID_PREFIXES[kind]}_`)
    .describe(`Identifier (prefix \`${ID_PREFIXES[kind]}_\`).`);
}

/**
 * An email address, checked by one pattern that the OpenAPI document carries as is (not `format: email`,
 * whose readings differ between validators): a dot-atom local part, then a domain of two or more
 * DNS labels of 1 to 63 letters, digits or inner hyphens.
 */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function emailAddress(maxLength: number) {
  return z.string().max(maxLength).regex(EMAIL_PATTERN, 'must be an email address');
}

export const errorEnvelope = z
  .object({
    error: z.object({
      code: z.enum([
        'authentication_error',
        'permission_denied',
        'merchant_not_synced',
        'not_found',
        'invalid_request',
        'session_invalid_state',
        'idempotency_error',
        'rate_limited',
        'api_error',
        'service_unavailable',
        'method_not_allowed',
      ]),
      message: z.string(),
      param: z.string().optional(),
      details: z
        .object({ issues: z.array(z.object({ path: z.string(), message: z.string() })).optional() })
        .passthrough()
        .optional(),
      requestId: z.string(),
    }),
  })
  .meta({ id: 'Error' });

/** A body that may be left out entirely (no Content-Type, or an empty one): read as `{}`. */
export function optionalBody<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => value ?? {}, schema);
}
