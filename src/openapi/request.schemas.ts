/**
 * The request schemas by the names the document gives them: each is the schema its route validates with
 * (or, for the bodies a route reads by hand, the schema a unit test holds to the route's own reading,
 * test/unit/request-schemas.test.ts), imported from the feature's home.
 */
import { sessionEventSchema } from '../registry/curation/curation.schemas.js';
import { AMENDED_FIELD } from '../registry/model/curation-operations.js';
import { NOTIFICATIONS_SCHEMA } from '../registry/curation-warnings/warnings.schemas.js';
import { patchSchema, REACTIVATION_SCHEMA } from '../registry/maintenance/maintenance.schemas.js';
import { REGISTRATION_REQUEST_SCHEMA } from '../registry/registration/validation/payload.schema.js';
import { RESOLVE_BATCH_SCHEMA, reverseRequestSchema, REVERSE_BATCH_SCHEMA } from '../resolver/request.schemas.js';
import type { Schema } from './schema-kit.js';

export const REQUEST_SCHEMAS: Record<string, Schema> = {
  RegistrationRequest: REGISTRATION_REQUEST_SCHEMA,
  SessionEventRequest: sessionEventSchema() as Schema,
  PrefixAmendmentRequest: sessionEventSchema(AMENDED_FIELD.prefix) as Schema,
  ResourceAmendmentRequest: sessionEventSchema(AMENDED_FIELD.resource) as Schema,
  NamespacePatch: patchSchema('namespaces') as Schema,
  ResourcePatch: patchSchema('resources') as Schema,
  InstitutionPatch: patchSchema('institutions') as Schema,
  ReactivationRequest: REACTIVATION_SCHEMA,
  NotificationsRequest: NOTIFICATIONS_SCHEMA,
  ResolveBatchRequest: RESOLVE_BATCH_SCHEMA as Schema,
  ReverseBatchRequest: REVERSE_BATCH_SCHEMA as Schema,
  ReverseByPrefixRequest: reverseRequestSchema('byPrefix') as Schema,
  ReverseBySimilarityRequest: reverseRequestSchema('bySimilarity') as Schema,
};
