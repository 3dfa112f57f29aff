import { Field } from './Form.tsx';
import { metadataFilter } from '../pages/filters.ts';

/** The lists' metadata search box: one `key=value` pair (sent as `metadata[key]=value`, exact). */
export function MetadataField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const invalid = value.trim() !== '' && Object.keys(metadataFilter(value.trim())).length === 0;
  return (
    <Field
      label="Metadata"
      type="search"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      placeholder="key=value"
      {...(invalid ? { hint: 'Write key=value (exact match).' } : {})}
    />
  );
}

// An object's metadata (the merchant's own key-value pairs) as a definition list inside a `facts` list,
// or a dash when it has none. Each key links nowhere: the lists' "Metadata" filter searches by a pair.
export function MetadataFacts({ metadata }: { metadata: Record<string, string> | null | undefined }) {
  const pairs = Object.entries(metadata ?? {});
  return (
    <>
      <dt>Metadata</dt>
      <dd data-testid="metadata">
        {pairs.length === 0 ? (
          '—'
        ) : (
          <dl className="metadata">
            {pairs.map(([key, value]) => (
              <div key={key}>
                <dt>{key}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        )}
      </dd>
    </>
  );
}

/** The pairs on one line, for a table cell: `order=A-1, channel=web`. */
export function metadataText(metadata: Record<string, string> | null | undefined): string {
  const pairs = Object.entries(metadata ?? {});
  return pairs.length === 0 ? '—' : pairs.map(([key, value]) => `${key}=${value}`).join(', ');
}
