import type Koa from 'koa';
import { DatasetFiles } from '../../dataset/dataset-files.js';
import { useRouters } from '../../http/base-app.js';
import { counterReadAtScrape } from '../../metrics/read-at-scrape.js';
import type { RegistryArea } from '../model/registry-area.js';
import type { SparqlPool } from './sparql-pool.js';
import { sparqlRoutes } from './sparql.routes.js';

/** The SPARQL endpoint, over the pool of query threads the area was given (main.ts makes and closes it). */
export function mountSparql(app: Koa, area: Pick<RegistryArea, 'config' | 'metrics'>, pool: SparqlPool): void {
  const files = new DatasetFiles(area.config.DATASET_DIR);
  counterReadAtScrape(area.metrics, 'curie_sparql_queries_total', 'SPARQL queries handed to a query thread (refused ones not counted).', () => pool.stats().started);
  counterReadAtScrape(area.metrics, 'curie_sparql_timeouts_total', 'SPARQL queries stopped by the time limit (SPARQL_TIMEOUT_MS), each terminating its thread.', () => pool.stats().timeouts);
  counterReadAtScrape(area.metrics, 'curie_sparql_loads_total', "Times a SPARQL thread loaded a dataset build's RDF (a new thread, or a new build).", () => pool.stats().loads);
  useRouters(app, [sparqlRoutes({ pool, files, maxQueryLength: area.config.SPARQL_MAX_QUERY_LENGTH })]);
}
