import { formFields, REQUEST_FORMS, type FieldGroup, type FormField, type FormValues } from '../../model/registration-fields.js';
import { ExternalLink, LinkedText } from '../../../web/links.js';
import { namespaceHref } from '../../../web/search-box.js';
import type { EventRow } from '../../model/registration-records.js';
import type { DeskField, DeskInput as DeskInputKind } from '../desk-forms.js';
import type { RequestView } from '../desk.service.js';
import { requestHref, reviewSummary } from './open-requests.page.js';
import { deskInstitutionHref } from './registry-desk.page.js';
import type { InstitutionDifference } from '../../model/requested-institution.js';
import { age, CountryList, CsrfField, DeskFrame, DeskInput, ErrorSummary, Notice, TextBox, When, type DeskContext } from './desk-parts.js';

export type RequestAction = 'comment' | 'reject' | 'accept' | 'amend';

/** A refused action: which form, what was typed, and why. */
export interface RefusedAction {
  action: RequestAction;
  /** The text typed (comment, reason), or the amendment's values. */
  text?: string;
  values?: FormValues;
  errors: Record<string, string>;
  problems: string[];
}

const STATE_LABEL = { open: 'Open', accepted: 'Accepted', rejected: 'Rejected' } as const;

// The request forms speak to the requester; the desk speaks about them.
const RELABEL: Readonly<Record<string, string>> = {
  requesterName: 'Requester’s name',
  requesterEmail: 'Requester’s e-mail address',
  additionalInformation: 'Additional information from the requester (optional)',
};

function deskLabel(field: FormField): string {
  return RELABEL[field.name] ?? field.label;
}

function deskInputOf(field: FormField): DeskInputKind {
  return field.input === 'email' ? 'text' : field.input;
}

function asDeskField(field: FormField): DeskField {
  return { name: field.name, label: deskLabel(field), input: deskInputOf(field), required: field.required };
}

const legendOf = (group: FieldGroup) => (group.legend === 'You' ? 'Requester' : group.legend);

function eventHeading(event: EventRow): string {
  switch (event.eventName) {
    case 'START':
      return 'Sent';
    case 'AMEND':
      return `Amended by ${event.actor}`;
    case 'COMMENT':
      return event.actor === 'REQUESTER' ? 'The requester answered' : `Comment by ${event.actor}`;
    case 'REJECT':
      return `Rejected by ${event.actor}`;
    case 'ACCEPT':
      return `Accepted by ${event.actor}`;
  }
}

function eventText(event: EventRow): string | null {
  if (event.eventName === 'AMEND' || event.eventName === 'START') return null;
  return event.comment ?? event.rejectionReason ?? event.acceptanceReason;
}

/** A field's value as the desk shows it: its web addresses as links, but for the URL pattern (a template, not a page). */
function FieldValue({ field, value }: { field: FormField; value: string }) {
  if (field.input === 'checkbox') return <>{value === 'on' ? 'Yes' : 'No'}</>;
  if (value === '') return <span class="muted">—</span>;
  if (field.name === 'providerUrlPattern') return <code>{value}</code>;
  return <LinkedText text={value} />;
}

function Facts({ view }: { view: RequestView }) {
  const form = REQUEST_FORMS[view.kind];
  return (
    <section aria-labelledby="request-heading">
      <h2 id="request-heading">The request</h2>
      {form.groups.map((group) => (
        <div key={group.legend}>
          <h3>{legendOf(group)}</h3>
          {/* One label width for every group, so that the values of all groups start in one column. */}
          <dl class="facts aligned">
            {group.fields.map((field) => [
              <dt key={`${field.name}-t`}>{deskLabel(field).replace(/ \(optional\)$/, '')}</dt>,
              <dd key={`${field.name}-d`} class={field.input === 'textarea' ? 'lines' : undefined}>
                <FieldValue field={field} value={view.values[field.name] ?? ''} />
              </dd>,
            ])}
          </dl>
        </div>
      ))}
    </section>
  );
}

/** Issue 15 item 6: the requested prefix is already another registry's; a warning, not a refusal. */
function PrefixWarnings({ warnings }: { warnings: readonly string[] }) {
  return (
    <section aria-labelledby="prefix-warnings-heading" class="notice-warn">
      <h2 id="prefix-warnings-heading">Prefix used elsewhere</h2>
      <p>The requested prefix is already used by another registry. Check that it means the same thing before accepting.</p>
      <ul>
        {warnings.map((warning) => (
          <li key={warning}>{warning}</li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Issue 21 item 3: acceptance uses the registry's institution as it is; the curator sees where the request
 * says otherwise, and changes the institution by hand when the request is right.
 */
function InstitutionNotice({ difference }: { difference: InstitutionDifference }) {
  const { institution, matchedBy, requestedName, requestedRorId } = difference;
  const link = <a href={deskInstitutionHref(institution.id)}>{institution.name}</a>;
  return (
    <section aria-labelledby="institution-difference-heading" class="notice-warn">
      <h2 id="institution-difference-heading">Institution differs from the registry’s</h2>
      {matchedBy === 'name' ? (
        <p>
          The request gives the ROR id <code>{requestedRorId}</code> for “{requestedName}”; the registry’s institution {link} has{' '}
          {institution.rorId ? (
            <>
              the ROR id <code>{institution.rorId}</code>
            </>
          ) : (
            'no ROR id'
          )}
          .
        </p>
      ) : (
        <p>
          The request’s ROR id <code>{requestedRorId}</code> is that of the registry’s institution {link}, not of “{requestedName}”.
        </p>
      )}
      <p>Accepting the request uses the registry’s institution as it is. If the request is right, change the institution on its page first.</p>
    </section>
  );
}

function Review({ view }: { view: RequestView }) {
  const { review } = view;
  const summary = reviewSummary(review);
  const labels = new Map(formFields(REQUEST_FORMS[view.kind]).map((f) => [f.name, deskLabel(f)]));
  return (
    <section aria-labelledby="review-heading">
      <h2 id="review-heading">Validation</h2>
      <p class={`verdict-${summary.tone}`}>
        <strong>{summary.text}</strong>
        {review.state === 'incomplete' ? '. Reload the page in a few seconds for the verdicts.' : '.'}
      </p>
      {review.state === 'invalid' ? (
        <ul>
          {review.failures.map((failure) => (
            <li key={failure.field + failure.message}>
              <strong>{labels.get(failure.field) ?? failure.field}:</strong> {failure.message}
            </li>
          ))}
        </ul>
      ) : null}
      {'urlChecks' in review && review.urlChecks.length > 0 ? (
        <>
          <h3>URL checks</h3>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Verdict</th>
                </tr>
              </thead>
              <tbody>
                {review.urlChecks.map((check) => (
                  <tr key={check.url}>
                    <td>
                      <ExternalLink href={check.url}>
                        <code>{check.url}</code>
                      </ExternalLink>
                    </td>
                    <td class={check.verdict === 'works' ? 'verdict-ok' : check.verdict === 'fails' ? 'verdict-bad' : 'verdict-open'}>
                      {check.verdict === 'works' ? 'Works' : check.verdict === 'fails' ? check.message : 'Not answered yet'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </section>
  );
}

function History({ events }: { events: readonly EventRow[] }) {
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      <ol class="history">
        {events.map((event) => {
          const text = eventText(event);
          return (
            <li key={event.id} class={event.actor === 'REQUESTER' ? 'by-requester' : undefined}>
              <p>
                <strong>{eventHeading(event)}</strong> <span class="muted">{<When date={event.created} />}</span>
              </p>
              {text ? (
                <blockquote>
                  <LinkedText text={text} />
                </blockquote>
              ) : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function ActionForm({
  desk,
  view,
  action,
  refused,
  label,
  hint,
  button,
  required,
}: {
  desk: DeskContext;
  view: RequestView;
  action: Exclude<RequestAction, 'amend'>;
  refused?: RefusedAction;
  label: string;
  hint?: string;
  button: string;
  required: boolean;
}) {
  const mine = refused?.action === action ? refused : undefined;
  return (
    <form method="post" action={`${requestHref(view.kind, view.session.id)}/${action}`} class="desk-action" novalidate>
      <CsrfField desk={desk} />
      <TextBox id={action} name="text" label={label} hint={hint} multiline required={required} value={mine?.text ?? ''} error={mine?.errors.text} />
      <button type="submit" class={action === 'reject' ? 'danger' : undefined}>
        {button}
      </button>
    </form>
  );
}

function AmendForm({ desk, view, refused }: { desk: DeskContext; view: RequestView; refused?: RefusedAction }) {
  const mine = refused?.action === 'amend' ? refused : undefined;
  const values = mine?.values ?? view.values;
  const form = REQUEST_FORMS[view.kind];
  return (
    <details open={mine !== undefined}>
      <summary>Amend the request</summary>
      <form method="post" action={`${requestHref(view.kind, view.session.id)}/amend`} class="request-form" novalidate>
        <CsrfField desk={desk} />
        <p class="hint">The amended request is checked as a new request would be, and replaces the current version.</p>
        {form.groups.map((group) => (
          <fieldset key={group.legend}>
            <legend>{legendOf(group)}</legend>
            {group.fields.map((field) => (
              <DeskInput key={field.name} idPrefix="amend" field={asDeskField(field)} value={values[field.name] ?? ''} error={mine?.errors[field.name]} />
            ))}
          </fieldset>
        ))}
        <TextBox id="amend" name="note" label="Note for the history (optional)" multiline value={mine?.text ?? ''} />
        <CountryList />
        <button type="submit">Amend the request</button>
      </form>
    </details>
  );
}

/** `/curation/requests/{kind}/{sessionId}`: one request, its checks and history, and the curator's actions. */
export function DeskRequestPage({ desk, view, notice, refused }: { desk: DeskContext; view: RequestView; notice?: string; refused?: RefusedAction }) {
  const kindText = view.kind === 'prefix' ? 'Prefix request' : 'Provider request';
  const prefix = view.values[view.kind === 'prefix' ? 'requestedPrefix' : 'namespacePrefix'] ?? '';
  const title = `${kindText} “${prefix}”`;
  const idPrefix = refused?.action === 'amend' ? 'amend' : (refused?.action ?? 'comment');
  return (
    <DeskFrame desk={desk} title={`${refused ? 'Error: ' : ''}${title}`} section="requests">
      <h1>{title}</h1>
      <Notice text={notice} />
      {refused ? <ErrorSummary errors={refused.errors} problems={refused.problems} fieldId={(name) => `${idPrefix}-${name}`} /> : null}
      <dl class="facts aligned">
        <dt>State</dt>
        <dd>
          <strong class={`state-${view.status}`}>{STATE_LABEL[view.status]}</strong>
          {view.status === 'accepted' ? (
            <>
              {'. '}
              <a href={namespaceHref(prefix)}>See the namespace page of {prefix}</a>.
            </>
          ) : null}
        </dd>
        <dt>Sent</dt>
        <dd>
          <When date={view.session.created} /> ({age(view.session.created)} ago)
        </dd>
        <dt>Requester’s page</dt>
        <dd>
          <a href={`/requests/${encodeURIComponent(view.session.token)}`}>The requester’s status page</a>
        </dd>
      </dl>
      {view.prefixWarnings.length > 0 ? <PrefixWarnings warnings={view.prefixWarnings} /> : null}
      {view.institutionDifference ? <InstitutionNotice difference={view.institutionDifference} /> : null}
      {view.status === 'open' ? <Review view={view} /> : null}
      <Facts view={view} />
      <History events={view.events} />
      {view.status === 'open' ? (
        <section aria-labelledby="actions-heading">
          <h2 id="actions-heading">Actions</h2>
          <div class="cards">
            <ActionForm desk={desk} view={view} action="comment" refused={refused} label="Comment to the requester" hint="The requester reads it on their page and by e-mail." button="Send the comment" required />
            <ActionForm desk={desk} view={view} action="accept" refused={refused} label="Reason for accepting (optional)" button="Accept the request" required={false} />
            <ActionForm desk={desk} view={view} action="reject" refused={refused} label="Reason for rejecting" hint="Sent to the requester." button="Reject the request" required />
          </div>
          <AmendForm desk={desk} view={view} refused={refused} />
        </section>
      ) : null}
    </DeskFrame>
  );
}
