/**
 * What the curator desk reads and does, through the services the JSON APIs use: the curation actions
 * (comment, reject, accept, amend: curation-actions.ts), the registration validator (the review of a
 * request, the amendment's checks by field) and the maintenance service (edits, successor, deactivation),
 * with the desk's own reads of the open requests and the records it edits.
 */
import { DomainError } from '../../core/domain-error.js';
import { statusOfDomainError } from '../../http/error-translator.js';
import type { Db } from '../../db/knex.js';
import type { CurationEventRow, InstitutionRow, NamespaceRow, ResourceRow } from '../../db/tables.js';
import { AMENDED_FIELD, CurationError, readSessionEventPayload, type CurationActions } from '../model/curation-operations.js';
import type { Curator } from '../model/curator-auth.js';
import { requestedInstitutionDifference, type InstitutionDifference } from '../model/requested-institution.js';
import type { PrefixCollisionCheck } from '../model/collision-warnings.js';
import { completeNamespaceRows } from '../model/namespace-synonyms.js';
import type { EditableCollection, RecordMaintenance } from '../model/record-maintenance.js';
import { messagesByField, payloadFromForm, REQUEST_FORMS, type FormValues } from '../model/registration-fields.js';
import { ChecksIncompleteError, type RequestReview, type RequestValidation } from '../model/request-validation.js';
import {
  prefixOf,
  REGISTRATION_TABLES,
  statusFromEvents,
  type EventRow,
  type RequestKind,
  type RequestRow,
  type SessionRow,
  type SessionStatus,
} from '../model/registration-records.js';
import { InvalidPayloadError, normaliseRegistrationPayload } from '../model/registration-payload.js';
import type { NamespaceSearch, SearchResult } from '../model/namespace-search.service.js';
import { patchFromRecordForm, placeEditRefusal, recordFormValues, requestFormValues, type FormProblems } from './desk-forms.js';

/** How long the list of open requests waits for the reviews (their checks go on, and answer the next load). */
const LIST_REVIEW_WAIT_MS = 2000;
/**
 * Open requests listed per kind and page, oldest first: each listed request is reviewed (its checks run
 * again), so a page costs at most this many reviews however many requests wait.
 */
export const DESK_PAGE_SIZE = 20;

/** A request's validation as the desk shows it: a review, one not finished in time, or none (no checks here). */
export type ReviewState = RequestReview | { state: 'pending' } | { state: 'unchecked' };

export interface OpenRequest {
  kind: RequestKind;
  sessionId: number;
  prefix: string;
  /** The namespace's name (prefix requests) or the provider's (provider requests). */
  title: string;
  requesterName: string;
  created: Date;
  modified: Date;
  /** The last event: who spoke last (a curator's question waits for the requester). */
  lastEvent: { eventName: EventRow['eventName']; byRequester: boolean; created: Date } | undefined;
  review: ReviewState;
}

/** One page of the open requests of a kind (`page` from 0, within the pages there are). */
export interface OpenRequestPage {
  kind: RequestKind;
  page: number;
  pages: number;
  total: number;
  requests: OpenRequest[];
}

/** The page of each kind's list to show, from 0. */
export type OpenRequestPages = Readonly<Record<RequestKind, number>>;

export interface RequestView {
  kind: RequestKind;
  session: SessionRow;
  request: RequestRow;
  /** The request as the amendment form's values. */
  values: FormValues;
  events: EventRow[];
  status: SessionStatus;
  review: ReviewState;
  /** Prefix requests: other registries that already use the requested prefix (issue 15 item 6), one sentence each. */
  prefixWarnings: string[];
  /** Open requests: where the registry's institution that acceptance would use differs from the request's. */
  institutionDifference?: InstitutionDifference;
}

export interface NamespaceView {
  namespace: NamespaceRow;
  successor: Pick<NamespaceRow, 'id' | 'prefix'> | undefined;
  resources: (ResourceRow & { institutionName: string })[];
  changes: CurationEventRow[];
}

export interface ResourceView {
  resource: ResourceRow;
  namespace: Pick<NamespaceRow, 'id' | 'prefix' | 'name'>;
  institution: Pick<InstitutionRow, 'id' | 'name'>;
  changes: CurationEventRow[];
}

export interface InstitutionView {
  institution: InstitutionRow;
  resources: (Pick<ResourceRow, 'id' | 'name' | 'mirId'> & { prefix: string })[];
  changes: CurationEventRow[];
}

/** The outcome of a form the desk checks before acting: done, or the messages to show with the form. */
export type FormOutcome = { ok: true } | ({ ok: false; status: number } & FormProblems);

export interface DeskServiceDeps {
  db: Db;
  curation: CurationActions;
  maintenance: RecordMaintenance;
  search: NamespaceSearch;
  /** Absent when the registration checks are not configured: requests are shown unchecked, amendments refused. */
  validator?: RequestValidation;
  publicRegistryUrl: string;
  /** Other registries' uses of a requested prefix; none are shown without it. */
  prefixCollisions?: PrefixCollisionCheck;
}

const REQUESTER_ACTORS = new Set(['ANONYMOUS', 'REQUESTER']);
const CHANGES_SHOWN = 20;

function withDeadline<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export class DeskService {
  constructor(private readonly deps: DeskServiceDeps) {}

  /** Whether amendments and reviews can be checked here. */
  get checksConfigured(): boolean {
    return this.deps.validator !== undefined;
  }

  private async review(kind: RequestKind, values: FormValues): Promise<ReviewState> {
    if (!this.deps.validator) return { state: 'unchecked' };
    try {
      const payload = normaliseRegistrationPayload(payloadFromForm(REQUEST_FORMS[kind], values) as Record<string, unknown>);
      return await this.deps.validator.reviewRequest(kind, payload);
    } catch (error) {
      // A stored request that no longer reads as a payload (an old import) is still reviewable by hand.
      if (error instanceof InvalidPayloadError) return { state: 'invalid', failures: [{ field: 'institutionRorId', message: error.message }], urlChecks: [] };
      throw error;
    }
  }

  /**
   * A page of the open requests of each kind, oldest first, each with its last event and (within a bound)
   * its review. A page past the last shows the last.
   */
  async openRequests(pages: OpenRequestPages): Promise<OpenRequestPage[]> {
    return Promise.all((['prefix', 'resource'] as const).map((kind) => this.openRequestsOf(kind, pages[kind])));
  }

  private async openRequestsOf(kind: RequestKind, wanted: number): Promise<OpenRequestPage> {
    const { db } = this.deps;
    const tables = REGISTRATION_TABLES[kind];
    const counted = await db(tables.sessions).count({ n: '*' }).where({ closed: false }).first();
    const total = Number(counted?.n ?? 0);
    const pages = Math.max(1, Math.ceil(total / DESK_PAGE_SIZE));
    const page = Math.min(wanted, pages - 1);
    const sessions: SessionRow[] = await db(tables.sessions)
      .select('*')
      .where({ closed: false })
      .orderBy('created')
      .orderBy('id')
      .limit(DESK_PAGE_SIZE)
      .offset(page * DESK_PAGE_SIZE);
    return { kind, page, pages, total, requests: await this.listed(kind, sessions) };
  }

  private async listed(kind: RequestKind, sessions: readonly SessionRow[]): Promise<OpenRequest[]> {
    if (sessions.length === 0) return [];
    const { db } = this.deps;
    const tables = REGISTRATION_TABLES[kind];
    const [requests, events] = await Promise.all([
      db(tables.requests).select('*').whereIn('id', sessions.map((s) => s.requestId)),
      db(tables.events).select('sessionId', 'eventName', 'actor', 'created').whereIn('sessionId', sessions.map((s) => s.id)).orderBy('id'),
    ]);
    const requestById = new Map(requests.map((r) => [r.id, r as RequestRow]));
    const lastBySession = new Map<number, Pick<EventRow, 'eventName' | 'actor' | 'created'>>();
    for (const event of events as Pick<EventRow, 'sessionId' | 'eventName' | 'actor' | 'created'>[]) lastBySession.set(event.sessionId, event);
    return Promise.all(
      sessions.map(async (session) => {
        const request = requestById.get(session.requestId)!;
        const last = lastBySession.get(session.id);
        const review = await withDeadline(this.review(kind, requestFormValues(kind, request)), LIST_REVIEW_WAIT_MS, { state: 'pending' } as ReviewState);
        return {
          kind,
          sessionId: session.id,
          prefix: prefixOf(request),
          title: 'name' in request && typeof request.name === 'string' ? request.name : request.providerName,
          requesterName: request.requesterName,
          created: session.created,
          modified: session.modified,
          lastEvent: last && { eventName: last.eventName, byRequester: REQUESTER_ACTORS.has(last.actor), created: last.created },
          review,
        };
      }),
    );
  }

  /** One request: its current version, history and review; undefined when the session does not exist. */
  async request(kind: RequestKind, sessionId: number): Promise<RequestView | undefined> {
    const session = await this.deps.curation.findSession(kind, sessionId);
    if (!session) return undefined;
    const [request, events] = await Promise.all([this.deps.curation.findRequest(kind, session.requestId), this.deps.curation.listSessionEvents(kind, session.id)]);
    const values = requestFormValues(kind, request!);
    const status = statusFromEvents(events);
    const review = status === 'open' ? await this.review(kind, values) : ({ state: 'unchecked' } as const);
    const requested = 'requestedPrefix' in request! ? request.requestedPrefix : null;
    const prefixWarnings = requested && this.deps.prefixCollisions ? await this.deps.prefixCollisions(requested) : [];
    const institutionDifference = status === 'open' ? await requestedInstitutionDifference(this.deps.db, request!) : undefined;
    return { kind, session, request: request!, values, events, status, review, prefixWarnings, institutionDifference };
  }

  /** Comment, reject or accept, as the curator; CurationError (400, 409) when refused. */
  async act(curator: Curator, kind: RequestKind, sessionId: number, operation: 'comment' | 'reject' | 'accept', text: string): Promise<void> {
    const field = operation === 'comment' ? 'comment' : operation === 'reject' ? 'rejectionReason' : 'acceptanceReason';
    await this.deps.curation.run(kind, operation, sessionId, readSessionEventPayload({ [field]: text }, curator));
  }

  /**
   * Amends a request with the form's values: checked field by field first (the messages go next to the
   * fields), then stored through the same amendment as the API's (which checks it again, on current answers).
   */
  async amend(curator: Curator, kind: RequestKind, sessionId: number, values: FormValues, note: string): Promise<FormOutcome> {
    const { validator } = this.deps;
    if (!validator) return { ok: false, status: 503, errors: {}, problems: ['Amendments cannot be checked here (the registration checks are not configured).'] };
    const form = REQUEST_FORMS[kind];
    const raw = payloadFromForm(form, values);
    try {
      const failures = await validator.validateRequestByField(kind, normaliseRegistrationPayload(raw as Record<string, unknown>));
      if (failures.length > 0) {
        const plain = failures.map((f) => ({ ...f, message: validator.plainMessage(kind, f.message) }));
        const errors = messagesByField(form, plain);
        const placed = new Set(Object.values(errors));
        return { ok: false, status: 422, errors, problems: plain.map((f) => f.message).filter((m) => !placed.has(m)) };
      }
      await this.deps.curation.run(kind, 'amend', sessionId, readSessionEventPayload({ [AMENDED_FIELD[kind]]: raw, additionalInformation: note }, curator));
      return { ok: true };
    } catch (error) {
      if (error instanceof InvalidPayloadError) return { ok: false, status: 422, errors: {}, problems: [error.message] };
      if (error instanceof ChecksIncompleteError) {
        return { ok: false, status: 503, errors: {}, problems: ['The checks of the amended request did not all answer yet; send it again in a few seconds.'] };
      }
      if (error instanceof CurationError && error.kind !== 'unavailable') return { ok: false, status: statusOfDomainError(error), errors: {}, problems: [error.message] };
      throw error;
    }
  }

  findNamespaces(text: string): Promise<SearchResult> {
    return this.deps.search.search(text, 0, 50);
  }

  private changesOf(entity: CurationEventRow['entity'], id: number): Promise<CurationEventRow[]> {
    return this.deps.db('curation_events').select('*').where({ entity, entityId: id }).orderBy('id', 'desc').limit(CHANGES_SHOWN);
  }

  async namespace(prefix: string): Promise<NamespaceView | undefined> {
    const { db } = this.deps;
    const namespace = await db('namespaces').first('*').whereRaw('lower(prefix) = lower(?)', [prefix.slice(0, 255)]);
    if (!namespace) return undefined;
    // The edit form shows its synonyms, which are no column.
    await completeNamespaceRows(db, [namespace]);
    const [successor, resources, changes] = await Promise.all([
      namespace.successorId === null ? undefined : db('namespaces').first('id', 'prefix').where({ id: namespace.successorId }),
      db('resources')
        .join('institutions', 'institutions.id', 'resources.institutionId')
        .select('resources.*', 'institutions.name as institutionName')
        .where('resources.namespaceId', namespace.id)
        .orderBy('resources.mirId') as Promise<(ResourceRow & { institutionName: string })[]>,
      this.changesOf('namespace', namespace.id),
    ]);
    return { namespace, successor, resources, changes };
  }

  async namespaceById(id: number): Promise<NamespaceView | undefined> {
    const found = await this.deps.db('namespaces').first('prefix').where({ id });
    return found && this.namespace(found.prefix);
  }

  async resource(id: number): Promise<ResourceView | undefined> {
    const { db } = this.deps;
    const resource = await db('resources').first('*').where({ id });
    if (!resource) return undefined;
    const [namespace, institution, changes] = await Promise.all([
      db('namespaces').first('id', 'prefix', 'name').where({ id: resource.namespaceId }),
      db('institutions').first('id', 'name').where({ id: resource.institutionId }),
      this.changesOf('resource', id),
    ]);
    return { resource, namespace: namespace!, institution: institution!, changes };
  }

  async institution(id: number): Promise<InstitutionView | undefined> {
    const { db } = this.deps;
    const institution = await db('institutions').first('*').where({ id });
    if (!institution) return undefined;
    const [resources, changes] = await Promise.all([
      db('resources')
        .join('namespaces', 'namespaces.id', 'resources.namespaceId')
        .select('resources.id', 'resources.name', 'resources.mirId', 'namespaces.prefix')
        .where('resources.institutionId', id)
        .orderBy('namespaces.prefix') as Promise<(Pick<ResourceRow, 'id' | 'name' | 'mirId'> & { prefix: string })[]>,
      this.changesOf('institution', id),
    ]);
    return { institution, resources, changes };
  }

  /** A record's edit form values. */
  formValues(collection: EditableCollection, row: NamespaceRow | ResourceRow | InstitutionRow): FormValues {
    return recordFormValues(collection, row);
  }

  /**
   * Edits a record with its form's values, as the maintenance API's PATCH does; `modified` is the record's
   * as the form showed it (a change made since refuses the edit). The refusals come back placed by field.
   */
  async edit(curator: Curator, collection: EditableCollection, id: number, values: FormValues, modified: string, client: string): Promise<FormOutcome> {
    const expected = new Date(modified);
    if (Number.isNaN(expected.getTime())) return { ok: false, status: 400, errors: {}, problems: ['The form is incomplete; reload the page and edit again.'] };
    if (values.location !== undefined && values.location.trim() === '') return { ok: false, status: 422, errors: { location: 'Country is required' }, problems: [] };
    const patch = patchFromRecordForm(collection, values, this.deps.publicRegistryUrl);
    return this.refusalsAsForm(collection, () => this.deps.maintenance.edit(curator, collection, String(id), patch, client, expected));
  }

  /** Sets (or, with a blank prefix, clears) a namespace's successor, named by its prefix. */
  async setSuccessor(curator: Curator, id: number, successorPrefix: string, modified: string, client: string): Promise<FormOutcome> {
    const expected = new Date(modified);
    const prefix = successorPrefix.trim();
    if (prefix === '') {
      return this.refusalsAsForm('namespaces', () =>
        this.deps.maintenance.edit(curator, 'namespaces', String(id), { fields: {}, associations: { successor: null } }, client, expected),
      );
    }
    const successor = await this.deps.db('namespaces').first('id').whereRaw('lower(prefix) = lower(?)', [prefix.slice(0, 255)]);
    if (!successor) return { ok: false, status: 422, errors: { successor: `No namespace has the prefix '${prefix.slice(0, 100)}'` }, problems: [] };
    const href = `${this.deps.publicRegistryUrl}/restApi/namespaces/${successor.id}`;
    return this.refusalsAsForm('namespaces', () => this.deps.maintenance.setSuccessor(curator, String(id), [href], client, expected));
  }

  /** A refused edit's messages in the plain words of the request form that has the record's fields. */
  private plainly(collection: EditableCollection): (message: string) => string {
    const kind: RequestKind = collection === 'resources' ? 'resource' : 'prefix';
    return (message) => this.deps.validator?.plainMessage(kind, message) ?? message;
  }

  private async refusalsAsForm(collection: EditableCollection, change: () => Promise<unknown>): Promise<FormOutcome> {
    try {
      await change();
      return { ok: true };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.kind === 'not-found') throw error;
      if (error.kind === 'invalid') return { ok: false, status: 422, ...placeEditRefusal(collection, error, this.plainly(collection)) };
      if (error.kind === 'conflict') return { ok: false, status: 409, errors: {}, problems: [error.message] };
      throw error;
    }
  }

  /**
   * Deletes an institution no provider uses (logged with the curator by the maintenance service). While
   * providers use it the deletion is refused as a conflict (409), saying how many.
   */
  async deleteInstitution(curator: Curator, id: number): Promise<FormOutcome> {
    try {
      await this.deps.maintenance.deleteInstitution(curator, String(id));
      return { ok: true };
    } catch (error) {
      if (!(error instanceof DomainError) || error.kind === 'not-found') throw error;
      if (error.kind !== 'invalid' && error.kind !== 'conflict') throw error;
      const counted = await this.deps.db('resources').count({ n: '*' }).where({ institutionId: id }).first();
      const providers = Number(counted?.n ?? 0);
      return {
        ok: false,
        status: 409,
        errors: {},
        problems: [`The institution cannot be deleted: ${providers} provider${providers === 1 ? ' uses' : 's use'} it. Give ${providers === 1 ? 'it' : 'them'} another institution first.`],
      };
    }
  }

  /** Deactivates or reactivates a namespace or resource: the report, or the refusal as a problem of the page. */
  async lifecycle(
    curator: Curator,
    target: 'namespace' | 'resource',
    change: 'deactivate' | 'reactivate',
    id: number,
    client: string,
    urlPattern?: string,
  ): Promise<FormOutcome & { report?: string }> {
    const { maintenance } = this.deps;
    const rawId = String(id);
    try {
      const report =
        target === 'namespace'
          ? change === 'deactivate'
            ? await maintenance.deactivateNamespace(curator, rawId)
            : await maintenance.reactivateNamespace(curator, rawId)
          : change === 'deactivate'
            ? await maintenance.deactivateResource(curator, rawId)
            : await maintenance.reactivateResource(curator, rawId, urlPattern === undefined || urlPattern.trim() === '' ? null : urlPattern.trim(), client);
      return { ok: true, report };
    } catch (error) {
      if (!(error instanceof DomainError) || error.kind === 'not-found') throw error;
      if (error.kind === 'invalid') {
        const placed = placeEditRefusal('resources', error, this.plainly('resources'));
        // The reactivation form's one field is the URL pattern.
        return { ok: false, status: 422, errors: placed.errors.urlPattern ? { reactivateUrlPattern: placed.errors.urlPattern } : {}, problems: placed.problems };
      }
      if (error.kind === 'conflict') return { ok: false, status: 409, errors: {}, problems: [error.message] };
      throw error;
    }
  }
}

