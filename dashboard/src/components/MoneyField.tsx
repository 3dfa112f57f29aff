// A money input that shows what it will send before anything is created (issue 36, item 12): under the
// field, "= 9.99 USDC" as parsed by the one money-input rule (src/money/parse.ts), or why the text is
// refused ("9,99" is ambiguous). The form still reads the field by its name.
import { useId, useState, type InputHTMLAttributes } from 'react';
import { describeMoneyInput } from '../format.ts';

/** The parsed amount (or the refusal) of what is typed, live under a money input. */
export function AmountPreview({ text, id }: { text: string; id?: string }) {
  if (text.trim() === '') return null;
  const preview = describeMoneyInput(text);
  return (
    <small
      id={id}
      className={preview.ok ? 'hint amount-preview' : 'hint amount-preview invalid'}
      role={preview.ok ? undefined : 'alert'}
      data-valid={preview.ok}
    >
      {preview.text}
    </small>
  );
}

export function MoneyField(props: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const { label, onChange, defaultValue, ...input } = props;
  const [value, setValue] = useState(String(defaultValue ?? ''));
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        inputMode="decimal"
        autoComplete="off"
        aria-describedby={`${id}-amount`}
        {...input}
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          onChange?.(event);
        }}
      />
      <AmountPreview id={`${id}-amount`} text={value} />
    </div>
  );
}
