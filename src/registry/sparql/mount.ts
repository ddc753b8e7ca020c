import type Koa from 'koa';
import { DatasetFiles } from '../../dataset/dataset-files.js';
import { useRouters } from '../../http/base-app.js';
import type { RegistryArea } from '../model/registry-area.js';
import type { SparqlPool } from './sparql-pool.js';
import { sparqlRoutes } from './sparql.routes.js';

/** The SPARQL endpoint, over the pool of query threads the area was given (main.ts makes and closes it). */
export function mountSparql(app: Koa, area: Pick<RegistryArea, 'config'>, pool: SparqlPool): void {
  const files = new DatasetFiles(area.config.DATASET_DIR);
  useRouters(app, [sparqlRoutes({ pool, files, maxQueryLength: area.config.SPARQL_MAX_QUERY_LENGTH })]);
}
