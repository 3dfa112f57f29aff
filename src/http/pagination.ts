// Cursor pagination shared by every list endpoint: newest first, keyed on the
// time-sortable id, so rows inserted while a client pages never shift a page.
// `nextCursor` is always a string (spec, Common rules): the cursor of the next
// page, or "" on the last page (`hasMore: false`). Sending `cursor=` empty is
// refused, so a client that loops on a wrong condition fails instead of
// starting over at the first page.
import { z } from 'zod';
import { InvalidRequestError } from '../errors.js';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 25;

export const listQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE)
    .describe(`Page size, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).`),
  cursor: z.string().max(200).optional().describe('The `nextCursor` of the previous page.'),
});

export type ListQuery = z.infer<typeof listQuery>;

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
  return Buffer.from(JSON.stringify({ before: lastId }), 'utf8').toString('base64url');
}

/** The id a page starts below, or undefined for the first page. */
export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (parsed && typeof parsed === 'object' && 'before' in parsed && typeof parsed.before === 'string') {
      return parsed.before;
    }
  } catch {
    // fall through to the error below
  }
  throw new InvalidRequestError('The cursor is not valid; use the nextCursor of a previous page.', { param: 'cursor' });
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
