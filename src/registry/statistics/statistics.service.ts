import type { Redis } from 'ioredis';
import type { Db } from '../../db/knex.js';
import { findNamespaceByPrefixIgnoringCase } from '../../db/registry-reads.js';
import type { StatisticsService } from '../model/usage-statistics.js';
import { usageOver, usageSeries, visitsPerMonth } from './usage-query.js';

export function createStatisticsService(db: Db, redis: Redis): StatisticsService {
  return {
    namespacePrefix: async (asked) => (await findNamespaceByPrefixIgnoringCase(db, asked))?.prefix,
    // Redis failures are the query's own domain error (503 with Retry-After), Postgres's the error mapping's.
    usageOver: (prefix, days) => usageOver(db, redis, prefix, days),
    usageSeries: (prefix, buckets) => usageSeries(db, redis, prefix, buckets),
    visitsPerMonth: (prefix, months, today) => visitsPerMonth(db, redis, prefix, months, today),
  };
}
