// Labelled form controls and a submit helper that shows the API's error.
import { useId, useState, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
import { ErrorMessage } from './ErrorMessage.tsx';

export function Field(props: { label: string; hint?: string; wide?: boolean } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const { label, hint, wide, ...input } = props;
  return (
    <div className={wide ? 'field wide' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
    </div>
  );
}

export function Select(
  props: { label: string; options: readonly (string | { value: string; label: string })[] } & SelectHTMLAttributes<HTMLSelectElement>,
) {
  const id = useId();
  const { label, options, ...select } = props;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} {...select}>
        {options.map((option) => {
          const { value, label: text } = typeof option === 'string' ? { value: option, label: option || 'Any' } : option;
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
    </div>
  );
}

/** A form whose submit runs `action`; the API's error shows above the button, `done` after success. */
export function ActionForm(props: {
  title?: string;
  submitLabel: string;
  action: (form: FormData) => Promise<unknown>;
  children: ReactNode;
  className?: string;
}) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const headingId = useId();
  return (
    <form
      className={`card form ${props.className ?? ''}`}
      aria-labelledby={props.title ? headingId : undefined}
      onSubmit={async (event) => {
        event.preventDefault();
        const form = event.currentTarget;
        setBusy(true);
        setError(null);
        try {
          await props.action(new FormData(form));
        } catch (e) {
          setError(e);
        } finally {
          setBusy(false);
        }
      }}
    >
      {props.title && <h2 id={headingId}>{props.title}</h2>}
      {props.children}
      <ErrorMessage error={error} />
      <div className="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Working…' : props.submitLabel}
        </button>
      </div>
    </form>
  );
}

/** A button running an API action, showing its error next to it. */
export function ActionButton(props: { label: string; ariaLabel?: string; action: () => Promise<unknown>; className?: string }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <span className="action-button">
      <button
        type="button"
        className={props.className ?? 'secondary'}
        aria-label={props.ariaLabel}
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            await props.action();
          } catch (e) {
            setError(e);
          } finally {
            setBusy(false);
          }
        }}
      >
        {props.label}
      </button>
      <ErrorMessage error={error} />
    </span>
  );
}

export const text = (form: FormData, name: string): string => String(form.get(name) ?? '').trim();
export const optionalText = (form: FormData, name: string): string | undefined => text(form, name) || undefined;
