import { compileOnFirstUse } from '../../lib/json-schema.js';
import { invalid } from '../../core/domain-error.js';
import type { WarningTargetType } from '../model/curation-warnings.js';

/**
 * POST /curationApi/notifications: `{apiVersion, payload: [{targetType, targetId, globalId, type, details}]}`,
 * the registry validator's full snapshot; a null payload is a no-op (as the reference). Detail values are
 * texts (numbers and booleans are taken as their text, as Jackson reads them into the reference's Map).
 */
export interface WarningNotification {
  /** Checked against the known kinds by the service (the reference failed on others). */
  targetType: WarningTargetType;
  targetId: number;
  globalId: string;
  type: string;
  details: Record<string, string>;
}

/** A weekly snapshot of a large registry: tens of thousands of warnings at most. */
export const MAX_NOTIFICATIONS = 200_000;
/** The body limit of the notifications endpoint. */
export const NOTIFICATIONS_BODY_LIMIT = 32 * 1024 * 1024;

/** The body's JSON Schema (the OpenAPI document shows it too). */
export const NOTIFICATIONS_SCHEMA = {
  type: ['object', 'null'],
  properties: {
    apiVersion: { type: ['string', 'number'], maxLength: 20 },
    payload: {
      type: ['array', 'null'],
      maxItems: MAX_NOTIFICATIONS,
      items: {
        type: 'object',
        required: ['targetType', 'targetId', 'globalId', 'type'],
        properties: {
          targetType: { type: 'string', maxLength: 50 },
          targetId: { anyOf: [{ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }, { type: 'string', pattern: '^[0-9]{1,15}$', maxLength: 15 }] },
          globalId: { type: 'string', minLength: 1, maxLength: 2000 },
          type: { type: 'string', minLength: 1, maxLength: 255 },
          details: {
            type: ['object', 'null'],
            maxProperties: 100,
            propertyNames: { maxLength: 255 },
            additionalProperties: { type: ['string', 'number', 'boolean', 'null'], maxLength: 4000 },
          },
        },
      },
    },
  },
};

const validateBody = compileOnFirstUse(NOTIFICATIONS_SCHEMA);

const BODY_MESSAGE =
  'The request body must be an envelope whose payload is a list of notifications: {"apiVersion": "1.0", "payload": [{"targetType": "namespace", "targetId": 1, "globalId": "...", "type": "...", "details": {}}]}';

/** The notifications of a request body ([] for a null payload); invalid when the body has another shape. */
export function readNotifications(body: unknown): WarningNotification[] {
  if (!validateBody(body)) {
    const error = validateBody.errors?.[0];
    const where = error?.instancePath ? ` (at ${error.instancePath}: ${error.message ?? 'invalid'})` : '';
    throw invalid(`${BODY_MESSAGE}${where}`);
  }
  const payload = (body as { payload?: Record<string, unknown>[] | null } | null)?.payload ?? [];
  return payload.map((n) => {
    const details: Record<string, string> = {};
    for (const [label, value] of Object.entries((n.details as Record<string, unknown> | null) ?? {})) {
      if (value !== null) details[label] = String(value);
    }
    return {
      targetType: String(n.targetType).toLowerCase() as WarningTargetType,
      targetId: Number(n.targetId),
      globalId: n.globalId as string,
      type: n.type as string,
      details,
    };
  });
}
