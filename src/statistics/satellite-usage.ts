import type { Redis } from 'ioredis';
import { USAGE_KEY_TTL_SECONDS, usageKeys } from './usage-keys.js';

/** One namespace's usage on one UTC day, as a satellite resolver counted it (satellite/usage-batches.ts). */
export interface SatelliteUsageEntry {
  day: string;
  prefix: string;
  visits: number;
  /** Keyed visitor hashes for the day's HyperLogLog (the satellite hashes; no address leaves it). */
  visitors: string[];
}

/** How long a batch id is remembered: a retry within this time is recognised and not counted again. */
export const BATCH_ID_TTL_SECONDS = 7 * 24 * 3600;

const batchKey = (batchId: string) => `usage:satellite-batch:${batchId}`;

/**
 * Adds a batch to the day's counters exactly as the resolver's flush does (usage-recorder.ts: HINCRBY the
 * visits, SADD the prefix and the day, PFADD the visitor hashes, the same expiries), so the nightly rollup
 * copies it with the rest; in one script, guarded by the batch id (SET NX), so that a batch the satellite
 * sends again after a lost answer is counted once. ARGV: batch key, its ttl, counters' ttl, days key, then per
 * entry: visits key, prefixes key, visitors key, day, prefix, visits, n, n hashes. Returns 0 for a repeat.
 */
const APPLY_SCRIPT = `
if not redis.call('SET', ARGV[1], '1', 'NX', 'EX', tonumber(ARGV[2])) then return 0 end
local ttl, daysKey = tonumber(ARGV[3]), ARGV[4]
local i = 5
while i <= #ARGV do
  local visitsKey, prefixesKey, visitorsKey, day, prefix = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
  local count, n = tonumber(ARGV[i + 5]), tonumber(ARGV[i + 6])
  if count > 0 then redis.call('HINCRBY', visitsKey, prefix, count) end
  redis.call('SADD', prefixesKey, prefix)
  redis.call('SADD', daysKey, day)
  local first = i + 7
  while first <= i + 6 + n do
    local last = math.min(first + 499, i + 6 + n)
    redis.call('PFADD', visitorsKey, unpack(ARGV, first, last))
    first = last + 1
  end
  if n > 0 and redis.call('TTL', visitorsKey) < 0 then redis.call('EXPIRE', visitorsKey, ttl) end
  redis.call('EXPIRE', visitsKey, ttl)
  redis.call('EXPIRE', prefixesKey, ttl)
  i = i + 7 + n
end
return 1
`;

type ApplyCommand = (...args: (string | number)[]) => Promise<number>;

/** Adds a satellite's batch to the usage counters; false when that batch id was counted already. */
export async function applySatelliteUsage(redis: Redis, batchId: string, entries: readonly SatelliteUsageEntry[]): Promise<boolean> {
  const commands = redis as unknown as { satelliteUsage?: ApplyCommand };
  if (!commands.satelliteUsage) redis.defineCommand('satelliteUsage', { numberOfKeys: 0, lua: APPLY_SCRIPT });
  const args: (string | number)[] = [batchKey(batchId), BATCH_ID_TTL_SECONDS, USAGE_KEY_TTL_SECONDS, usageKeys.days];
  for (const e of entries) {
    args.push(usageKeys.visits(e.day), usageKeys.prefixes(e.day), usageKeys.visitors(e.day, e.prefix), e.day, e.prefix, e.visits, e.visitors.length, ...e.visitors);
  }
  const applied = await (redis as unknown as { satelliteUsage: ApplyCommand }).satelliteUsage(...args);
  return applied === 1;
}

/** The Redis key remembering a batch id (tests delete it). */
export const satelliteBatchKey = batchKey;
