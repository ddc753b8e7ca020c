import type { ComponentChildren } from 'preact';
import { countries } from '../../../../migrations/data/iso-3166-1.js';
import type { CurationEventRow } from '../../../db/tables.js';
import { FormField } from '../../../web/form-field.js';
import { Layout } from '../../../web/layout.js';
import type { Site } from '../../../web/site.js';
import type { Curator } from '../../model/curator-auth.js';
import { DESK_CSRF_FIELD, DESK_PATH, QUEUE_BOARD_PATH } from '../../model/desk-auth.js';
import type { DeskField } from '../desk-forms.js';

/** Who is signed in, and the token of their forms: what every desk page is rendered with. */
export interface DeskContext {
  site: Site;
  curator: Curator;
  csrf: string;
}

/** `2026-11-24 19:02 UTC`: curators may be anywhere; the records are in UTC. */
export function When({ date }: { date: Date }) {
  const iso = date.toISOString();
  return <time datetime={iso}>{`${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`}</time>;
}

/** How long ago, roughly: `5 minutes`, `3 hours`, `12 days`. */
export function age(from: Date, now = new Date()): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - from.getTime()) / 60_000));
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return plural(hours, 'hour');
  return plural(Math.floor(hours / 24), 'day');
}

export function CsrfField({ desk }: { desk: DeskContext }) {
  return <input type="hidden" name={DESK_CSRF_FIELD} value={desk.csrf} />;
}

export type DeskSection = 'requests' | 'warnings' | 'registry' | 'institutions' | 'none';

// Short labels: with who is signed in, the bar fits one line of a 1280-pixel window.
const DESK_NAV: readonly { section: DeskSection; href: string; label: string }[] = [
  { section: 'requests', href: DESK_PATH, label: 'Requests' },
  { section: 'warnings', href: `${DESK_PATH}/warnings`, label: 'Warnings' },
  { section: 'registry', href: `${DESK_PATH}/registry`, label: 'Registry maintenance' },
  { section: 'institutions', href: `${DESK_PATH}/institutions`, label: 'Institutions' },
  { section: 'none', href: QUEUE_BOARD_PATH, label: 'Queues' },
];

/** The desk's navigation, who is signed in, and sign-out: the header's one bar on every desk page. */
function DeskNavigation({ desk, section }: { desk: DeskContext; section: DeskSection }) {
  return (
    <>
      <nav aria-label="Curator desk">
        <ul>
          {DESK_NAV.map((item) => (
            <li key={item.href}>
              <a href={item.href} aria-current={item.section !== 'none' && item.section === section ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <form method="post" action={`${DESK_PATH}/sign-out`} class="sign-out">
        <CsrfField desk={desk} />
        <span>
          Signed in as <strong>{desk.curator.name}</strong>
          {desk.curator.kind === 'oidc' ? <span class="muted"> ({new URL(desk.curator.issuer ?? 'https://unknown').host})</span> : null}
        </span>{' '}
        <button type="submit" class="secondary">
          Sign out
        </button>
      </form>
    </>
  );
}

/** The desk's pages: the site's layout with the desk's navigation in the header instead of the public one. */
export function DeskFrame({
  desk,
  title,
  section = 'none',
  scripts,
  children,
}: {
  desk: DeskContext;
  title: string;
  section?: DeskSection;
  /** The page's own scripts (public/), which only enhance it. */
  scripts?: readonly string[];
  children: ComponentChildren;
}) {
  return (
    <Layout site={desk.site} title={`${title} · Curator desk`} scripts={scripts} navigation={<DeskNavigation desk={desk} section={section} />}>
      {children}
    </Layout>
  );
}

export function Notice({ text }: { text: string | undefined }) {
  if (!text) return null;
  return (
    <p class="notice-ok" role="status">
      {text}
    </p>
  );
}

/** The problems of a refused form: those of a field link to it. */
export function ErrorSummary({ errors, problems, fieldId }: { errors: Readonly<Record<string, string>>; problems: readonly string[]; fieldId: (name: string) => string }) {
  const fields = Object.entries(errors);
  if (fields.length === 0 && problems.length === 0) return null;
  return (
    <div class="error-summary" tabIndex={-1} role="alert" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">There is a problem</h2>
      <ul>
        {problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
        {fields.map(([name, message]) => (
          <li key={name}>
            <a href={`#${fieldId(name)}`}>{message}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export const COUNTRY_LIST = 'desk-countries';

/** The countries a country field suggests (once per page). */
export function CountryList() {
  return (
    <datalist id={COUNTRY_LIST}>
      {countries.map(([code, name]) => (
        <option key={code} value={code}>
          {name}
        </option>
      ))}
    </datalist>
  );
}

/** A labelled field of a desk form, with its hint and its message (next to it, announced when it changes). */
export function DeskInput({ field, value, error, idPrefix }: { field: DeskField; value: string; error: string | undefined; idPrefix: string }) {
  return (
    <FormField
      id={`${idPrefix}-${field.name}`}
      name={field.name}
      label={field.label}
      input={field.input}
      required={field.required}
      hint={field.hint}
      value={value}
      error={error}
      countryList={COUNTRY_LIST}
      spellcheck={false}
    />
  );
}

/** A short text field of its own (a reason, a successor's prefix), labelled, with its message. */
export function TextBox({
  id,
  name,
  label,
  value = '',
  error,
  hint,
  multiline = false,
  required = false,
}: {
  id: string;
  name: string;
  label: string;
  value?: string;
  error?: string;
  hint?: string;
  multiline?: boolean;
  required?: boolean;
}) {
  return <DeskInput idPrefix={id} field={{ name, label, hint, input: multiline ? 'textarea' : 'text', required }} value={value} error={error} />;
}

// A creation or deletion touches every field: the fields would say nothing the action does not.
const WHOLE_RECORD_ACTION = /\.(create|delete)$/;

function describeChange(event: CurationEventRow): string {
  const fields = Object.keys(event.changes);
  return fields.length === 0 || WHOLE_RECORD_ACTION.test(event.action) ? event.action : `${event.action}: ${fields.join(', ')}`;
}

/** The last changes curators made to a record, with who made them. */
export function ChangeLog({ changes }: { changes: readonly CurationEventRow[] }) {
  return (
    <section aria-labelledby="changes-heading">
      <h2 id="changes-heading">Changes by curators</h2>
      {changes.length === 0 ? (
        <p class="muted">No curator has changed it here yet.</p>
      ) : (
        <ol class="history">
          {changes.map((event) => (
            <li key={event.id}>
              <p>
                <strong>{describeChange(event)}</strong> by {event.actor}
                {event.actorKind === 'oidc' ? <span class="muted"> (signed in as {event.actorSubject})</span> : null}, <When date={event.created} />
              </p>
              {event.additionalInformation ? <p class="muted">{event.additionalInformation}</p> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
