/**
 * The curators' HAL shapes of registration sessions, requests and events, as Spring Data REST renders the
 * reference's entities (registry-behaviour.md §1.3): fields in the entities' order, association links, and
 * event lists grouped under each event type's rel.
 */
import { formatReferenceDate } from '../../lib/dates.js';
import { WireRecord } from '../../lib/wire-record.js';
import type { CollectionName, Columns } from '../model/collections.js';
import type { HalItem, HalPresenter, Links } from '../model/hal.presenter.js';
import type { Page } from '../model/page-query.js';
import type {
  EventName,
  EventRow,
  PrefixRequestRow,
  RequestKind,
  RequestRow,
  RequestRowBase,
  ResourceRequestRow,
  SessionRow,
} from '../model/registration-records.js';

export interface CurationNames {
  /** `prefixRegistration` / `resourceRegistration`. */
  stem: string;
  sessions: string;
  requests: string;
  events: string;
  sessionRel: string;
  requestRel: string;
  /** The search listing a session's events, and its parameter. */
  eventsSearch: string;
}

export const CURATION_NAMES: Record<RequestKind, CurationNames> = {
  prefix: {
    stem: 'prefixRegistration',
    sessions: 'prefixRegistrationSessions',
    requests: 'prefixRegistrationRequests',
    events: 'prefixRegistrationSessionEvents',
    sessionRel: 'prefixRegistrationSession',
    requestRel: 'prefixRegistrationRequest',
    eventsSearch: 'findByPrefixRegistrationSessionId',
  },
  resource: {
    stem: 'resourceRegistration',
    sessions: 'resourceRegistrationSessions',
    requests: 'resourceRegistrationRequests',
    events: 'resourceRegistrationSessionEvents',
    sessionRel: 'resourceRegistrationSession',
    requestRel: 'resourceRegistrationRequest',
    eventsSearch: 'findByResourceRegistrationSessionId',
  },
};

// A request's fields in the entity's order; both kinds place the provider, institution and protection
// fields alike among their own.
const PROVIDER_AND_INSTITUTION = [
  'providerHomeUrl', 'providerName', 'providerDescription', 'providerLocation', 'providerCode', 'institutionName',
  'institutionDescription', 'institutionHomeUrl', 'institutionLocation', 'institutionRorId',
] as const satisfies readonly Columns<RequestRowBase>[];
const PROTECTION = [
  'protectedUrls', 'renderProtectedLanding', 'authHelpUrl', 'authHelpDescription',
] as const satisfies readonly Columns<RequestRowBase>[];
export const PREFIX_REQUEST_FIELDS: readonly Columns<PrefixRequestRow>[] = [
  'name', 'description', ...PROVIDER_AND_INSTITUTION, 'requestedPrefix', 'providerUrlPattern', 'sampleId', 'idRegexPattern',
  'supportingReferences', 'additionalInformation', 'requesterName', 'requesterEmail', 'namespaceEmbeddedInLui', 'created',
  ...PROTECTION,
];
export const RESOURCE_REQUEST_FIELDS: readonly Columns<ResourceRequestRow>[] = [
  'namespacePrefix', ...PROVIDER_AND_INSTITUTION, 'providerUrlPattern', 'sampleId', 'additionalInformation', 'requesterName',
  'requesterEmail', 'created', ...PROTECTION,
];
const REQUEST_RECORDS = {
  prefix: new WireRecord(PREFIX_REQUEST_FIELDS, [...PREFIX_REQUEST_FIELDS, '_links']),
  resource: new WireRecord(RESOURCE_REQUEST_FIELDS, [...RESOURCE_REQUEST_FIELDS, '_links']),
};

const EVENT_TYPE: Record<EventName, string> = { START: 'Start', AMEND: 'Amend', COMMENT: 'Comment', REJECT: 'Reject', ACCEPT: 'Accept' };

/** The rel of one event type, e.g. `prefixRegistrationSessionEventStart`; its collection adds an `s`. */
export function eventRel(kind: RequestKind, eventName: EventName): string {
  return `${CURATION_NAMES[kind].stem}SessionEvent${EVENT_TYPE[eventName]}`;
}

export class CurationPresenter {
  constructor(private readonly hal: HalPresenter) {}

  private href(path: string): string {
    return `${this.hal.api}/${path}`;
  }

  session(kind: RequestKind, row: SessionRow): HalItem {
    const names = CURATION_NAMES[kind];
    const self = this.href(`${names.sessions}/${row.id}`);
    return {
      closed: row.closed,
      created: formatReferenceDate(row.created),
      _links: {
        self: { href: self },
        [names.sessionRel]: { href: self },
        [names.requestRel]: { href: `${self}/${names.requestRel}` },
      },
    };
  }

  request(kind: RequestKind, row: RequestRow): HalItem {
    const names = CURATION_NAMES[kind];
    const self = this.href(`${names.requests}/${row.id}`);
    const links: Links = { self: { href: self }, [names.requestRel]: { href: self } };
    const record =
      kind === 'prefix' ? REQUEST_RECORDS.prefix.present(row as PrefixRequestRow) : REQUEST_RECORDS.resource.present(row as ResourceRequestRow);
    return Object.assign(record, { _links: links });
  }

  event(kind: RequestKind, row: EventRow): HalItem {
    const names = CURATION_NAMES[kind];
    const rel = eventRel(kind, row.eventName);
    const self = this.href(`${rel}s/${row.id}`);
    const fields: Record<string, unknown> = {
      eventName: row.eventName,
      actor: row.actor,
      additionalInformation: row.additionalInformation,
      created: formatReferenceDate(row.created),
    };
    if (row.eventName === 'COMMENT') fields.comment = row.comment;
    if (row.eventName === 'REJECT') fields.rejectionReason = row.rejectionReason;
    if (row.eventName === 'ACCEPT') fields.acceptanceReason = row.acceptanceReason;
    // Associations point at their targets directly (the reference's /{event}/{association} sub-resources
    // would only lead there).
    const links: Links = {
      self: { href: self },
      [rel]: { href: self },
      [names.sessionRel]: { href: this.href(`${names.sessions}/${row.sessionId}`) },
    };
    if (row.requestId !== null) links[names.requestRel] = { href: this.href(`${names.requests}/${row.requestId}`) };
    return { ...fields, _links: links };
  }

  /** A session's events, grouped under each type's collection rel in order of first appearance. */
  events(kind: RequestKind, rows: readonly EventRow[], selfHref: string): { _embedded: Record<string, HalItem[]>; _links: Links } {
    const embedded: Record<string, HalItem[]> = {};
    for (const row of rows) {
      const key = `${eventRel(kind, row.eventName)}s`;
      (embedded[key] ??= []).push(this.event(kind, row));
    }
    return { _embedded: embedded, _links: { self: { href: selfHref } } };
  }

  /** A page of open sessions, with the rest-api's paging links. */
  openSessions(kind: RequestKind, page: Page<SessionRow>, selfHref: string) {
    const names = CURATION_NAMES[kind];
    // HalPresenter.page names its collections by the browse API's four; the shape is the same for these.
    return this.hal.page(names.sessions as CollectionName, page, (row) => this.session(kind, row), {
      path: `/${names.sessions}/search/findByClosedFalse`,
      selfHref,
    });
  }
}

