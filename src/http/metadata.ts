// `metadata` on the objects that take it (coupons and promotion codes first): the merchant's own
// key-value pairs, Stripe's limits, returned as given and never interpreted.
import { z } from 'zod';
import type { Db } from '../db/client.js';

export const METADATA_MAX_KEYS = 50;

export const metadataField = z
  .record(z.string().min(1).max(40), z.string().max(500))
  .refine((value) => Object.keys(value).length <= METADATA_MAX_KEYS, `must have at most ${METADATA_MAX_KEYS} keys`)
  .describe(`Up to ${METADATA_MAX_KEYS} keys (1 to 40 characters) of string values (up to 500 characters), kept as given.`);

/** `metadata` on a returned object: the merchant's pairs as stored ({} when none). */
export const metadataObject = z.object({}).catchall(z.string()).describe("The merchant's key-value pairs.");

/** An update's `metadata`: merged into the stored pairs (mergeMetadata). */
export const metadataUpdate = metadataField.describe('Merged into the stored metadata; a key sent as "" is removed.');

/** The stored metadata with an update's keys merged in; a key sent as "" is removed (Stripe's rule). */
export function mergeMetadata(current: Record<string, string>, update: Record<string, string>): Record<string, string> {
  const merged = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

// ---- Lists filtered by metadata, Stripe's way: `?metadata[order]=1234&metadata[plan]=pro` (exact values, all must match).

const METADATA_QUERY_PREFIX = 'metadata[';

/**
 * The list query's `metadata` filter. The query string arrives flat (`metadata[order]` is one key); the route's
 * preValidation (foldMetadataQuery) folds those keys into this object, so a bad key is refused by this schema with
 * `param` `metadata.<key>`: a key of 1 to 40 characters without brackets, one string value (a repeated key is refused).
 */
export const metadataQuery = z
  .record(z.string().regex(/^[^[\]]{1,40}$/, 'must be 1 to 40 characters without brackets, as in metadata[key]=value'), z.string().max(500))
  .refine((value) => Object.keys(value).length <= METADATA_MAX_KEYS, `must have at most ${METADATA_MAX_KEYS} keys`)
  .optional()
  .meta({ style: 'deepObject', explode: true })
  .describe(
    'Only objects whose metadata holds every given pair, exactly: `metadata[key]=value` (repeat with other keys to require several).',
  );

/**
 * preValidation of a list route taking `metadata`: moves each `metadata[key]` query key into `query.metadata.key`
 * (a key without its closing bracket keeps its bracket, so the schema refuses it rather than the filter dropping it).
 */
export async function foldMetadataQuery(request: { query: unknown }): Promise<void> {
  const query = request.query as Record<string, unknown> | null;
  if (!query || typeof query !== 'object') return;
  for (const key of Object.keys(query)) {
    if (!key.startsWith(METADATA_QUERY_PREFIX)) continue;
    const inner = key.endsWith(']') ? key.slice(METADATA_QUERY_PREFIX.length, -1) : key.slice(METADATA_QUERY_PREFIX.length - 1);
    const folded = (query.metadata && typeof query.metadata === 'object' ? query.metadata : {}) as Record<string, unknown>;
    folded[inner] = query[key];
    query.metadata = folded;
    delete query[key];
  }
}

/** `and <column> @> {...}` for a metadata filter (jsonb containment: the GIN index of the list, exact string values). */
export function metadataSql(db: Db, column: string, metadata: Record<string, string> | undefined) {
  if (!metadata || Object.keys(metadata).length === 0) return db``;
  return db`and ${db(column)} @> ${db.json(metadata)}::jsonb`;
}

/** The tables whose rows take a merchant's metadata update through updateMetadata. */
type MetadataTable = 'customers' | 'invoices' | 'refunds';

/**
 * A merchant's metadata update of one row of `table` in the merchant's scope (Stripe's rule: merged, "" removes a
 * key), in the caller's transaction: the row is locked, saved only when the pairs changed, and `changed` (which
 * records the object's `.updated` event) runs only then. undefined: no such row in this scope.
 */
export async function updateMetadata(
  tx: Db,
  table: MetadataTable,
  scope: { merchantId: string; livemode: boolean },
  id: string,
  update: Record<string, string> | undefined,
  changed: (previous: Record<string, string>) => Promise<void>,
): Promise<'changed' | 'unchanged' | undefined> {
  const [row] = await tx<{ metadata: Record<string, string> }[]>`
    select metadata from ${tx(table)} where id = ${id} and merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} for update`;
  if (!row) return undefined;
  const metadata = update ? mergeMetadata(row.metadata, update) : row.metadata;
  if (JSON.stringify(metadata) === JSON.stringify(row.metadata)) return 'unchanged';
  await tx`update ${tx(table)} set metadata = ${tx.json(metadata)} where id = ${id}`;
  await changed(row.metadata);
  return 'changed';
}
