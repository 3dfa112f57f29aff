// The filters the dashboard's lists send (issue 28): a created-at window and a search box `q`.
// The window has the events API's semantics (createdFrom inclusive, createdTo exclusive, ISO 8601
// date-times with an offset); an inverted window is an empty page, not an error. What `q` matches is
// each list's own (docs/lists.md); emails match case-insensitively on their prefix, so a
// merchant can type the start of an address.
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { timestamp } from './schemas.js';

export const MAX_SEARCH_CHARS = 320;

export const createdRangeQuery = {
  createdFrom: timestamp.optional().describe('Only objects created at or after this time (inclusive).'),
  createdTo: timestamp.optional().describe('Only objects created before this time (exclusive).'),
};

/** The `q` parameter of a list; `matches` says what it is compared with on that list. */
export function searchQuery(matches: string) {
  return z
    .string()
    .min(1)
    .max(MAX_SEARCH_CHARS)
    .regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain control characters')
    .optional()
    .describe(`Search: ${matches}.`);
}

export type CreatedRange = { createdFrom?: Date; createdTo?: Date };

export function createdRangeOf(query: { createdFrom?: string; createdTo?: string }): CreatedRange {
  return {
    createdFrom: query.createdFrom ? new Date(query.createdFrom) : undefined,
    createdTo: query.createdTo ? new Date(query.createdTo) : undefined,
  };
}

/** `and <column> >= from and <column> < to` for the window's given ends (`column` may be `alias.name`). */
export function createdRangeSql(db: Db, column: string, range: CreatedRange) {
  return db`${range.createdFrom ? db`and ${db(column)} >= ${range.createdFrom}` : db``}
    ${range.createdTo ? db`and ${db(column)} < ${range.createdTo}` : db``}`;
}

/** A LIKE pattern matching values that start with `text` (lower-cased), its wildcards taken literally. */
export function lowerPrefixPattern(text: string): string {
  return `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
