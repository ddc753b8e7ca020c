/**
 * Curators' edits of registry records through the reference's Spring Data REST paths: PATCH of a namespace,
 * resource or institution (a JSON merge of its fields), and PUT of a namespace's successor. Each edit is
 * checked with the registration rules of the fields it touches (edit-validation.ts) before the transaction,
 * since a URL check may take seconds; the transaction then locks the row, makes sure nobody changed it
 * meanwhile (else 409: read it again), writes the change with a new `modified`, and logs it with the
 * curator. The registry tables' triggers announce the commit, so the resolver, the browse caches and the
 * dataset build see it as they see an acceptance.
 */
import type { Knex } from 'knex';
import { DomainError, invalid } from '../../core/domain-error.js';
import type { Db } from '../../db/knex.js';
import type { CurationEntity, InstitutionRow, NamespaceRow, ResourceRow } from '../../db/tables.js';
import type { Curator } from '../model/curator-auth.js';
import { canonicalRorId, rorIdProblem } from '../../core/ror-id.js';
import { COLLECTIONS } from '../model/collections.js';
import { itemNotFound } from '../model/items.service.js';
import { synonymClashMessage } from '../../db/namespace-synonyms.js';
import { changesBetween, recordCurationEvent } from '../model/curation-log.js';
import type { EditableCollection, EditedRow, EditFailure, RecordPatch } from '../model/record-maintenance.js';
import { checkInstitutionEdit, checkNamespaceEdit, checkResourceEdit, EditRefused, type EditChecks } from './edit-validation.js';
import { readLuiRulesValue, settleLuiRules } from './lui-rules-edit.js';
import { applySynonymEdit, planSynonymEdit } from './synonym-edits.js';
import { EDITABLE, readDate, type AssociationSpec } from './maintenance.schemas.js';


const ENTITY: Record<EditableCollection, CurationEntity> = { namespaces: 'namespace', resources: 'resource', institutions: 'institution' };

/** Text columns that cannot be empty: null is read as '' so that the field's rule says it is required. */
const REQUIRED_TEXT: Record<EditableCollection, readonly string[]> = {
  namespaces: ['prefix', 'name', 'pattern', 'description', 'sampleId'],
  resources: ['urlPattern', 'name', 'providerCode', 'resourceHomeUrl'],
  institutions: ['name', 'homeUrl', 'description'],
};

const HREF_TARGET = /\/restApi\/(namespaces|institutions|locations|persons)\/([^/?#]+)\/?$/;

/** The key an association href names in `spec.target`, or undefined when it names nothing of that kind. */
function hrefKey(spec: AssociationSpec, href: string): number | string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(new URL(href, 'http://relative.invalid').pathname);
  } catch {
    return undefined;
  }
  const match = HREF_TARGET.exec(path);
  if (!match || match[1] !== spec.target) return undefined;
  const key = match[2]!;
  if (spec.target === 'locations') return /^[A-Za-z]{2}$/.test(key) ? key.toUpperCase() : undefined;
  return /^\d{1,15}$/.test(key) ? Number(key) : undefined;
}

const TARGET_NOUN: Record<AssociationSpec['target'], string> = {
  namespaces: 'a namespace',
  institutions: 'an institution',
  locations: 'a location',
  persons: 'a person',
};

/** The column value an association href sets, once its target is known to exist. */
async function resolveAssociation(db: Knex, property: string, spec: AssociationSpec, href: string | null): Promise<number | string | null> {
  if (href === null) return null;
  const key = hrefKey(spec, href);
  const example = spec.target === 'locations' ? '.../restApi/locations/GB' : `.../restApi/${spec.target}/{id}`;
  if (key === undefined) throw invalid(`'${property}' must be the href of ${TARGET_NOUN[spec.target]} (${example})`);
  const column = spec.target === 'locations' ? 'countryCode' : 'id';
  const found = await db(spec.target).first(column).where(column, key);
  if (!found) throw invalid(`'${property}' names no existing ${TARGET_NOUN[spec.target].split(' ')[1]}: ${href.slice(0, 200)}`);
  return key;
}

/** The stored form of a ROR id (`https://ror.org/<id>`); invalid, as a request's would be, when it is not one. */
function storedRorId(value: string): string {
  const canonical = canonicalRorId(value);
  if (canonical === undefined) throw invalid(rorIdProblem(value)!);
  return canonical;
}

/** The column values the patch asks for (only those it gives), read and checked for their type. */
async function patchedValues(db: Knex, collection: EditableCollection, patch: RecordPatch): Promise<Record<string, unknown>> {
  const { fields, associations } = EDITABLE[collection];
  const values: Record<string, unknown> = {};
  for (const [property, value] of Object.entries(patch.fields)) {
    const spec = fields[property]!;
    if (spec.type === 'date') values[property] = readDate(property, value as string | number | null);
    else if (spec.type === 'rules') values[property] = readLuiRulesValue(value);
    else if (value === null && REQUIRED_TEXT[collection].includes(property)) values[property] = '';
    else if (property === 'rorId' && typeof value === 'string' && value.trim() !== '') values[property] = storedRorId(value);
    else if (property === 'rorId') values[property] = null;
    else values[property] = value;
  }
  for (const [property, href] of Object.entries(patch.associations)) {
    const spec = associations[property]!;
    values[spec.column] = await resolveAssociation(db, property, spec, href);
  }
  return values;
}

function entityLabel(collection: EditableCollection, row: EditedRow): string {
  if (collection === 'namespaces') return (row as NamespaceRow).prefix;
  if (collection === 'resources') return (row as ResourceRow).mirId;
  return (row as InstitutionRow).name;
}

async function checkEdit(checks: EditChecks, db: Knex, collection: EditableCollection, edited: EditedRow, changed: Set<string>): Promise<EditFailure[]> {
  if (collection === 'namespaces') {
    if ((edited as NamespaceRow).successorId === edited.id) return [{ field: 'successor', message: 'A namespace cannot be its own successor' }];
    return checkNamespaceEdit(checks, edited as NamespaceRow, changed);
  }
  if (collection === 'institutions') return checkInstitutionEdit(checks, edited as InstitutionRow, changed);
  const resource = edited as ResourceRow;
  const namespace = (await db('namespaces').first('prefix', 'sampleId').where({ id: resource.namespaceId }))!;
  return checkResourceEdit(checks, resource, namespace, changed);
}

interface PgError {
  code?: string;
  constraint?: string;
}

/** A unique index the edit ran into (someone else has that prefix, name or ROR id). */
function uniqueClash(error: unknown, values: Record<string, unknown>): DomainError | undefined {
  const { code, constraint } = error as PgError;
  if (code !== '23505') return undefined;
  if (constraint === 'namespaces_prefix_lower_unique') return new DomainError('conflict', `Prefix '${String(values.prefix)}' already exists`);
  const synonymClash = synonymClashMessage(error);
  if (synonymClash) return new DomainError('conflict', synonymClash);
  if (constraint === 'institutions_name_unique') return new DomainError('conflict', `Institution name '${String(values.name)}' belongs to another institution`);
  if (constraint === 'institutions_ror_id_unique') return new DomainError('conflict', `ROR ID '${String(values.rorId)}' belongs to another institution`);
  return new DomainError('conflict', `The change conflicts with another record of the registry (${constraint ?? 'unique constraint'})`);
}

export const EDITED_MEANWHILE = 'The record was changed by someone else meanwhile; read it again and retry';

export interface EditOptions {
  /** The curation log's action; `<entity>.update` unless given. */
  action?: string;
  /**
   * The `modified` of the record as the curator's form showed it: when the record has changed since, the
   * edit is refused (conflict) rather than made over a change the curator has not seen.
   */
  expectedModified?: Date;
}

/**
 * Applies a patch to the item `rawId` of `collection`: its row as it is after the edit (the row as it was
 * when nothing changes, and then nothing is logged). not-found for an unknown item; invalid with the rule's
 * message for a value the registration rules refuse; conflict when someone else edited it meanwhile or a
 * unique value is taken.
 */
export async function editRecord(
  db: Db,
  checks: EditChecks,
  curator: Curator,
  collection: EditableCollection,
  rawId: string,
  patch: RecordPatch,
  options: EditOptions = {},
): Promise<EditedRow> {
  const definition = COLLECTIONS[collection];
  const id = definition.key.parse(rawId);
  const before = id === null ? undefined : ((await db(collection).first('*').where('id', id)) as EditedRow | undefined);
  if (!before) throw itemNotFound(definition, 'id', rawId);
  const unseen = (row: EditedRow) => options.expectedModified !== undefined && row.modified.getTime() !== options.expectedModified.getTime();
  if (unseen(before)) throw new DomainError('conflict', EDITED_MEANWHILE);
  const values = await patchedValues(db, collection, patch);
  if (collection === 'namespaces') settleLuiRules(before as NamespaceRow, values);
  const changes = changesBetween(before as unknown as Record<string, unknown>, values);
  const changed = new Set(Object.keys(changes));
  const edited = { ...before, ...values } as EditedRow;
  const synonymEdit =
    collection === 'namespaces' && patch.synonyms !== undefined
      ? await planSynonymEdit(db, before.id, (edited as NamespaceRow).prefix, patch.synonyms)
      : undefined;
  if (changed.size === 0 && !synonymEdit?.change) return before;
  const failures = await checkEdit(checks, db, collection, edited, changed);
  if (failures.length > 0) throw new EditRefused(failures);
  if (synonymEdit?.change) changes.synonyms = synonymEdit.change;

  const update: Record<string, unknown> = {};
  for (const column of changed) update[column] = values[column];
  try {
    return await db.transaction(async (trx) => {
      const locked = (await trx(collection).first('*').where('id', before.id).forUpdate()) as EditedRow | undefined;
      if (!locked) throw itemNotFound(definition, 'id', rawId);
      if (locked.modified.getTime() !== before.modified.getTime() || unseen(locked)) throw new DomainError('conflict', EDITED_MEANWHILE);
      const [after] = (await trx(collection)
        .update({ ...update, modified: trx.fn.now() })
        .where({ id: before.id })
        .returning('*')) as EditedRow[];
      if (synonymEdit) await applySynonymEdit(trx, before.id, synonymEdit);
      await recordCurationEvent(trx, curator, {
        action: options.action ?? `${ENTITY[collection]}.update`,
        entity: ENTITY[collection],
        entityId: before.id,
        entityLabel: entityLabel(collection, after!),
        changes,
      });
      return after!;
    });
  } catch (error) {
    throw uniqueClash(error, values) ?? error;
  }
}

/** PUT /restApi/namespaces/{id}/successor: the namespace's successor is the one the single href names. */
export function setSuccessor(
  db: Db,
  checks: EditChecks,
  curator: Curator,
  rawId: string,
  hrefs: readonly string[],
  options: Pick<EditOptions, 'expectedModified'> = {},
): Promise<EditedRow> {
  if (hrefs.length !== 1) throw invalid("Send the successor's href as the body, with Content-Type: text/uri-list (one line)");
  return editRecord(
    db,
    checks,
    curator,
    'namespaces',
    rawId,
    { fields: {}, associations: { successor: hrefs[0]! } },
    { ...options, action: 'namespace.successor' },
  );
}
