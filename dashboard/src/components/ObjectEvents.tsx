// The events an object produced (GET /v1/events?objectId=…), each linking to its payload and deliveries.
import { useEffect, useState } from 'react';
import { api, type Page } from '../api.ts';
import { detailPath } from '../router.ts';
import type { ApiEvent } from '../types.ts';
import { ErrorMessage } from './ErrorMessage.tsx';
import type { TimelineEntry } from './Timeline.tsx';
import { Link } from './Link.tsx';

/** The object's events (newest 100), or the error that kept them from loading. */
export function useObjectEvents(objectId: string): { events: ApiEvent[]; error: unknown } {
  const [state, setState] = useState<{ events: ApiEvent[]; error: unknown }>({ events: [], error: null });
  useEffect(() => {
    api.get<Page<ApiEvent>>('/v1/events', { objectId, limit: 100 }).then(
      (page) => setState({ events: page.data, error: null }),
      (error: unknown) => setState({ events: [], error }),
    );
  }, [objectId]);
  return state;
}

export function eventEntries(events: ApiEvent[]): TimelineEntry[] {
  return events.map((event) => ({
    at: event.created,
    title: `Event ${event.type}`,
    detail: (
      <Link to={detailPath('events', event.id)}>
        <code>{event.id}</code>: payload and deliveries
      </Link>
    ),
  }));
}

export function ObjectEventsError({ error }: { error: unknown }) {
  return error ? (
    <div aria-label="Events could not be loaded">
      <ErrorMessage error={error} />
    </div>
  ) : null;
}
