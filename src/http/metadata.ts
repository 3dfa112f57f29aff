// `metadata` on the objects that take it (coupons and promotion codes first): the merchant's own
// key-value pairs, Stripe's limits, returned as given and never interpreted.
import { z } from 'zod';

export const METADATA_MAX_KEYS = 50;

export const metadataField = z
  .record(z.string().min(1).max(40), z.string().max(500))
  .refine((value) => Object.keys(value).length <= METADATA_MAX_KEYS, `must have at most ${METADATA_MAX_KEYS} keys`)
  .describe(`Up to ${METADATA_MAX_KEYS} keys (1 to 40 characters) of string values (up to 500 characters), kept as given.`);

/** The stored metadata with an update's keys merged in; a key sent as "" is removed (Stripe's rule). */
export function mergeMetadata(current: Record<string, string>, update: Record<string, string>): Record<string, string> {
  const merged = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  return merged;
}
