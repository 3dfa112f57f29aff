import { useState } from 'react';

/** A secret the API returns only once: shown with a copy button until dismissed. */
export function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <section className="secret" aria-label={label}>
      <h3>{label}</h3>
      <p>Copy it now: it is shown only this once.</p>
      <code className="secret-value" data-testid="secret-value">
        {secret}
      </code>
      <div className="actions">
        <button
          type="button"
          onClick={() =>
            void navigator.clipboard?.writeText(secret).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
