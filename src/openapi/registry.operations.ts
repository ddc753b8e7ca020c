/** The registry area's operations (registry/app.ts), feature by feature. */
import { DOCS_OPERATIONS, HEALTH_OPERATIONS, METRICS_OPERATIONS } from './common.operations.js';
import type { OperationSpec } from './operation.js';
import { BROWSE_OPERATIONS } from './registry-browse.operations.js';
import { CHANGES_OPERATIONS } from './registry-changes.operations.js';
import { CURATION_OPERATIONS } from './registry-curation.operations.js';
import { DATA_OPERATIONS } from './registry-data.operations.js';
import { PAGE_OPERATIONS } from './registry-pages.operations.js';
import { REGISTRATION_OPERATIONS } from './registry-registration.operations.js';
import { SATELLITE_OPERATIONS } from './registry-satellite.operations.js';
import { SPARQL_OPERATIONS } from './registry-sparql.operations.js';

export const REGISTRY_OPERATIONS: readonly OperationSpec[] = [
  ...BROWSE_OPERATIONS,
  ...DATA_OPERATIONS,
  ...SPARQL_OPERATIONS,
  ...CHANGES_OPERATIONS,
  ...SATELLITE_OPERATIONS,
  ...REGISTRATION_OPERATIONS,
  ...CURATION_OPERATIONS,
  ...PAGE_OPERATIONS,
  ...HEALTH_OPERATIONS,
  ...METRICS_OPERATIONS,
  ...DOCS_OPERATIONS,
];
