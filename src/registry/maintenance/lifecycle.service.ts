/**
 * Lifecycle management of the registry (registry-behaviour.md §5.3 "Lifecycle management"): deactivating
 * and reactivating namespaces and resources, and deleting an institution nothing uses, with the reference's
 * messages. Each operation is one transaction that locks the row, changes it and logs the change with the
 * curator; refusals are DomainErrors (not-found, invalid) whose message is the reference's report.
 *
 * Unlike the reference: a resource's new URL pattern is checked as a resource request's (the reference took
 * anything, and a missing one failed with a database error; here it keeps its pattern), and reactivating a
 * resource does not reset renderProtectedLanding (the reference's slip for renderDeprecatedLanding, which
 * it resets as well).
 */
import type { Knex } from 'knex';
import { DomainError, invalid, notFound } from '../../core/domain-error.js';
import type { Db } from '../../db/knex.js';
import type { FieldChange, InstitutionRow, NamespaceRow, ResourceRow } from '../../db/tables.js';
import type { Curator } from '../model/curator-auth.js';
import { parseId } from '../model/query-values.js';
import { changesBetween, recordCurationEvent } from '../model/curation-log.js';
import { checkReactivationPattern, EditRefused, type EditChecks } from './edit-validation.js';

/** An id as the messages echo it: cut short, it names what was asked. */
const shown = (rawId: string) => rawId.slice(0, 100);

async function lockRow<Row>(trx: Knex, table: 'namespaces' | 'resources' | 'institutions', rawId: string): Promise<Row | undefined> {
  const id = parseId(rawId);
  if (id === null) return undefined;
  return (await trx(table).first('*').where({ id }).forUpdate()) as Row | undefined;
}

/** Writes `values` (with a new `modified`) and logs the change; the row after the change. */
async function changeRow<Row extends { id: number }>(
  trx: Knex,
  curator: Curator,
  table: 'namespaces' | 'resources',
  before: Row,
  values: Record<string, unknown>,
  action: string,
  label: string,
): Promise<Row> {
  const [after] = (await trx(table)
    .update({ ...values, modified: trx.fn.now() })
    .where({ id: before.id })
    .returning('*')) as unknown as Row[];
  await recordCurationEvent(trx, curator, {
    action,
    entity: table === 'namespaces' ? 'namespace' : 'resource',
    entityId: before.id,
    entityLabel: label,
    changes: changesBetween(before as unknown as Record<string, unknown>, pick(after as unknown as Record<string, unknown>, Object.keys(values))),
  });
  return after!;
}

function pick(row: Record<string, unknown>, columns: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(columns.map((column) => [column, row[column]]));
}

const namespaceNotFound = (rawId: string) => notFound(`Namespace with ID '${shown(rawId)}', NOT FOUND`);
const resourceNotFound = (rawId: string) => notFound(`Resource with ID '${shown(rawId)}', NOT FOUND`);

/** Deprecates a namespace (its resources are left as they are, as the reference does); the report. */
export function deactivateNamespace(db: Db, curator: Curator, rawId: string): Promise<string> {
  return db.transaction(async (trx) => {
    const ns = await lockRow<NamespaceRow>(trx, 'namespaces', rawId);
    if (!ns) throw namespaceNotFound(rawId);
    const named = `Namespace with ID '${ns.id}', MIR ID '${ns.mirId}'`;
    if (ns.deprecated) throw invalid(`${named} CANNOT BE DEACTIVATED, because IT ALREADY IS DEPRECATED`);
    await changeRow(trx, curator, 'namespaces', ns, { deprecated: true, deprecationDate: new Date(), renderDeprecatedLanding: true }, 'namespace.deactivate', ns.prefix);
    return `${named} SUCCESSFULLY DEPRECATED`;
  });
}

/** Makes a deprecated namespace active again, clearing its deprecation details and successor; the report. */
export function reactivateNamespace(db: Db, curator: Curator, rawId: string): Promise<string> {
  return db.transaction(async (trx) => {
    const ns = await lockRow<NamespaceRow>(trx, 'namespaces', rawId);
    if (!ns) throw namespaceNotFound(rawId);
    const named = `Namespace with ID '${ns.id}', MIR ID '${ns.mirId}'`;
    if (!ns.deprecated) throw invalid(`${named} CANNOT BE RE-ACTIVATED, because IT ALREADY IS ACTIVE`);
    const values = {
      deprecated: false,
      renderDeprecatedLanding: false,
      successorId: null,
      deprecationDate: null,
      deprecationOfflineDate: null,
      deprecationStatement: null,
      infoOnPostmortemAccess: null,
    };
    await changeRow(trx, curator, 'namespaces', ns, values, 'namespace.reactivate', ns.prefix);
    return `${named} SUCCESSFULLY RE-ACTIVATED`;
  });
}

/** Deprecates a resource, keeping its URL pattern; the report (with the reference's spelling). */
export function deactivateResource(db: Db, curator: Curator, rawId: string): Promise<string> {
  return db.transaction(async (trx) => {
    const resource = await lockRow<ResourceRow>(trx, 'resources', rawId);
    if (!resource) throw resourceNotFound(rawId);
    const named = `Resource with ID '${resource.id}', MIR ID '${resource.mirId}'`;
    if (resource.deprecated) throw invalid(`${named} CANNOT BE DEACTIVATED, because IT ALREADY IS DEPRECATED`);
    const values = { deprecated: true, deprecationDate: new Date(), renderDeprecatedLanding: true };
    await changeRow(trx, curator, 'resources', resource, values, 'resource.deactivate', resource.mirId);
    return `${named} SUCCESSFULY DEPRECATED, its new URL pattern is '${resource.urlPattern}'`;
  });
}

/**
 * Makes a deprecated resource active again, at `providerUrlPattern` when given (checked as a resource
 * request's URL pattern, before the transaction: the check may take seconds), else at its stored pattern.
 */
export async function reactivateResource(db: Db, checks: EditChecks, curator: Curator, rawId: string, providerUrlPattern: string | null): Promise<string> {
  const id = parseId(rawId);
  const current = id === null ? undefined : await db('resources').first('*').where({ id });
  if (!current) throw resourceNotFound(rawId);
  const named = `Resource with ID '${current.id}', MIR ID '${current.mirId}'`;
  if (!current.deprecated) throw invalid(`${named} CANNOT BE ACTIVATED, because IT ALREADY IS ACTIVE`);
  const urlPattern = providerUrlPattern ?? current.urlPattern;
  if (urlPattern !== current.urlPattern) {
    const namespace = (await db('namespaces').first('prefix', 'sampleId').where({ id: current.namespaceId }))!;
    const failures = await checkReactivationPattern(checks, current, namespace, urlPattern);
    if (failures.length > 0) throw new EditRefused(failures);
  }
  return db.transaction(async (trx) => {
    const resource = await lockRow<ResourceRow>(trx, 'resources', rawId);
    if (!resource) throw resourceNotFound(rawId);
    if (!resource.deprecated) throw invalid(`${named} CANNOT BE ACTIVATED, because IT ALREADY IS ACTIVE`);
    const values = { urlPattern, deprecated: false, deprecationDate: null, deprecationStatement: null, renderDeprecatedLanding: false };
    await changeRow(trx, curator, 'resources', resource, values, 'resource.reactivate', resource.mirId);
    return `${named} SUCCESSFULLY RE-ACTIVATED, its new URL pattern is '${urlPattern}'`;
  });
}

const NO_ADDITIONAL_INFORMATION = "additional information 'no additional information'";

/**
 * Deletes an institution no resource uses, with its curation warnings; the report. Refused (invalid) while
 * resources use it, naming them.
 */
export async function deleteInstitution(db: Db, curator: Curator, rawId: string): Promise<string> {
  const by = `by '${curator.name}'`;
  try {
    return await db.transaction(async (trx) => {
      const institution = await lockRow<InstitutionRow>(trx, 'institutions', rawId);
      if (!institution) throw notFound(`Institution with ID '${shown(rawId)}', NOT FOUND, on delete request ${by}, ${NO_ADDITIONAL_INFORMATION}`);
      const named = `Institution with ID '${institution.id}', name '${institution.name}'`;
      const users = await trx('resources').select('id').where({ institutionId: institution.id }).orderBy('id');
      if (users.length > 0) {
        throw invalid(`${named}, IS IN USE by resources with IDs [${users.map((r) => r.id).join(',')}], AND CANNOT BE DELETED ${by}, ${NO_ADDITIONAL_INFORMATION}`);
      }
      await trx('institutions').where({ id: institution.id }).del();
      const changes: Record<string, FieldChange> = {};
      for (const [column, value] of Object.entries(institution)) changes[column] = { from: value instanceof Date ? value.toISOString() : value, to: null };
      await recordCurationEvent(trx, curator, { action: 'institution.delete', entity: 'institution', entityId: institution.id, entityLabel: institution.name, changes });
      return `${named}, PERMANENTLY DELETED FROM THE REGISTRY ${by}, ${NO_ADDITIONAL_INFORMATION}`;
    });
  } catch (error) {
    // A resource that started using it between the check and the delete (the foreign key stops the delete).
    if ((error as { code?: string }).code === '23503') throw new DomainError('conflict', `Institution with ID '${shown(rawId)}' has just been put in use; it cannot be deleted`);
    throw error;
  }
}
