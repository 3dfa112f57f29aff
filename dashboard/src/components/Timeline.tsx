// What happened to an object, oldest first: each entry a time, a title and details.
import type { ReactNode } from 'react';
import { formatDate } from '../format.ts';

export type TimelineEntry = { at: string | null; title: string; detail?: ReactNode };

export function Timeline({ label, entries }: { label: string; entries: TimelineEntry[] }) {
  // Entries without a time (a state reached but not stamped) keep their place after the stamped ones.
  const sorted = [...entries].sort((a, b) => (a.at && b.at ? a.at.localeCompare(b.at) : a.at ? -1 : b.at ? 1 : 0));
  return (
    <section className="card" aria-label={label}>
      <h2>{label}</h2>
      {sorted.length === 0 ? (
        <p className="empty">Nothing has happened yet.</p>
      ) : (
        <ol className="timeline">
          {sorted.map((entry, i) => (
            <li key={`${entry.title}-${i}`}>
              <time dateTime={entry.at ?? undefined}>{formatDate(entry.at)}</time>
              <strong>{entry.title}</strong>
              {entry.detail && <div className="timeline-detail">{entry.detail}</div>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
