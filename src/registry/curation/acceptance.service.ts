/**
 * Acceptance (registry-behaviour.md §2.7-2.8): in ONE transaction, the registry entries the session's
 * current request asks for (each logged in curation_events as created by the curator), the ACCEPT event,
 * the closed session and the requester's notification. Anything
 * that makes the request impossible now (the prefix taken meanwhile, a provider code clash, a location the
 * registry lacks) rolls everything back and is answered 409 with the reason.
 *
 * Unlike the reference: institutions are matched by ROR id and then by name whatever its case
 * (model/requested-institution.ts); an institution found is never changed (its ROR id stays as the curators left it;
 * the desk shows them the difference), and a new one keeps the requested ROR id; MIR ids come from a Postgres sequence kept above every MIR id in the
 * registry (no MIR id service). The registry tables' triggers announce the change (NOTIFY), so the resolver
 * serves the new namespace within moments and the workers rebuild the dataset.
 */
import type { Knex } from 'knex';
import type { Db } from '../../db/knex.js';
import type { CurationEntity, FieldChange, InstitutionRow, NamespaceRow, ResourceRow } from '../../db/tables.js';
import { findNamespaceByPrefixIgnoringCase, providerCodeTaken } from '../../db/registry-reads.js';
import {
  insertEvent,
  prefixOf,
  REGISTRATION_TABLES,
  type PrefixRequestRow,
  type RequestKind,
  type RequestRow,
  type ResourceRequestRow,
} from '../model/registration-records.js';
import { hasText } from '../model/registration-payload.js';
import { CurationError, type SessionEventPayload } from '../model/curation-operations.js';
import { recordCurationEvent } from '../model/curation-log.js';
import type { Curator } from '../model/curator-auth.js';
import { lockOpenSession } from './curation.service.js';
import { findRequestedInstitution, requestedRorId } from '../model/requested-institution.js';
import { writeOutbox } from '../../notifications/outbox.js';
import { acceptanceMessages, type NotificationSettings } from '../model/notification-messages.js';

export interface AcceptanceResult {
  namespaceId: number;
  /** Present when the acceptance created the namespace (prefix requests). */
  namespaceMirId?: string;
  resourceId: number;
  resourceMirId: string;
  institutionId: number;
  personId: number;
}

/** Why the request cannot be accepted now; becomes the 409's message. */
class AcceptanceRefused extends Error {}

// Serialises MIR minting (see mintMirIds); any constant that no other advisory lock of the database uses.
const MIR_LOCK_KEY = 7_302_851_467;

/** `MIR:00000066` from 66. */
export function formatMirId(value: number): string {
  return `MIR:${String(value).padStart(8, '0')}`;
}

/**
 * The next `count` MIR ids. The sequence is first moved past the highest MIR id in the registry (imported
 * or curated rows may be ahead of it). The transaction-scoped advisory lock keeps a concurrent acceptance
 * from setting the sequence back between this one's setval and nextval; ids of a rolled-back acceptance are
 * not reused, as with the reference's MIR service.
 */
async function mintMirIds(trx: Knex, count: number): Promise<string[]> {
  await trx.raw('SELECT pg_advisory_xact_lock(?)', [MIR_LOCK_KEY]);
  await trx.raw(`
    SELECT setval('mir_ids', GREATEST(
      (SELECT last_value FROM mir_ids),
      (SELECT COALESCE(MAX(substring(mir_id FROM '^MIR:([0-9]{1,15})$')::bigint), 0)
         FROM (SELECT mir_id FROM namespaces UNION ALL SELECT mir_id FROM resources) AS existing)))`);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { rows } = await trx.raw<{ rows: { value: string | number }[] }>("SELECT nextval('mir_ids') AS value");
    ids.push(formatMirId(Number(rows[0]!.value)));
  }
  return ids;
}

async function requireLocation(trx: Knex, code: string): Promise<string> {
  const upper = code.toUpperCase();
  const found = await trx('locations').first('countryCode').where({ countryCode: upper });
  if (!found) throw new AcceptanceRefused(`Location '${upper}' is not one of the registry's locations`);
  return upper;
}

async function findOrCreatePerson(trx: Knex, email: string, fullName: string): Promise<number> {
  const inserted = await trx('persons').insert({ email, fullName }).onConflict('email').ignore().returning('id');
  if (inserted[0]) return inserted[0].id;
  // Nothing inserted: the e-mail is taken by the row read here.
  const existing = await trx('persons').first('id').where({ email });
  return existing!.id;
}

/**
 * The institution of the request: the one with its ROR id, else the one with its name (whatever the case),
 * left as it is (curators keep it current, ROR id included), else a new one with the request's data.
 */
async function findOrCreateInstitution(trx: Knex, request: RequestRow, locationCode: string): Promise<{ id: number; created?: InstitutionRow }> {
  const found = await findRequestedInstitution(trx, request);
  if (found) return { id: found.institution.id };
  const [created] = await trx('institutions')
    .insert({
      name: request.institutionName.trim(),
      homeUrl: request.institutionHomeUrl,
      description: request.institutionDescription,
      rorId: requestedRorId(request),
      locationCountryCode: locationCode,
    })
    .returning('*');
  return { id: created!.id, created };
}

/** A provider code never equals a prefix, whatever the case (`{code}/{prefix}:{id}` must stay unambiguous). */
async function refuseCodeEqualToPrefix(trx: Knex, providerCode: string): Promise<void> {
  if (!hasText(providerCode)) return;
  if (await findNamespaceByPrefixIgnoringCase(trx, providerCode)) {
    throw new AcceptanceRefused(`Provider codes must be DIFFERENT from existing prefixes! Namespace '${providerCode}' exists.`);
  }
}

function resourceColumns(request: RequestRow) {
  return {
    urlPattern: request.providerUrlPattern,
    name: request.providerName,
    description: request.providerDescription,
    providerCode: request.providerCode,
    sampleId: request.sampleId,
    resourceHomeUrl: request.providerHomeUrl,
    protectedUrls: request.protectedUrls,
    renderProtectedLanding: request.renderProtectedLanding,
    authHelpUrl: request.authHelpUrl,
    authHelpDescription: request.authHelpDescription,
  };
}

/** The records an acceptance created, for the curation log. */
interface CreatedRecords {
  result: AcceptanceResult;
  namespace?: NamespaceRow;
  resource: ResourceRow;
  institution?: InstitutionRow;
}

async function createNamespace(trx: Knex, request: PrefixRequestRow): Promise<CreatedRecords> {
  if (await findNamespaceByPrefixIgnoringCase(trx, request.requestedPrefix)) {
    throw new AcceptanceRefused(`CANNOT register namespace '${request.requestedPrefix}', because IT IS ALREADY REGISTERED`);
  }
  await refuseCodeEqualToPrefix(trx, request.providerCode);
  const providerLocation = await requireLocation(trx, request.providerLocation);
  const institutionLocation = await requireLocation(trx, request.institutionLocation);
  // The resource's id first, then the namespace's, as the reference mints them.
  const [resourceMirId, namespaceMirId] = (await mintMirIds(trx, 2)) as [string, string];
  const personId = await findOrCreatePerson(trx, request.requesterEmail, request.requesterName);
  const institution = await findOrCreateInstitution(trx, request, institutionLocation);
  const [namespace] = await trx('namespaces')
    .insert({
      prefix: request.requestedPrefix,
      mirId: namespaceMirId,
      name: request.name,
      pattern: request.idRegexPattern,
      description: request.description,
      sampleId: request.sampleId,
      namespaceEmbeddedInLui: request.namespaceEmbeddedInLui,
      contactPersonId: personId,
    })
    .returning('*');
  const [resource] = await trx('resources')
    .insert({
      ...resourceColumns(request),
      mirId: resourceMirId,
      official: true,
      namespaceId: namespace!.id,
      institutionId: institution.id,
      locationCountryCode: providerLocation,
      contactPersonId: personId,
    })
    .returning('*');
  return {
    result: { namespaceId: namespace!.id, namespaceMirId, resourceId: resource!.id, resourceMirId, institutionId: institution.id, personId },
    namespace,
    resource: resource!,
    institution: institution.created,
  };
}

async function appendResource(trx: Knex, request: ResourceRequestRow): Promise<CreatedRecords> {
  // Locked: two acceptances for one namespace check provider codes one after the other.
  const namespace = await findNamespaceByPrefixIgnoringCase(trx, request.namespacePrefix, { forUpdate: true });
  if (!namespace) {
    throw new AcceptanceRefused(`Namespace '${request.namespacePrefix}' NOT FOUND!!! When appending resource with name '${request.providerName}'`);
  }
  if (namespace.deprecated) throw new AcceptanceRefused(`Prefix '${namespace.prefix}' is DEPRECATED, new resources are not allowed`);
  await refuseCodeEqualToPrefix(trx, request.providerCode);
  if (hasText(request.providerCode)) {
    if (await providerCodeTaken(trx, namespace.id, request.providerCode)) {
      throw new AcceptanceRefused(
        `Namespace '${namespace.prefix}', CANNOT REGISTER resource '${request.providerName}' with provider code '${request.providerCode}', because that PROVIDER CODE ALREADY EXISTS`,
      );
    }
  }
  const providerLocation = await requireLocation(trx, request.providerLocation);
  const institutionLocation = await requireLocation(trx, request.institutionLocation);
  const [resourceMirId] = (await mintMirIds(trx, 1)) as [string];
  const personId = await findOrCreatePerson(trx, request.requesterEmail, request.requesterName);
  const institution = await findOrCreateInstitution(trx, request, institutionLocation);
  const [resource] = await trx('resources')
    .insert({
      ...resourceColumns(request),
      mirId: resourceMirId,
      official: false,
      namespaceId: namespace.id,
      institutionId: institution.id,
      locationCountryCode: providerLocation,
      contactPersonId: personId,
    })
    .returning('*');
  return {
    result: { namespaceId: namespace.id, resourceId: resource!.id, resourceMirId, institutionId: institution.id, personId },
    resource: resource!,
    institution: institution.created,
  };
}

// Columns a new record's log entry leaves out: its key and timestamps say nothing a curator chose.
const UNLOGGED_COLUMNS = new Set(['id', 'created', 'modified']);

/** A new record's fields as a change from nothing. */
function creationChanges(row: object): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const [column, value] of Object.entries(row)) {
    if (!UNLOGGED_COLUMNS.has(column)) changes[column] = { from: null, to: value instanceof Date ? value.toISOString() : (value ?? null) };
  }
  return changes;
}

/**
 * The records an acceptance created, each logged as created by the accepting curator, so that a new
 * namespace's (or provider's, or institution's) changes start with the acceptance that made it.
 */
async function logCreatedRecords(trx: Knex, curator: Curator, kind: RequestKind, sessionId: number, reason: string, created: CreatedRecords): Promise<void> {
  const additionalInformation = `Created by accepting ${kind} registration request ${sessionId}: ${reason}`;
  const log = (action: string, entity: CurationEntity, row: { id: number }, label: string) =>
    recordCurationEvent(trx, curator, { action, entity, entityId: row.id, entityLabel: label, changes: creationChanges(row), additionalInformation });
  if (created.namespace) await log('namespace.create', 'namespace', created.namespace, created.namespace.prefix);
  await log('resource.create', 'resource', created.resource, created.resource.mirId);
  if (created.institution) await log('institution.create', 'institution', created.institution, created.institution.name);
}

/** The reference's wording of a failed acceptance, with the cause. */
function refusalMessage(kind: RequestKind, reason: string, prefix: string, cause: string): string {
  return kind === 'prefix'
    ? `While accepting a prefix registration request, with reason '${reason}', for prefix '${prefix}', the following error occurred: 'Prefix registration request ACCEPTANCE COULD NOT BE COMPLETED for prefix '${prefix}' due to the following error '${cause}''`
    : `While accepting a resource registration request, with reason '${reason}', for namespace '${prefix}', the following error occurred: 'Resource registration request ACCEPTANCE COULD NOT BE COMPLETED for namespace '${prefix}' due to the following error '${cause}''`;
}

interface PgError {
  code?: string;
  constraint?: string;
}

/** A unique index hit by a concurrent write between our checks and our insert. */
function concurrentClash(error: unknown, request: RequestRow): string | undefined {
  const { code, constraint } = error as PgError;
  if (code !== '23505') return undefined;
  if (constraint === 'namespaces_prefix_lower_unique') {
    return `CANNOT register namespace '${prefixOf(request)}', because IT IS ALREADY REGISTERED`;
  }
  return `a concurrent change to the registry conflicts with this request (${constraint ?? 'unique constraint'}); please try again`;
}

export async function acceptSession(
  db: Db,
  kind: RequestKind,
  sessionId: number,
  payload: SessionEventPayload,
  notifications: NotificationSettings,
): Promise<AcceptanceResult> {
  const reason = payload.text('acceptanceReason');
  let current: RequestRow | undefined;
  try {
    return await db.transaction(async (trx) => {
      const { session, request } = await lockOpenSession(trx, kind, 'accept', sessionId);
      current = request;
      const created = kind === 'prefix' ? await createNamespace(trx, request as PrefixRequestRow) : await appendResource(trx, request as ResourceRequestRow);
      await logCreatedRecords(trx, payload.curator, kind, session.id, reason, created);
      await insertEvent(trx, kind, {
        sessionId: session.id,
        requestId: request.id,
        eventName: 'ACCEPT',
        actor: payload.actor,
        additionalInformation: payload.text('additionalInformation'),
        acceptanceReason: reason,
      });
      await trx(REGISTRATION_TABLES[kind].sessions).update({ closed: true, modified: trx.fn.now() }).where({ id: session.id });
      await writeOutbox(trx, acceptanceMessages(kind, request, reason, notifications));
      return created.result;
    });
  } catch (error) {
    if (!current) throw error;
    const cause = error instanceof AcceptanceRefused ? error.message : concurrentClash(error, current);
    if (cause === undefined) throw error;
    throw new CurationError('conflict', refusalMessage(kind, reason, prefixOf(current), cause));
  }
}
