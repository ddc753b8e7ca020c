import type { Redis } from 'ioredis';
import { isDatabaseUnavailable } from '../../db/connection-errors.js';
import type { Db } from '../../db/knex.js';
import { findNamespaceByPrefixIgnoringCase } from '../../db/registry-reads.js';
import { HttpError } from '../../http/http-error.js';
import { usageOver, type UsageFigures } from './usage-query.js';

/** What the statistics route reads (built by the registry app on its database and Redis). */
export interface StatisticsService {
  /** The stored prefix of the namespace whose prefix is this one whatever its case, if any. */
  namespacePrefix(asked: string): Promise<string | undefined>;
  /** A namespace's figures over the days (usage-query.ts); 503 with Retry-After when Redis cannot give them. */
  usageOver(prefix: string, days: string[]): Promise<UsageFigures>;
}

export function createStatisticsService(db: Db, redis: Redis): StatisticsService {
  return {
    namespacePrefix: async (asked) => (await findNamespaceByPrefixIgnoringCase(db, asked))?.prefix,
    async usageOver(prefix, days) {
      try {
        return await usageOver(db, redis, prefix, days);
      } catch (error) {
        // Those of Postgres are the error translator's (503 naming the database).
        if (isDatabaseUnavailable(error)) throw error;
        // Unique visitors are counted by merging HyperLogLogs in Redis; without Redis there is no honest figure.
        throw new HttpError(503, `Usage statistics are unavailable right now (Redis: ${(error as Error).message})`, { 'Retry-After': '30' });
      }
    },
  };
}
