// Cursor pagination shared by every list endpoint: newest first, keyed on the
// time-sortable id, so rows inserted while a client pages never shift a page.
// The cursor is the id of the last object of the previous page (the next page
// starts below it), typed in the OpenAPI document with the exact pattern of that
// list's ids: any value of that shape is a valid cursor (docs/decisions.md,
// Cursors). `nextCursor` is always a string (spec, Common rules): the cursor of
// the next page, or "" on the last page (`hasMore: false`). Sending `cursor=`
// empty is refused, so a client that loops on a wrong condition fails instead
// of starting over at the first page.
import { z } from 'zod';
import { ID_PREFIXES, idPattern, type IdKind } from '../ids.js';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 25;

/** The query of a list whose objects have ids of `kind`: `limit`, and `cursor` typed with that kind's id pattern. */
export function listQueryOf(kind: IdKind) {
  return z.object({
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_PAGE_SIZE)
      .default(DEFAULT_PAGE_SIZE)
      .describe(`Page size, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).`),
    cursor: z
      .string()
      .regex(idPattern(kind), `must be the nextCursor of a previous page (an id starting with ${ID_PREFIXES[kind]}_)`)
      .optional()
      .describe(
        `The \`nextCursor\` of the previous page: the id (\`${ID_PREFIXES[kind]}_...\`) of its last object; the page starts below it.`,
      ),
  });
}

export type ListQuery = z.infer<ReturnType<typeof listQueryOf>>;

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    nextCursor: z
      .string()
      .describe('Pass as `cursor` to get the next page. Always a string: empty ("") on the last page, when `hasMore` is false.'),
    hasMore: z.boolean().describe('True when another page follows; `nextCursor` is then non-empty.'),
  });
}

export type Page<T> = { data: T[]; nextCursor: string; hasMore: boolean };

/** The `nextCursor` of the last page. */
export const LAST_PAGE_CURSOR = '';

export function encodeCursor(lastId: string): string {
  return lastId;
}

/** The id a page starts below, or undefined for the first page (its shape was checked by the list's query schema). */
export function decodeCursor(cursor: string | undefined): string | undefined {
  return cursor;
}

/**
 * Builds a page from rows fetched with `limit + 1`: the extra row only tells
 * whether more exist.
 */
export function toPage<Row extends { id: string }, Out>(rows: Row[], limit: number, render: (row: Row) => Out): Page<Out> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    data: pageRows.map(render),
    nextCursor: hasMore && last ? encodeCursor(last.id) : LAST_PAGE_CURSOR,
    hasMore,
  };
}
