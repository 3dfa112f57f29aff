// The filters every list offers: status, created from/to (days) and a search box
// (id, wallet, email or transaction hash), as the list APIs' query parameters; and, on the lists
// whose objects are on a chain, the network (`chainId`) when the mode has more than one; on the lists whose
// objects carry metadata, a `key=value` pair sent as the API's `metadata[key]=value` (exact match).
import { useState, type ReactNode } from 'react';
import { useModeChains } from '../modeChains.ts';
import { dayEnd, dayStart, metadataFilter } from '../pages/filters.ts';
import { Field, Select } from './Form.tsx';
import { MetadataField } from './Metadata.tsx';

export type ListQuery = {
  status?: string;
  createdFrom?: string;
  createdTo?: string;
  q?: string;
  chainId?: string;
  [metadataKey: `metadata[${string}]`]: string | undefined;
};

export function useListFilters(
  statuses: readonly string[],
  searchHint = 'Id, wallet, email or transaction hash',
  options: { byNetwork?: boolean; byMetadata?: boolean } = {},
): { query: ListQuery; key: string; element: ReactNode } {
  const [status, setStatus] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [chainId, setChainId] = useState('');
  const [metadataInput, setMetadataInput] = useState('');
  const [metadata, setMetadata] = useState('');
  const chains = useModeChains();
  // One chain: nothing to choose. A chosen chain the mode no longer lists (the mode switched) is dropped.
  const networks = options.byNetwork && chains.length > 1 ? chains : [];
  const chosenChain = networks.some((c) => String(c.chainId) === chainId) ? chainId : '';
  const query: ListQuery = {
    status: status || undefined,
    createdFrom: dayStart(from),
    createdTo: dayEnd(to),
    q: q || undefined,
    chainId: chosenChain || undefined,
    ...(options.byMetadata ? metadataFilter(metadata) : {}),
  };
  const element = (
    <form
      className="filters"
      role="search"
      aria-label="Filters"
      onSubmit={(event) => {
        event.preventDefault();
        setQ(search.trim());
        setMetadata(metadataInput.trim());
      }}
    >
      {statuses.length > 0 && (
        <Select label="Status" options={['', ...statuses]} value={status} onChange={(e) => setStatus(e.target.value)} />
      )}
      {networks.length > 0 && (
        <Select
          label="Network"
          options={[{ value: '', label: 'Any' }, ...networks.map((c) => ({ value: String(c.chainId), label: c.network }))]}
          value={chosenChain}
          onChange={(e) => setChainId(e.target.value)}
        />
      )}
      <Field label="Created from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
      <Field label="Created to" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
      <Field label="Search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={searchHint} />
      {options.byMetadata && <MetadataField value={metadataInput} onChange={setMetadataInput} />}
      <button type="submit" className="secondary">
        Search
      </button>
    </form>
  );
  return { query, key: JSON.stringify(query), element };
}
