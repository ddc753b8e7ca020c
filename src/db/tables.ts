/**
 * One row type per table, as the knex instance returns rows (camelCase keys, see snake-case-mappers.ts) and
 * as the migrations define the columns: bigint ids and counts come back as numbers and calendar days as
 * 'YYYY-MM-DD' strings (db/knex.ts sets those parsers), timestamps as Dates, jsonb parsed. The registry's
 * records take their fields from core/registry-records.ts.
 *
 * Declared to knex below, so that `db('namespaces').first('id', 'prefix')` is typed without a cast. Tables
 * are named as in SQL; a query that joins under aliases states its row type where it selects.
 */
import type { Knex } from 'knex';
import type { LINK_CHECK_OUTCOMES } from '../../migrations/20261124000100_create_link_checks.js';
import type { InstitutionRecord, LocationRecord, NamespaceRecord, ResourceRecord } from '../core/registry-records.js';
import type { LuiRules } from '../core/lui-rules.js';

export interface LocationRow extends LocationRecord {
  created: Date;
}

export interface PersonRow {
  id: number;
  fullName: string;
  email: string;
  created: Date;
  modified: Date;
}

export interface InstitutionRow extends InstitutionRecord {
  locationCountryCode: string;
  created: Date;
  modified: Date;
}

export interface NamespaceRow extends NamespaceRecord<Date> {
  successorId: number | null;
  contactPersonId: number | null;
  /** Canonical-LUI rules (core/lui-rules.ts); null: derived from the pattern when the resolver loads it. */
  luiRules: LuiRules | null;
  /** Suffix passthrough (core/lui-suffix.ts); false by default. */
  suffixPassthrough: boolean;
}

export interface ResourceRow extends ResourceRecord<Date> {
  namespaceId: number;
  institutionId: number;
  locationCountryCode: string;
  contactPersonId: number | null;
  created: Date;
  modified: Date;
}

export interface RegistryChangeRow {
  version: number;
  entity: 'namespace' | 'institution' | 'location';
  entityId: string;
  /** xid8, which pg hands over as text. */
  txid: string;
  changedAt: Date;
  /** What the change feed shows (migration add_registry_change_details); null in rows logged before it. */
  operation: 'INSERT' | 'UPDATE' | 'DELETE' | null;
  sourceTable: 'namespaces' | 'resources' | 'institutions' | 'locations' | null;
  recordId: string | null;
  prefix: string | null;
}

export interface ServiceSettingRow {
  name: string;
  value: string;
  created: Date;
}

export type DatasetBuildStatus = 'running' | 'succeeded' | 'failed' | 'skipped';

export interface DatasetBuildRow {
  id: number;
  startedAt: Date;
  finishedAt: Date | null;
  status: DatasetBuildStatus;
  reason: string;
  registryVersion: number | null;
  namespaceCount: number | null;
  resourceCount: number | null;
  bytes: number | null;
  error: string | null;
  worker: string;
}

export interface UsageDailyRow {
  day: string;
  prefix: string;
  visits: number;
  uniqueVisitors: number;
  visitorsHll: Buffer | null;
  rolledUpAt: Date;
}

/** The columns both kinds of registration request share. */
export interface RequestRowBase {
  id: number;
  providerHomeUrl: string;
  providerName: string;
  providerDescription: string;
  providerLocation: string;
  providerCode: string;
  providerUrlPattern: string;
  sampleId: string;
  institutionName: string;
  institutionDescription: string;
  institutionHomeUrl: string;
  institutionLocation: string;
  institutionRorId: string | null;
  additionalInformation: string | null;
  requesterName: string;
  requesterEmail: string;
  protectedUrls: boolean;
  renderProtectedLanding: boolean;
  authHelpUrl: string | null;
  authHelpDescription: string | null;
  created: Date;
}

/** prefix_registration_requests. */
export interface PrefixRequestRow extends RequestRowBase {
  requestedPrefix: string;
  name: string;
  description: string;
  idRegexPattern: string;
  supportingReferences: string[];
  namespaceEmbeddedInLui: boolean;
}

/** resource_registration_requests. */
export interface ResourceRequestRow extends RequestRowBase {
  namespacePrefix: string;
}

/** prefix_registration_sessions and resource_registration_sessions. */
export interface SessionRow {
  id: number;
  token: string;
  closed: boolean;
  requestId: number;
  created: Date;
  modified: Date;
}

export type EventName = 'START' | 'AMEND' | 'COMMENT' | 'REJECT' | 'ACCEPT';

/** prefix_registration_session_events and resource_registration_session_events. */
export interface EventRow {
  id: number;
  sessionId: number;
  requestId: number | null;
  eventName: EventName;
  actor: string;
  additionalInformation: string | null;
  comment: string | null;
  rejectionReason: string | null;
  acceptanceReason: string | null;
  created: Date;
}

export interface IdempotencyKeyRow {
  endpoint: string;
  key: string;
  requestHash: string;
  responseStatus: number;
  responseContentType: string;
  responseBody: string;
  created: Date;
}

/** notification_outbox. */
export interface OutboxRow {
  id: number;
  kind: string;
  recipient: string;
  subject: string;
  body: string;
  created: Date;
  sentAt: Date | null;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date;
}

/** Any column may be written as SQL (`db.fn.now()`). */
type Writable<Values> = { [Column in keyof Values]: Values[Column] | Knex.Raw };

/** What an insert must give: every column but those with a default (or generated), which it may give. */
type Insertable<Row, Defaulted extends keyof Row> = Writable<Omit<Row, Defaulted> & Partial<Pick<Row, Defaulted>>>;

type Table<Row, Defaulted extends keyof Row> = Knex.CompositeTableType<Row, Insertable<Row, Defaulted>, Partial<Writable<Row>>>;

type Stamped = 'created' | 'modified';

type RequestDefaults = 'id' | 'created' | 'protectedUrls' | 'renderProtectedLanding';

/** A prefix request as inserted: jsonb columns take their JSON text (pg would send an array as a Postgres array). */
export type PrefixRequestInsert = Omit<Insertable<PrefixRequestRow, RequestDefaults>, 'supportingReferences'> & { supportingReferences: string };

export type ResourceRequestInsert = Insertable<ResourceRequestRow, RequestDefaults>;

/**
 * What a link check found (issue 12): `up`; `protected` (401/403 on a resource with protectedUrls, counted
 * as up); `http_error` (4xx/5xx not classed below); `not_found` (404/410); `timeout`; `dns`; `tls`;
 * `refused` (connection refused or reset); `bot_blocked` (403/429/503 with a challenge page or a
 * cf-mitigated header: counted neither way); `redirect_loop` (a loop, or more than 5 hops); `skipped` (not
 * checked: a URL the safe fetcher refuses, or no sample id to fill the pattern with).
 */
export type LinkCheckOutcome = (typeof LINK_CHECK_OUTCOMES)[number];
export type LinkCheckUrlKind = 'sample' | 'home';

/** link_check_runs: one planned run of checks (the schedule's, or npm run linkcheck's). */
export interface LinkCheckRunRow {
  id: string;
  prefix: string | null;
  planned: number;
  done: number;
  startedAt: Date;
  finishedAt: Date | null;
}

/** link_checks: one check of one URL of a resource. */
export interface LinkCheckRow {
  id: number;
  resourceId: number;
  urlKind: LinkCheckUrlKind;
  url: string;
  runId: string | null;
  checkedAt: Date;
  httpStatus: number | null;
  latencyMs: number | null;
  finalUrl: string | null;
  outcome: LinkCheckOutcome;
  detail: string | null;
}

/** Who made a curation change: the curator token's holder, or a person signed in with OpenID Connect. */
export type CuratorKind = 'token' | 'oidc';

export type CurationEntity = 'namespace' | 'resource' | 'institution';

/** One field a curation change touched: its value before and after, as JSON. */
export interface FieldChange {
  from: unknown;
  to: unknown;
}

/** curation_events: one change a curator made to the registry. */
export interface CurationEventRow {
  id: number;
  action: string;
  entity: CurationEntity;
  entityId: number;
  entityLabel: string;
  actor: string;
  actorKind: CuratorKind;
  actorIssuer: string | null;
  actorSubject: string | null;
  changes: Record<string, FieldChange>;
  additionalInformation: string | null;
  created: Date;
}

/** curator_sessions: one signed-in curator of the desk (the cookie's value is known by its hash only). */
export interface CuratorSessionRow {
  idHash: string;
  curatorName: string;
  curatorKind: CuratorKind;
  curatorIssuer: string | null;
  curatorSubject: string | null;
  csrfToken: string;
  created: Date;
  expiresAt: Date;
}

/** curator_sign_ins: an OpenID Connect sign-in between the redirect to the provider and its return. */
export interface CuratorSignInRow {
  stateHash: string;
  codeVerifier: string;
  nonce: string;
  created: Date;
  expiresAt: Date;
}

export type CurationWarningEventType = 'CREATED' | 'REOPENED' | 'SOLVED' | 'DISABLED';

/** curation_warnings: what a registry validator reported about one namespace, resource or institution. */
export interface CurationWarningRow {
  id: number;
  globalId: string;
  type: string;
  namespaceId: number | null;
  resourceId: number | null;
  institutionId: number | null;
  open: boolean;
  details: { label: string; value: string }[];
  created: Date;
  modified: Date;
  lastNotification: Date | null;
}

/** curation_warning_events: the history of a warning. */
export interface CurationWarningEventRow {
  id: number;
  warningId: number;
  type: CurationWarningEventType;
  actor: string;
  created: Date;
}

/** Another name a namespace answers to (migrations: create_namespace_synonyms). */
export interface NamespaceSynonymRow {
  id: number;
  namespaceId: number;
  synonym: string;
  created: Date;
}

/** A prefix of another registry, as a curator loaded it (migrations: create_reference_prefixes). */
export interface ReferencePrefixRow {
  id: number;
  source: string;
  prefix: string;
  name: string;
  loaded: Date;
}

declare module 'knex/types/tables.js' {
  interface Tables {
    locations: Table<LocationRow, 'created'>;
    persons: Table<PersonRow, 'id' | Stamped>;
    institutions: Table<InstitutionRow, 'id' | Stamped | 'rorId'>;
    namespaces: Table<
      NamespaceRow,
      | 'id'
      | Stamped
      | 'namespaceEmbeddedInLui'
      | 'deprecated'
      | 'deprecationDate'
      | 'deprecationOfflineDate'
      | 'renderDeprecatedLanding'
      | 'deprecationStatement'
      | 'infoOnPostmortemAccess'
      | 'successorId'
      | 'contactPersonId'
      | 'luiRules'
      | 'suffixPassthrough'
    >;
    resources: Table<
      ResourceRow,
      | 'id'
      | Stamped
      | 'description'
      | 'official'
      | 'providerCode'
      | 'sampleId'
      | 'contactPersonId'
      | 'deprecated'
      | 'deprecationDate'
      | 'deprecationOfflineDate'
      | 'renderDeprecatedLanding'
      | 'deprecationStatement'
      | 'protectedUrls'
      | 'renderProtectedLanding'
      | 'authHelpUrl'
      | 'authHelpDescription'
    >;
    registry_changes: Table<RegistryChangeRow, 'version' | 'txid' | 'changedAt' | 'operation' | 'sourceTable' | 'recordId' | 'prefix'>;
    service_settings: Table<ServiceSettingRow, 'created'>;
    dataset_builds: Table<
      DatasetBuildRow,
      'id' | 'startedAt' | 'finishedAt' | 'status' | 'registryVersion' | 'namespaceCount' | 'resourceCount' | 'bytes' | 'error'
    >;
    usage_daily: Table<UsageDailyRow, 'visitorsHll' | 'rolledUpAt'>;
    prefix_registration_requests: Knex.CompositeTableType<PrefixRequestRow, PrefixRequestInsert, Partial<PrefixRequestInsert>>;
    resource_registration_requests: Table<ResourceRequestRow, RequestDefaults>;
    prefix_registration_sessions: Table<SessionRow, 'id' | Stamped | 'closed'>;
    resource_registration_sessions: Table<SessionRow, 'id' | Stamped | 'closed'>;
    prefix_registration_session_events: Table<EventRow, 'id' | 'created' | 'comment' | 'rejectionReason' | 'acceptanceReason'>;
    resource_registration_session_events: Table<EventRow, 'id' | 'created' | 'comment' | 'rejectionReason' | 'acceptanceReason'>;
    idempotency_keys: Table<IdempotencyKeyRow, 'created' | 'responseContentType'>;
    notification_outbox: Table<OutboxRow, 'id' | 'created' | 'sentAt' | 'attempts' | 'lastError' | 'nextAttemptAt'>;
    link_check_runs: Table<LinkCheckRunRow, 'prefix' | 'planned' | 'done' | 'startedAt' | 'finishedAt'>;
    link_checks: Table<LinkCheckRow, 'id' | 'runId' | 'checkedAt' | 'httpStatus' | 'latencyMs' | 'finalUrl' | 'detail'>;
    // jsonb columns take their JSON text on insert (pg would send an array as a Postgres array).
    curation_events: Knex.CompositeTableType<
      CurationEventRow,
      Insertable<Omit<CurationEventRow, 'changes'> & { changes: string }, 'id' | 'created' | 'actorIssuer' | 'actorSubject' | 'additionalInformation'>
    >;
    curation_warnings: Knex.CompositeTableType<
      CurationWarningRow,
      Insertable<Omit<CurationWarningRow, 'details'> & { details: string }, 'id' | Stamped | 'open' | 'lastNotification' | 'namespaceId' | 'resourceId' | 'institutionId'>,
      Partial<Writable<Omit<CurationWarningRow, 'details'> & { details: string }>>
    >;
    curation_warning_events: Table<CurationWarningEventRow, 'id' | 'created'>;
    curator_sessions: Table<CuratorSessionRow, 'created' | 'curatorIssuer' | 'curatorSubject'>;
    curator_sign_ins: Table<CuratorSignInRow, 'created'>;
    namespace_synonyms: Table<NamespaceSynonymRow, 'id' | 'created'>;
    reference_prefixes: Table<ReferencePrefixRow, 'id' | 'name' | 'loaded'>;
  }
}
