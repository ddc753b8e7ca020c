import { UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Db } from '../../src/db/knex.js';
import { processDatasetBuild } from '../../workers/dataset/dataset.processor.js';
import { processUrlCheck } from '../../workers/url-check/url-check.processor.js';
import { processUsageRollup } from '../../workers/usage/usage-rollup.processor.js';

// Refused before any I/O: the database, Redis and the fetcher must never be touched.
const untouchable = new Proxy(
  {},
  {
    get: () => {
      throw new Error('touched');
    },
  },
);
const db = untouchable as Db;
const redis = untouchable as Redis;
const fetch = () => Promise.reject(new Error('fetched'));

describe('a job whose payload can never be processed', () => {
  it('fails a URL check without a URL or a protection flag at once, without fetching', async () => {
    const deps = { fetch, redis, prefix: 'p', cacheSeconds: 60, timeoutMs: 1000 };
    for (const data of [{}, { url: '', isProtected: false }, { url: 42, isProtected: false }, { url: 'https://example.org/' }]) {
      await expect(processUrlCheck(deps, { data } as never)).rejects.toBeInstanceOf(UnrecoverableError);
    }
  });

  it('fails a usage rollup of a day that is not a calendar date at once', async () => {
    for (const day of ['yesterday', '2026-13-01', '2026-02-30', 20260101]) {
      await expect(processUsageRollup({ db, redis }, { data: { day } } as never)).rejects.toThrow(
        new UnrecoverableError(`a usage rollup job's day must be a date (YYYY-MM-DD), not ${JSON.stringify(day)}`),
      );
    }
  });

  it('fails a dataset build without a reason to record at once', async () => {
    for (const data of [{}, { reason: '' }, { reason: 'x'.repeat(41) }, null]) {
      await expect(processDatasetBuild({ db, dir: '/nonexistent' }, { data } as never)).rejects.toBeInstanceOf(UnrecoverableError);
    }
  });
});
