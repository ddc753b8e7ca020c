import { Fragment, type ComponentChildren } from 'preact';
import { countries } from '../../../../migrations/data/iso-3166-1.js';
import { fieldLabel } from '../../model/registration-fields.js';
import { CSRF_FIELD } from '../../../web/csrf.js';
import { Layout } from '../../../web/layout.js';
import type { Site } from '../../../web/site.js';
import type { PublicEvent, RegistrationStatus } from '../submission/submission.service.js';
import { namespaceHref } from '../../../web/search-box.js';

const STATE: Record<RegistrationStatus['status'], { label: string; explanation: string }> = {
  open: { label: 'Under review', explanation: 'The curators have not decided on the request yet.' },
  accepted: { label: 'Accepted', explanation: 'The request was accepted and is in the registry.' },
  rejected: { label: 'Rejected', explanation: 'The curators rejected the request.' },
};

/** `2026-11-24 19:02 UTC`: the requester may be anywhere, and the curators' records are in UTC. */
function when(date: Date) {
  const iso = date.toISOString();
  return <time datetime={iso}>{`${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`}</time>;
}

function eventHeading(event: PublicEvent): string {
  switch (event.eventName) {
    case 'START':
      return 'Request sent';
    case 'AMEND':
      return 'The curators amended the request';
    case 'COMMENT':
      return event.author === 'requester' ? 'Your answer' : 'Comment from the curators';
    case 'REJECT':
      return 'Rejected';
    case 'ACCEPT':
      return 'Accepted';
  }
}

function eventText(event: PublicEvent): string | null | undefined {
  return event.comment ?? event.rejectionReason ?? event.acceptanceReason;
}

const COUNTRY_NAMES: ReadonlyMap<string, string> = new Map(countries);

/** `GB (United Kingdom)`: the code as sent, and the country it stands for. */
function country(code: string): string {
  const name = COUNTRY_NAMES.get(code.toUpperCase());
  return name ? `${code} (${name})` : code;
}

/** Yes or no, for a ticked or empty box. */
const yesNo = (ticked: boolean) => (ticked ? 'Yes' : 'No');

/**
 * What the request says (its current version, with the curators' amendments), under the labels of the form it
 * was sent with: so that the requester can check it, and spot a mistake the curators would ask about.
 */
function sentFacts(status: RegistrationStatus): [string, ComponentChildren][] {
  const { kind, request } = status;
  const label = (name: string) => fieldLabel(kind, name);
  const code = (text: string) => <code>{text}</code>;
  const facts: [string, ComponentChildren][] = [];
  if (kind === 'prefix') {
    facts.push(
      [label('requestedPrefix'), code(status.prefix)],
      [label('name'), request.name],
      [label('idRegexPattern'), code(request.idRegexPattern ?? '')],
      [label('namespaceEmbeddedInLui'), yesNo(request.namespaceEmbeddedInLui)],
    );
  } else {
    facts.push([label('namespacePrefix'), code(status.prefix)]);
  }
  // The address the sample identifier's page is at, as the registry's checks build it.
  const samplePage = request.providerUrlPattern.replaceAll('{$id}', request.sampleId);
  facts.push(
    [label('sampleId'), code(request.sampleId)],
    [label('providerName'), request.providerName],
    [label('providerCode'), code(request.providerCode)],
    [label('providerHomeUrl'), code(request.providerHomeUrl)],
    [label('providerUrlPattern'), code(request.providerUrlPattern)],
    ['The sample identifier’s page', code(samplePage)],
    [label('providerLocation'), country(request.providerLocation)],
    [label('institutionName'), request.institutionName],
    [label('institutionHomeUrl'), code(request.institutionHomeUrl)],
    [label('institutionLocation'), country(request.institutionLocation)],
    ['Requester', `${request.requesterName} (${request.maskedRequesterEmail})`],
  );
  return facts;
}

export interface RequestStatusProps {
  site: Site;
  token: string;
  status: RegistrationStatus;
  csrf: string;
  /** The reply as typed when it was refused, with the reason. */
  reply?: { value: string; error: string };
  /** A line at the top: just sent, answer recorded. */
  notice?: string;
}

/**
 * `/requests/{token}`: the requester's page of a request (the token is its only key, so the page is for
 * whoever holds the address): its state, its history with the curators' comments, and a form to answer
 * them while the request is open. The requester's e-mail address is shown masked only.
 */
export function RequestStatusPage({ site, token, status, csrf, reply, notice }: RequestStatusProps) {
  const state = STATE[status.status];
  const what = status.kind === 'prefix' ? `prefix “${status.prefix}”` : `a provider of “${status.prefix}”`;
  const replyId = 'reply-comment';
  return (
    <Layout site={site} title={`${reply ? 'Error: ' : ''}Request for ${what}`} section="none">
      <h1>Request for {what}</h1>
      {notice ? (
        <p class="notice-ok" role="status">
          {notice}
        </p>
      ) : null}
      {reply ? (
        <div class="error-summary" tabIndex={-1} aria-labelledby="error-summary-title" data-error-summary="">
          <h2 id="error-summary-title">There is a problem</h2>
          <ul>
            <li>
              <a href={`#${replyId}`}>{reply.error}</a>
            </li>
          </ul>
        </div>
      ) : null}
      <p class="muted">Keep this page’s address to yourself: whoever has it can read the request and answer for you.</p>
      <dl class="facts">
        <dt>State</dt>
        <dd>
          <strong class={`state-${status.status}`}>{state.label}</strong>. {state.explanation}
          {status.status === 'accepted' ? (
            <>
              {' '}
              <a href={namespaceHref(status.prefix)}>See the namespace {status.prefix}</a>.
            </>
          ) : null}
        </dd>
        <dt>Sent</dt>
        <dd>{when(status.created)}</dd>
      </dl>

      <h2 id="sent">What was sent</h2>
      <dl class="facts">
        {sentFacts(status).map(([label, value]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
      </dl>

      <h2 id="history">History</h2>
      <ol class="history">
        {status.events.map((event, i) => {
          const text = eventText(event);
          return (
            <li key={i} class={event.author === 'requester' ? 'by-requester' : undefined}>
              <p>
                <strong>{eventHeading(event)}</strong> <span class="muted">{when(event.created)}</span>
              </p>
              {text ? <blockquote>{text}</blockquote> : null}
            </li>
          );
        })}
      </ol>

      {status.status === 'open' ? (
        <section aria-labelledby="reply-heading">
          <h2 id="reply-heading">Answer the curators</h2>
          <form method="post" action={`/requests/${encodeURIComponent(token)}/comment`} novalidate>
            <input type="hidden" name={CSRF_FIELD} value={csrf} />
            <div class={`form-field${reply ? ' has-error' : ''}`}>
              <label for={replyId}>Your answer or more information</label>
              <p class="hint" id={`${replyId}-hint`}>
                The curators read it with the request. Never send a password.
              </p>
              <p class="field-message problem" id={`${replyId}-msg`} aria-live="polite">
                {reply?.error ?? ''}
              </p>
              <textarea
                id={replyId}
                name="comment"
                rows={5}
                required
                aria-describedby={`${replyId}-hint ${replyId}-msg`}
                aria-invalid={reply ? 'true' : undefined}
              >
                {reply?.value ?? ''}
              </textarea>
            </div>
            <button type="submit">Send the answer</button>
          </form>
        </section>
      ) : null}
    </Layout>
  );
}
