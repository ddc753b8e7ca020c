import { envelopeJson } from '../../http/envelope.js';
import { joinJsonInSlices } from '../../lib/loop-turns.js';
import type { FeedChange, ChangePage } from './change-feed.service.js';

const OPERATION_WORDS = { INSERT: 'created', UPDATE: 'updated', DELETE: 'deleted' } as const;
const RECORD_WORDS = { namespaces: 'namespace', resources: 'resource', institutions: 'institution', locations: 'location' } as const;

/** What happened, in the feed's words; 'changed' for a row logged without details (see the migration). */
export function operationWord(change: FeedChange): 'created' | 'updated' | 'deleted' | 'changed' {
  return change.operation ? OPERATION_WORDS[change.operation] : 'changed';
}

/** The page that shows what changed: the namespace's page, the institution's HAL item; null for a location. */
export function changeUrl(change: FeedChange, publicRegistryUrl: string): string | null {
  if (change.entity === 'namespace') {
    return change.prefix ? `${publicRegistryUrl}/registry/${encodeURIComponent(change.prefix)}` : `${publicRegistryUrl}/restApi/namespaces/${change.entityId}`;
  }
  if (change.entity === 'institution') return `${publicRegistryUrl}/restApi/institutions/${change.entityId}`;
  return null;
}

/** A one-line description: "chebi: resource 12 updated", "institution 5 created". */
export function changeTitle(change: FeedChange): string {
  const record = change.sourceTable ? `${RECORD_WORDS[change.sourceTable]} ${change.recordId ?? change.entityId}` : `${change.entity} ${change.entityId}`;
  const subject = change.entity === 'namespace' && change.prefix ? (change.sourceTable === 'namespaces' ? `namespace ${change.prefix}` : `${change.prefix}: ${record}`) : record;
  return `${subject} ${operationWord(change)}`;
}

/** One change of GET /changes, fields in this order. */
export function presentChange(change: FeedChange, publicRegistryUrl: string) {
  return {
    cursor: change.cursor,
    version: Number(change.version),
    changedAt: change.changedAt.toISOString(),
    entity: change.entity,
    entityId: change.entityId,
    prefix: change.prefix,
    operation: operationWord(change),
    record: change.sourceTable ? RECORD_WORDS[change.sourceTable] : null,
    recordId: change.recordId,
    title: changeTitle(change),
    url: changeUrl(change, publicRegistryUrl),
  };
}

// Some 200 changes take about a millisecond to write.
const CHANGES_PER_SLICE = 200;

/**
 * The JSON text of GET /changes, JSON.stringify(envelope({ changes, next, more })), written a slice of
 * changes per turn of the event loop.
 */
export async function writeChangePage(page: ChangePage, publicRegistryUrl: string): Promise<string> {
  const changes = await joinJsonInSlices(page.changes, (change) => presentChange(change, publicRegistryUrl), CHANGES_PER_SLICE);
  return envelopeJson(`{"changes":[${changes}],"next":${JSON.stringify(page.next)},"more":${JSON.stringify(page.more)}}`);
}
