import { invalid } from '../../core/domain-error.js';
import { isCalendarDate } from '../../lib/calendar-date.js';
import { compileOnFirstUse, type ErrorObject } from '../../lib/json-schema.js';
import type { SatelliteUsageEntry } from '../../statistics/satellite-usage.js';

/** Bounds of the satellite API: each request's worst case is checked before any work. */
export const SATELLITE_LIMITS = {
  /** Namespace ids in one GET /satelliteApi/namespaces. */
  idsPerRequest: 200,
  /** Body of one POST /satelliteApi/usage. */
  usageBodyBytes: 512 * 1024,
  /** Entries (namespace and day) in one usage batch. */
  entriesPerBatch: 2000,
  /** Visitor hashes of one entry, and of a whole batch. */
  visitorsPerEntry: 1000,
  visitorsPerBatch: 10_000,
  /** Visits of one entry. */
  visitsPerEntry: 1_000_000_000,
  /** Days back a batch may count (the counters' life in Redis is 40 days). */
  daysBack: 30,
} as const;

const BATCH_ID = '^[A-Za-z0-9_-]{16,64}$';
const VISITOR_HASH = '^[A-Za-z0-9_-]{22}$';

const validateUsage = compileOnFirstUse({
  type: 'object',
  required: ['batchId', 'entries'],
  additionalProperties: false,
  properties: {
    batchId: { type: 'string', pattern: BATCH_ID },
    entries: {
      type: 'array',
      maxItems: SATELLITE_LIMITS.entriesPerBatch,
      items: {
        type: 'object',
        required: ['day', 'prefix', 'visits', 'visitors'],
        additionalProperties: false,
        properties: {
          day: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
          prefix: { type: 'string', minLength: 1, maxLength: 255 },
          visits: { type: 'integer', minimum: 0, maximum: SATELLITE_LIMITS.visitsPerEntry },
          visitors: { type: 'array', maxItems: SATELLITE_LIMITS.visitorsPerEntry, items: { type: 'string', pattern: VISITOR_HASH } },
        },
      },
    },
  },
});

function describe(error: ErrorObject | undefined): string {
  const where = error?.instancePath ? `'${error.instancePath.slice(1).replaceAll('/', '.')}'` : 'the body';
  if (!error) return 'The usage batch is malformed';
  if (error.keyword === 'required') return `${where} needs '${(error.params as { missingProperty: string }).missingProperty}'`;
  if (error.keyword === 'additionalProperties') return `${where} has an unknown field '${(error.params as { additionalProperty: string }).additionalProperty}'`;
  if (error.instancePath === '/batchId') return `'batchId' must be 16 to 64 letters, digits, '-' or '_' (a UUID will do)`;
  if (error.instancePath.endsWith('/visitors') && error.keyword === 'maxItems') return `${where} holds more than ${SATELLITE_LIMITS.visitorsPerEntry} visitor hashes`;
  if (/\/visitors\/\d+$/.test(error.instancePath)) return `${where} must be a visitor hash (22 base64url characters)`;
  if (error.instancePath === '/entries' && error.keyword === 'maxItems') return `'entries' holds more than ${SATELLITE_LIMITS.entriesPerBatch} entries`;
  return `${where} ${error.message ?? 'is invalid'}`;
}

export interface UsageBatch {
  batchId: string;
  entries: SatelliteUsageEntry[];
}

/** The usage batch `body` holds, or a 400 saying what is wrong with it; `today` is the UTC date (YYYY-MM-DD). */
export function usageBatchOf(body: unknown, today: string): UsageBatch {
  if (body === undefined) throw invalid('The body must be a usage batch: {"batchId": "...", "entries": [{"day", "prefix", "visits", "visitors"}]}');
  if (!validateUsage(body)) throw invalid(describe(validateUsage.errors?.[0]));
  const batch = body as UsageBatch;
  const earliest = new Date(`${today}T00:00:00Z`);
  earliest.setUTCDate(earliest.getUTCDate() - SATELLITE_LIMITS.daysBack);
  const tomorrow = new Date(`${today}T00:00:00Z`);
  tomorrow.setUTCDate(tomorrow.getUTCDate() + 1);
  let visitors = 0;
  for (const [i, entry] of batch.entries.entries()) {
    if (!isCalendarDate(entry.day)) throw invalid(`'entries.${i}.day' is not a real date`);
    // A day ahead is allowed for clocks a little off around midnight.
    const day = new Date(`${entry.day}T00:00:00Z`);
    if (day < earliest || day > tomorrow) throw invalid(`'entries.${i}.day' must be within the last ${SATELLITE_LIMITS.daysBack} days`);
    visitors += entry.visitors.length;
  }
  if (visitors > SATELLITE_LIMITS.visitorsPerBatch) throw invalid(`The batch holds more than ${SATELLITE_LIMITS.visitorsPerBatch} visitor hashes`);
  return batch;
}

const ID_LIST = /^\d{1,10}(,\d{1,10})*$/;

/** The namespace ids of `?ids=1,2,3`: 1 to SATELLITE_LIMITS.idsPerRequest positive whole numbers, or a 400. */
export function namespaceIdsOf(value: string | string[] | undefined): number[] {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text === '') throw invalid(`'ids' is required: comma-separated namespace ids, at most ${SATELLITE_LIMITS.idsPerRequest}`);
  if (text.length > SATELLITE_LIMITS.idsPerRequest * 11 || !ID_LIST.test(text)) {
    throw invalid(`'ids' must be comma-separated namespace ids (whole numbers), at most ${SATELLITE_LIMITS.idsPerRequest}`);
  }
  const ids = [...new Set(text.split(',').map(Number))];
  if (ids.length > SATELLITE_LIMITS.idsPerRequest) throw invalid(`'ids' names more than ${SATELLITE_LIMITS.idsPerRequest} namespaces`);
  if (ids.some((id) => id < 1 || id > 2 ** 31 - 1)) throw invalid(`'ids' must be namespace ids from 1 to ${2 ** 31 - 1}`);
  return ids;
}
