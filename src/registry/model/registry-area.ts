/**
 * What the registry area's features are mounted with (src/registry/app.ts composes them): the area's
 * settings and connections, and the services of the shared model that more than one feature uses. Each
 * feature's mount picks what it needs from it; a feature's own services are built in its mount.
 */
import type { Context } from 'koa';
import type { Knex } from 'knex';
import type { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import type { Config } from '../../config.js';
import type { Db } from '../../db/knex.js';
import type { Logger } from '../../lib/logger.js';
import type { Site } from '../../web/site.js';
import type { PrefixCollisionCheck } from './collision-warnings.js';
import type { CurationActions } from './curation-operations.js';
import type { CurationWarningsOverview } from './curation-warnings.js';
import type { AccessTokenCheck } from './curator-auth.js';
import type { DeskSessions } from './desk-sessions.service.js';
import type { HealthApiService } from './link-health.js';
import type { NamespaceSearch } from './namespace-search.service.js';
import type { RestApiData } from './page-query.js';
import type { RecordMaintenance } from './record-maintenance.js';
import type { RegistryVersionSource } from './registry-version.js';
import type { RequestValidation } from './request-validation.js';
import type { StatisticsService } from './usage-statistics.js';
import type { WrongTokenThrottle } from './wrong-token-throttle.js';

export interface RegistryArea {
  config: Readonly<Config>;
  db: Db;
  /** Where the browse API and the synonym export read: the replica when there is one (db/read-db.ts), else `db`. */
  browseDb: Knex;
  redis: Redis;
  logger: Logger;
  /** The process's metrics registry. */
  metrics: Registry;
  site: Site;
  /** The curator desk's sign-in sessions, which the queue board and the rate limits also accept. */
  sessions: DeskSessions;
  /** One count of wrong curator tokens per address for every place the token is taken, shared in Redis. */
  tokenThrottle: WrongTokenThrottle;
  /** The check of the OpenID Connect provider's access tokens on the curator APIs; absent without OIDC_API_AUDIENCE. */
  accessTokens?: AccessTokenCheck;
  /** Whether the request is a curator's (the curator token, or a desk session). */
  isCurator: (ctx: Context) => Promise<boolean>;
  versions: RegistryVersionSource;
  restApiData: RestApiData;
  search: NamespaceSearch;
  statistics: StatisticsService;
  health: HealthApiService;
  /** Registration validation; absent when the registration checks are not given (its endpoints are then not mounted). */
  validator?: RequestValidation;
  prefixCollisions: PrefixCollisionCheck;
  curation: CurationActions;
  maintenance: RecordMaintenance;
  /** The open curation warnings by target, for the desk. */
  warnings: CurationWarningsOverview;
}
