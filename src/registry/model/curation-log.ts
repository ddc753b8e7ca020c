/**
 * The log of curators' changes to the registry (curation_events): written by every maintenance operation and
 * by the acceptance of a registration request in its own transaction, so a change and its record commit or
 * roll back together. The curator desk shows a record's entries as its "Changes by curators".
 */
import type { Knex } from 'knex';
import type { CurationEntity, FieldChange } from '../../db/tables.js';
import type { Curator } from './curator-auth.js';

export interface CurationEventInput {
  /** `<entity>.<verb>`: namespace.create, namespace.update, namespace.successor, resource.deactivate, institution.delete, ... */
  action: string;
  entity: CurationEntity;
  entityId: number;
  /** How people know the entity (a prefix, a MIR id, a name), kept in case it is deleted or renamed. */
  entityLabel: string;
  changes: Record<string, FieldChange>;
  additionalInformation?: string | null;
}

export async function recordCurationEvent(trx: Knex, curator: Curator, event: CurationEventInput): Promise<void> {
  await trx('curation_events').insert({
    action: event.action,
    entity: event.entity,
    entityId: event.entityId,
    entityLabel: event.entityLabel.slice(0, 255),
    actor: curator.name,
    actorKind: curator.kind,
    actorIssuer: curator.issuer,
    actorSubject: curator.subject,
    changes: JSON.stringify(event.changes),
    additionalInformation: event.additionalInformation ?? null,
  });
}

/** A value as the log keeps it: dates as ISO text, everything else as JSON has it. */
function logged(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : (value ?? null);
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  // jsonb columns (a namespace's luiRules) come back with their keys in jsonb's order, not the writer's.
  if (isJsonObject(a) && isJsonObject(b)) return sortedJson(a) === sortedJson(b);
  return (a ?? null) === (b ?? null);
}

function isJsonObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !(value instanceof Date);
}

function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (!isJsonObject(value)) return JSON.stringify(value);
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${sortedJson(item)}`).join(',')}}`;
}

/** The columns of `after` whose value differs from `before`'s, with both values. */
export function changesBetween(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const [column, value] of Object.entries(after)) {
    if (!same(before[column], value)) changes[column] = { from: logged(before[column]), to: logged(value) };
  }
  return changes;
}
