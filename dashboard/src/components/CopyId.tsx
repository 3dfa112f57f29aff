// An object id shown in full with a Copy button, so it can be pasted where an
// API call or a support request needs it.
import { useState } from 'react';

export function CopyId({ id }: { id: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <span className="copy-id">
      <code>{id}</code>
      <button
        type="button"
        className="link"
        aria-label={`Copy ${id}`}
        onClick={async () => {
          await navigator.clipboard.writeText(id);
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </span>
  );
}
