import type { FormValues } from '../../model/registration-fields.js';
import type { DeskField } from '../desk-forms.js';
import { CountryList, CsrfField, DeskInput, type DeskContext } from './desk-parts.js';

/** A refused form of a record page: which form, what was typed, and why. */
export interface RecordRefusal {
  form: 'edit' | 'successor' | 'lifecycle' | 'delete';
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

/**
 * A form of one button (deactivate, reactivate, delete), CSRF-checked like the others. `of`: the record's
 * name, which screen readers hear after the label where a list has a button per record.
 */
export function ButtonForm({ desk, action, label, danger = false, of }: { desk: DeskContext; action: string; label: string; danger?: boolean; of?: string }) {
  return (
    <form method="post" action={action} class="desk-action">
      <CsrfField desk={desk} />
      <button type="submit" class={danger ? 'danger' : undefined}>
        {label}
        {of === undefined ? null : <span class="visually-hidden"> {of}</span>}
      </button>
    </form>
  );
}
