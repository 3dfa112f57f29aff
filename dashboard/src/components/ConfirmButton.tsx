import { useState, type ReactNode } from 'react';

/** A destructive action asks once more, inline: "Really …? Confirm / Keep". */
export function ConfirmButton(props: { label: string; ariaLabel?: string; question: string; confirmLabel?: string; onConfirm: () => Promise<void> | void; children?: ReactNode }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="danger" aria-label={props.ariaLabel} onClick={() => setAsking(true)}>
        {props.label}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={props.question}>
      <span>{props.question}</span>
      {props.children}
      <button
        type="button"
        className="danger"
        disabled={busy}
        autoFocus
        onClick={async () => {
          setBusy(true);
          try {
            await props.onConfirm();
          } finally {
            setBusy(false);
            setAsking(false);
          }
        }}
      >
        {props.confirmLabel ?? 'Confirm'}
      </button>
      <button type="button" className="secondary" onClick={() => setAsking(false)}>
        Keep
      </button>
    </span>
  );
}
