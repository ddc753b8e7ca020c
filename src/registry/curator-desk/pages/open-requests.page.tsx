import type { RequestKind } from '../../registration/submission/registration-records.js';
import { DESK_PATH } from '../desk-auth.js';
import type { OpenRequest, ReviewState } from '../desk.service.js';
import { age, DeskFrame, Notice, When, type DeskContext } from './desk-parts.js';

export function requestHref(kind: RequestKind, sessionId: number): string {
  return `${DESK_PATH}/requests/${kind}/${sessionId}`;
}

/** A review in a few words, for the list and the request's page. */
export function reviewSummary(review: ReviewState): { text: string; tone: 'ok' | 'bad' | 'open' } {
  switch (review.state) {
    case 'valid':
      return { text: 'Passes every check', tone: 'ok' };
    case 'invalid':
      return { text: `${review.failures.length} problem${review.failures.length === 1 ? '' : 's'}`, tone: 'bad' };
    case 'incomplete':
    case 'pending':
      return { text: 'Checks still running', tone: 'open' };
    case 'unchecked':
      return { text: 'Not checked here', tone: 'open' };
  }
}

function lastEventText(request: OpenRequest): string {
  const last = request.lastEvent;
  if (!last) return '—';
  if (last.eventName === 'START') return 'Sent';
  if (last.eventName === 'AMEND') return 'Amended by a curator';
  if (last.eventName === 'COMMENT') return last.byRequester ? 'The requester answered' : 'A curator asked; waiting for the requester';
  return last.eventName;
}

function RequestTable({ kind, requests }: { kind: RequestKind; requests: readonly OpenRequest[] }) {
  const id = `open-${kind}`;
  const heading = kind === 'prefix' ? 'Prefix requests' : 'Provider requests';
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>
        {heading} <span class="muted">({requests.length})</span>
      </h2>
      {requests.length === 0 ? (
        <p class="muted">None open.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{kind === 'prefix' ? 'Prefix' : 'Namespace'}</th>
                <th scope="col">{kind === 'prefix' ? 'Name' : 'Provider'}</th>
                <th scope="col">Requester</th>
                <th scope="col">Age</th>
                <th scope="col">Last event</th>
                <th scope="col">Validation</th>
              </tr>
            </thead>
            <tbody>
              {requests.map((request) => {
                const review = reviewSummary(request.review);
                return (
                  <tr key={request.sessionId}>
                    <td>
                      <a href={requestHref(kind, request.sessionId)}>
                        <code>{request.prefix}</code>
                      </a>
                    </td>
                    <td>{request.title}</td>
                    <td>{request.requesterName}</td>
                    <td>
                      {age(request.created)}
                      <br />
                      <span class="muted">
                        sent <When date={request.created} />
                      </span>
                    </td>
                    <td>{lastEventText(request)}</td>
                    <td class={`verdict-${review.tone}`}>{review.text}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** `/curation`: the open requests of both kinds, oldest first, with their age and validation. */
export function OpenRequestsPage({ desk, requests, notice }: { desk: DeskContext; requests: readonly OpenRequest[]; notice?: string }) {
  return (
    <DeskFrame desk={desk} title="Open requests" section="requests">
      <h1>Open requests</h1>
      <Notice text={notice} />
      <p>Oldest first. A request’s validation is its checks run again now, on the registry as it is.</p>
      <RequestTable kind="prefix" requests={requests.filter((r) => r.kind === 'prefix')} />
      <RequestTable kind="resource" requests={requests.filter((r) => r.kind === 'resource')} />
    </DeskFrame>
  );
}
