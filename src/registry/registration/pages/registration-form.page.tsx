import { countries } from '../../../../migrations/data/iso-3166-1.js';
import { CSRF_FIELD } from '../../../web/csrf.js';
import { Layout } from '../../../web/layout.js';
import type { Site } from '../../../web/site.js';
import { FormField as FormFieldView } from '../../../web/form-field.js';
import type { FieldGroup, FormField, FormValues, RequestForm } from '../../model/registration-fields.js';

/** The request forms' script: live validation, the ROR lookup, the namespace suggestions. */
export const FORM_SCRIPTS = ['registration-form.js'] as const;

/** What the ROR lookup found (or not), shown next to the ROR id. */
export interface FieldNote {
  field: string;
  text: string;
  problem: boolean;
}

export interface RegistrationFormProps {
  site: Site;
  form: RequestForm;
  values: FormValues;
  /** Messages by field name: the validators' verdicts on a submitted form. */
  errors: Readonly<Record<string, string>>;
  /** Problems of the whole form (an expired form, checks that did not answer, a message without a field). */
  problems: readonly string[];
  note?: FieldNote;
  csrf: string;
  minDescriptionLength: number;
}

const COUNTRY_LIST = 'iso-countries';
const DESCRIPTIONS = new Set(['description', 'providerDescription', 'institutionDescription', 'authHelpDescription']);

const fieldId = (name: string) => `f-${name}`;

function hintOf(field: FormField, minDescriptionLength: number): string | undefined {
  if (!DESCRIPTIONS.has(field.name)) return field.hint;
  const length = `More than ${minDescriptionLength} characters.`;
  return field.hint ? `${field.hint} ${length}` : length;
}

function Field({ field, props }: { field: FormField; props: RegistrationFormProps }) {
  const note = props.note?.field === field.name ? props.note : undefined;
  return (
    <FormFieldView
      id={fieldId(field.name)}
      name={field.name}
      label={field.label}
      input={field.input}
      required={field.required}
      hint={hintOf(field, props.minDescriptionLength)}
      value={props.values[field.name] ?? ''}
      error={props.errors[field.name]}
      note={note}
      rows={field.name === 'additionalInformation' || field.name === 'references' ? 3 : 4}
      countryList={COUNTRY_LIST}
      spellcheck={field.input === 'text' && field.validate !== 'validateName' ? false : undefined}
      attributes={{
        autocomplete: field.autocomplete,
        'data-validate': field.validate,
        'data-with': field.with && field.with.length > 0 ? field.with.join(' ') : undefined,
        'data-needs': field.needs && field.needs.length > 0 ? field.needs.join(' ') : undefined,
        'data-suggest-prefix': field.enhance === 'prefix-suggest' ? '' : undefined,
      }}
      action={
        field.enhance === 'ror-lookup' ? (
          <button type="submit" class="secondary" name="action" value="ror-lookup" formnovalidate data-ror-lookup="">
            Look up
          </button>
        ) : undefined
      }
    />
  );
}

function Group({ group, props }: { group: FieldGroup; props: RegistrationFormProps }) {
  const hintId = group.hint ? `g-${group.legend.toLowerCase().replace(/\W+/g, '-')}-hint` : undefined;
  return (
    <fieldset aria-describedby={hintId}>
      <legend>{group.legend}</legend>
      {group.hint ? (
        <p class="hint" id={hintId}>
          {group.hint}
        </p>
      ) : null}
      {group.fields.map((field) => (
        <Field key={field.name} field={field} props={props} />
      ))}
    </fieldset>
  );
}

function ErrorSummary({ props }: { props: RegistrationFormProps }) {
  const fieldErrors = props.form.groups.flatMap((g) => g.fields).filter((f) => props.errors[f.name] !== undefined);
  if (fieldErrors.length === 0 && props.problems.length === 0) return null;
  return (
    <div class="error-summary" tabIndex={-1} aria-labelledby="error-summary-title" data-error-summary="">
      <h2 id="error-summary-title">There is a problem</h2>
      <ul>
        {props.problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
        {fieldErrors.map((field) => (
          <li key={field.name}>
            <a href={`#${fieldId(field.name)}`}>{props.errors[field.name]}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * `/prefixregistrationrequest` and `/resourceregistrationrequest`: the request form, empty or as submitted
 * with the messages of its fields. Without script it is a plain POST; the script checks each field as it
 * is typed with the same validators.
 */
export function RegistrationFormPage(props: RegistrationFormProps) {
  const { site, form } = props;
  const failed = Object.keys(props.errors).length > 0 || props.problems.length > 0;
  return (
    <Layout site={site} title={failed ? `Error: ${form.title}` : form.title} section="request" scripts={FORM_SCRIPTS}>
      <h1>{form.title}</h1>
      <ErrorSummary props={props} />
      {form.kind === 'prefix' ? (
        <p>
          Ask for a new namespace: a prefix for a collection of identifiers and the provider that serves them. To add a
          provider to a namespace that exists, <a href="/resourceregistrationrequest">request a new provider</a>.
        </p>
      ) : (
        <p>
          Ask for another provider of the identifiers of a namespace that exists. For a new collection of identifiers,{' '}
          <a href="/prefixregistrationrequest">request a prefix</a>.
        </p>
      )}
      <p>
        The curators review each request, usually within a few days. After sending it you get the address of its own
        page, where you can follow it and answer the curators.
      </p>
      <form method="post" action={form.path} novalidate class="request-form" data-check={`${form.path}/check`}>
        {/* The form's default button: Enter in a field sends the request rather than looking up a ROR id. */}
        <button type="submit" name="action" value="send" hidden tabIndex={-1}>
          Send the request
        </button>
        <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
        {form.groups.map((group) => (
          <Group key={group.legend} group={group} props={props} />
        ))}
        <datalist id={COUNTRY_LIST}>
          {countries.map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </datalist>
        <button type="submit" name="action" value="send">
          Send the request
        </button>
      </form>
    </Layout>
  );
}
