// Exports every row of a list with the current filters as a CSV file, paging through the list API.
import { useState } from 'react';
import { listAll } from '../api.ts';
import { toCsv, type CsvColumn } from '../csv.ts';
import { ErrorMessage } from './ErrorMessage.tsx';

/** The most rows one export reads (100 pages of the API). */
const MAX_ROWS = 10_000;

export function CsvExport<T>(props: {
  path: string;
  query: Record<string, string | undefined>;
  columns: CsvColumn<T>[];
  filename: string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [note, setNote] = useState('');
  return (
    <span className="csv-export">
      <button
        type="button"
        className="secondary"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          setNote('');
          try {
            const rows = await listAll<T>(props.path, props.query, MAX_ROWS);
            const url = URL.createObjectURL(new Blob([toCsv(rows, props.columns)], { type: 'text/csv;charset=utf-8' }));
            const link = document.createElement('a');
            link.href = url;
            link.download = `${props.filename}-${new Date().toISOString().slice(0, 10)}.csv`;
            link.click();
            setTimeout(() => URL.revokeObjectURL(url), 10_000);
            setNote(
              `${rows.length} rows exported${rows.length >= MAX_ROWS ? ` (the first ${MAX_ROWS}: narrow the filters for the rest)` : ''}.`,
            );
          } catch (e) {
            setError(e);
          } finally {
            setBusy(false);
          }
        }}
      >
        {busy ? 'Exporting…' : 'Export CSV'}
      </button>
      {note && <small role="status">{note}</small>}
      <ErrorMessage error={error} />
    </span>
  );
}
