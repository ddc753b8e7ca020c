import type { ComponentChildren } from 'preact';

/**
 * One labelled form field as every form of the site draws it (the request forms, the curator desk): label
 * with "(required)", hint, the message next to the field (announced when it changes), then the control.
 * The hint and the message describe the control, so a screen reader reads them with it.
 */
export type FieldInput = 'text' | 'textarea' | 'url' | 'email' | 'country' | 'checkbox';

export interface FormFieldProps {
  id: string;
  name: string;
  label: string;
  input: FieldInput;
  required?: boolean;
  hint?: string;
  value: string;
  /** The verdict on the value: marks the field invalid. */
  error?: string;
  /** A message that is not a verdict (what a lookup found), shown as a problem or not. */
  note?: { text: string; problem: boolean };
  rows?: number;
  /** The datalist a country field suggests from. */
  countryList?: string;
  spellcheck?: boolean;
  /** More attributes of the control (data-* for the page's script, autocomplete). */
  attributes?: Readonly<Record<string, string | undefined>>;
  /** A button beside the control. */
  action?: ComponentChildren;
}

const INPUT_TYPES: Partial<Record<FieldInput, string>> = { url: 'url', email: 'email' };

export function FormField(props: FormFieldProps) {
  const { id, hint, value, error, note } = props;
  const hintId = hint ? `${id}-hint` : undefined;
  const messageId = `${id}-msg`;
  const label = (
    <label for={id}>
      {props.label}
      {props.required ? <span class="req"> (required)</span> : null}
    </label>
  );
  const hintText = hint ? (
    <p class="hint" id={hintId}>
      {hint}
    </p>
  ) : null;

  if (props.input === 'checkbox') {
    return (
      <div class="form-field checkbox">
        <input type="checkbox" id={id} name={props.name} value="on" checked={value === 'on'} aria-describedby={hintId} />
        {label}
        {hintText}
      </div>
    );
  }

  const common = {
    id,
    name: props.name,
    required: props.required,
    'aria-describedby': [hintId, messageId].filter(Boolean).join(' '),
    'aria-invalid': error ? ('true' as const) : undefined,
    ...props.attributes,
  };
  const control =
    props.input === 'textarea' ? (
      <textarea rows={props.rows ?? 4} {...common}>
        {value}
      </textarea>
    ) : (
      <input
        type={INPUT_TYPES[props.input] ?? 'text'}
        list={props.input === 'country' ? props.countryList : undefined}
        value={value}
        spellcheck={props.spellcheck}
        {...common}
      />
    );
  return (
    <div class={`form-field${error ? ' has-error' : ''}`}>
      {label}
      {hintText}
      <p class={`field-message${error || note?.problem ? ' problem' : ''}`} id={messageId} aria-live="polite">
        {error ?? note?.text ?? ''}
      </p>
      {props.action ? (
        <div class="with-action">
          {control}
          {props.action}
        </div>
      ) : (
        control
      )}
    </div>
  );
}
