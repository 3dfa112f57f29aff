// Events: every event the merchant's objects produced in this mode, filtered by
// kind, object and date; each row opens the payload and its delivery attempts.
import { useState } from 'react';
import { api } from '../api.ts';
import { Field, Select } from '../components/Form.tsx';
import { Link } from '../components/Link.tsx';
import { PaginatedTable } from '../components/PaginatedTable.tsx';
import { formatDate } from '../format.ts';
import { detailPath } from '../router.ts';
import { EVENT_TYPES } from '../shared.ts';
import type { ApiEvent } from '../types.ts';
import { dayEnd, dayStart } from './filters.ts';

export function EventsPage() {
  const [type, setType] = useState('');
  const [objectId, setObjectId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const query = { type, objectId: objectId.trim(), createdFrom: dayStart(from), createdTo: dayEnd(to) };
  return (
    <>
      <div className="filters">
        <Select
          label="Event type"
          options={[{ value: '', label: 'Any' }, ...[...EVENT_TYPES, 'webhook_endpoint.test'].map((t) => ({ value: t, label: t }))]}
          value={type}
          onChange={(e) => setType(e.target.value)}
        />
        <Field label="Object id" value={objectId} onChange={(e) => setObjectId(e.target.value)} placeholder="ps_…, sub_…, inv_…" />
        <Field label="From" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        <Field label="To" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
      </div>
      <PaginatedTable<ApiEvent>
        caption="Events"
        reloadKey={JSON.stringify(query)}
        load={(cursor) => api.list<ApiEvent>('/v1/events', cursor, query)}
        columns={[
          { header: 'Event', cell: (e) => <Link to={detailPath('events', e.id)}>{e.type}</Link> },
          { header: 'Object', cell: (e) => (e.objectId ? <code>{e.objectId}</code> : '—') },
          { header: 'Id', cell: (e) => <code>{e.id}</code> },
          { header: 'Created', cell: (e) => formatDate(e.created) },
        ]}
        empty="No events match."
      />
    </>
  );
}
