// Zod building blocks shared by every resource's schemas.ts.
import { z } from 'zod';
import { ID_PREFIXES, idPattern, type IdKind } from '../ids.js';

/** A positive integer amount in the token's smallest unit, as a string (never a float). */
export const amountString = z
  .string()
  .regex(/^[1-9][0-9]{0,29}$/, 'must be a positive integer string of at most 30 digits')
  .describe('A positive integer amount in the smallest unit (USDC has 6 decimals), as a string.');

export const timestamp = z.iso.datetime({ offset: true }).describe('ISO 8601 timestamp.');

/**
 * A path id of one kind; a malformed one is `invalid_request` rather than a lookup. A pattern, not a
 * refinement, so the OpenAPI document carries the exact format (clients and fuzzers generate valid ids).
 */
export function idParam(kind: IdKind) {
  return z
    .string()
    .regex(idPattern(kind), `must be an id starting with ${ID_PREFIXES[kind]}_`)
    .describe(`Identifier (prefix \`${ID_PREFIXES[kind]}_\`).`);
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
      ]),
      message: z.string(),
      param: z.string().optional(),
      details: z.object({ issues: z.array(z.object({ path: z.string(), message: z.string() })).optional() }).passthrough().optional(),
      requestId: z.string(),
    }),
  })
  .meta({ id: 'Error' });

/** A body that may be left out entirely (no Content-Type, or an empty one): read as `{}`. */
export function optionalBody<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => value ?? {}, schema);
}
