// Any list endpoint as a table: pages through the API's cursors (nextCursor,
// "" on the last page) with Previous/Next; shows the API's error message.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { Page } from '../api.ts';
import { ErrorMessage } from './ErrorMessage.tsx';

export type Column<T> = { header: string; cell: (row: T) => ReactNode; className?: string };

export function PaginatedTable<T extends { id: string }>(props: {
  caption: string;
  /** The caption names the table for screen readers only (a visible heading already says it). */
  hideCaption?: boolean;
  columns: Column<T>[];
  load: (cursor: string | undefined) => Promise<Page<T>>;
  /** Change it to reload from the first page (after a create, a filter change...). */
  reloadKey?: unknown;
  empty?: string;
  onSelect?: (row: T) => void;
  selectedId?: string;
}) {
  const { load, reloadKey } = props;
  // cursors[i] is the cursor that loads page i (undefined for the first).
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [index, setIndex] = useState(0);
  const [page, setPage] = useState<Page<T> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(false);

  const show = useCallback(
    async (cursor: string | undefined) => {
      setLoading(true);
      setError(null);
      try {
        setPage(await load(cursor));
      } catch (e) {
        setError(e);
      } finally {
        setLoading(false);
      }
    },
    [load],
  );

  useEffect(() => {
    setCursors([undefined]);
    setIndex(0);
    void show(undefined);
    // Only a new reloadKey starts again from the first page: show is left out of the dependencies on purpose.
  }, [reloadKey]);

  const next = () => {
    if (!page?.hasMore) return;
    const nextCursors = [...cursors.slice(0, index + 1), page.nextCursor];
    setCursors(nextCursors);
    setIndex(index + 1);
    void show(page.nextCursor);
  };
  const previous = () => {
    if (index === 0) return;
    setIndex(index - 1);
    void show(cursors[index - 1]);
  };

  return (
    <div className="table-block">
      <ErrorMessage error={error} />
      <div className="table-scroll">
        <table aria-busy={loading}>
          <caption className={props.hideCaption ? 'visually-hidden' : undefined}>{props.caption}</caption>
          <thead>
            <tr>
              {props.columns.map((column) => (
                <th key={column.header} scope="col" className={column.className}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {page?.data.map((row) => (
              <tr key={row.id} className={row.id === props.selectedId ? 'selected' : undefined}>
                {props.columns.map((column, i) => (
                  <td key={column.header} className={column.className} data-label={column.header}>
                    {i === 0 && props.onSelect ? (
                      <button
                        type="button"
                        className="link"
                        onClick={() => props.onSelect!(row)}
                        aria-pressed={row.id === props.selectedId}
                      >
                        {column.cell(row)}
                      </button>
                    ) : (
                      column.cell(row)
                    )}
                  </td>
                ))}
              </tr>
            ))}
            {page && page.data.length === 0 && (
              <tr>
                <td colSpan={props.columns.length} className="empty">
                  {props.empty ?? 'Nothing here yet.'}
                </td>
              </tr>
            )}
            {!page && loading && (
              <tr>
                <td colSpan={props.columns.length} className="empty">
                  Loading…
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <nav className="pager" aria-label={`${props.caption} pages`}>
        <button type="button" className="secondary" onClick={previous} disabled={index === 0 || loading}>
          Previous
        </button>
        <span>Page {index + 1}</span>
        <button type="button" className="secondary" onClick={next} disabled={!page?.hasMore || loading}>
          Next
        </button>
      </nav>
    </div>
  );
}
