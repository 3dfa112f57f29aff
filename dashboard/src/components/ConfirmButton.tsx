import { useState, type ReactNode } from 'react';

/**
 * A destructive or money-moving action asks once more, inline: "Really …? Confirm / Keep".
 * `tone` "primary" is for actions that move money forward (approve, pay) rather than undo something.
 */
export function ConfirmButton(props: {
  label: string;
  ariaLabel?: string;
  question: string;
  confirmLabel?: string;
  tone?: 'danger' | 'primary';
  onConfirm: () => Promise<void> | void;
  children?: ReactNode;
}) {
  const tone = props.tone === 'primary' ? 'primary' : 'danger';
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!asking) {
    return (
      <button type="button" className={tone} aria-label={props.ariaLabel} onClick={() => setAsking(true)}>
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
        className={tone}
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
