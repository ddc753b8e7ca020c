import type { RequestKind } from '../../model/registration-records.js';
import { DESK_PATH } from '../../model/desk-auth.js';
import type { OpenRequest, OpenRequestPage, OpenRequestPages, ReviewState } from '../desk.service.js';
import { PageNavigation } from '../../../web/prev-next-links.js';
import { age, DeskFrame, Notice, When, type DeskContext } from './desk-parts.js';

export function requestHref(kind: RequestKind, sessionId: number): string {
  return `${DESK_PATH}/requests/${kind}/${sessionId}`;
}

/** The query parameter of each kind's page (from 0) on the desk's home. */
export const PAGE_PARAMETER: Readonly<Record<RequestKind, string>> = { prefix: 'prefixPage', resource: 'resourcePage' };

/** The desk's home showing these pages of the two lists. */
function openRequestsHref(pages: OpenRequestPages): string {
  const params = new URLSearchParams();
  for (const kind of ['prefix', 'resource'] as const) if (pages[kind] > 0) params.set(PAGE_PARAMETER[kind], String(pages[kind]));
  const query = params.toString();
  return query ? `${DESK_PATH}?${query}` : DESK_PATH;
}

/** Previous and next links of one list, the other list staying on its page. */
function Pager({ list, shown }: { list: OpenRequestPage; shown: OpenRequestPages }) {
  const to = (page: number) => openRequestsHref({ ...shown, [list.kind]: page });
  const label = list.kind === 'prefix' ? 'Pages of prefix requests' : 'Pages of provider requests';
  return <PageNavigation label={label} page={list.page} pages={list.pages} href={to} />;
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

function RequestTable({ list, shown }: { list: OpenRequestPage; shown: OpenRequestPages }) {
  const { kind, requests } = list;
  const id = `open-${kind}`;
  const heading = kind === 'prefix' ? 'Prefix requests' : 'Provider requests';
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>
        {heading} <span class="muted">({list.total})</span>
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
      <Pager list={list} shown={shown} />
    </section>
  );
}

/** `/curation`: the open requests of both kinds, oldest first, with their age and validation, a page of each. */
export function OpenRequestsPage({ desk, lists, notice }: { desk: DeskContext; lists: readonly OpenRequestPage[]; notice?: string }) {
  const shown = Object.fromEntries(lists.map((list) => [list.kind, list.page])) as Record<RequestKind, number>;
  return (
    <DeskFrame desk={desk} title="Open requests" section="requests">
      <h1>Open requests</h1>
      <Notice text={notice} />
      <p>Oldest first. A request’s validation is its checks run again now, on the registry as it is.</p>
      {lists.map((list) => (
        <RequestTable key={list.kind} list={list} shown={shown} />
      ))}
    </DeskFrame>
  );
}
