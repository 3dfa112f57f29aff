// The edit form of an object whose terms are fixed once created (a plan's price and period, a meter's
// aggregation and keys): it says why, and offers the name only, with Save and Close.
import type { ReactNode } from 'react';
import { ActionForm, Field, text } from './Form.tsx';

export function RenameForm<T>(props: {
  title: string;
  submitLabel: string;
  /** The name's input: its label, its form and API field name, its longest length, the name now. */
  field: { label: string; name: string; maxLength: number; defaultValue: string };
  /** Sends the new name; resolves to the saved object. */
  save: (name: string) => Promise<T>;
  onSaved: (saved: T) => void;
  onClose: () => void;
  /** Why only the name can change. */
  children: ReactNode;
}) {
  const { field } = props;
  return (
    <ActionForm
      title={props.title}
      submitLabel={props.submitLabel}
      action={async (form) => {
        props.onSaved(await props.save(text(form, field.name)));
      }}
    >
      <p className="hint">{props.children}</p>
      <div className="grid">
        <Field label={field.label} name={field.name} required maxLength={field.maxLength} defaultValue={field.defaultValue} />
      </div>
      <button type="button" className="secondary" onClick={props.onClose}>
        Close
      </button>
    </ActionForm>
  );
}
