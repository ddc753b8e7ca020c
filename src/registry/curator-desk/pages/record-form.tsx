import type { FormValues } from '../../model/registration-fields.js';
import type { DeskField } from '../desk-forms.js';
import { CountryList, CsrfField, DeskInput, type DeskContext } from './desk-parts.js';

/** A refused form of a record page: which form, what was typed, and why. */
export interface RecordRefusal {
  form: 'edit' | 'successor' | 'lifecycle';
  values?: FormValues;
  errors: Record<string, string>;
  problems: string[];
}

/** The edit form of a record: every field labelled, with the `modified` it was read at. */
export function RecordForm({
  desk,
  action,
  fields,
  values,
  errors,
  modified,
  button,
}: {
  desk: DeskContext;
  action: string;
  fields: readonly DeskField[];
  values: FormValues;
  errors: Readonly<Record<string, string>>;
  modified: Date;
  button: string;
}) {
  return (
    <form method="post" action={action} class="request-form" novalidate>
      <CsrfField desk={desk} />
      <input type="hidden" name="modified" value={modified.toISOString()} />
      {fields.map((field) => (
        <DeskInput key={field.name} idPrefix="edit" field={field} value={values[field.name] ?? ''} error={errors[field.name]} />
      ))}
      {fields.some((field) => field.input === 'country') ? <CountryList /> : null}
      <button type="submit">{button}</button>
    </form>
  );
}

/** A form of one button (deactivate, reactivate), CSRF-checked like the others. */
export function ButtonForm({ desk, action, label, danger = false }: { desk: DeskContext; action: string; label: string; danger?: boolean }) {
  return (
    <form method="post" action={action} class="desk-action">
      <CsrfField desk={desk} />
      <button type="submit" class={danger ? 'danger' : undefined}>
        {label}
      </button>
    </form>
  );
}
