import { createHmac } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../lib/logger.js';
import { USAGE_KEY_TTL_SECONDS, usageKeys, utcDay } from './usage-keys.js';

/** One visitor (a string, the common case) or several, per namespace, since the last flush. */
type Visitors = string | Set<string>;

interface PendingCounts {
  day: string;
  visits: Map<string, number>;
  visitors: Map<string, Visitors>;
}

/** Bounds memory when Redis stays away: beyond this many distinct visitors a flush period, drop new ones. */
const MAX_VISITORS_PER_FLUSH = 200_000;
/** Namespaces per script call, so that one flush never holds Redis for long. */
const PREFIXES_PER_CALL = 2000;

/**
 * Applies one flush inside Redis, in one round trip however many namespaces were seen: per namespace
 * HINCRBY the day's visits, PFADD the visitor hashes (in slices, Lua's unpack has a stack limit), set the
 * expiry once, remember the prefix. ARGV: visits key, prefixes key, visitors key prefix, days key, day,
 * ttl, then per namespace: prefix, visits, n, n hashes.
 */
const FLUSH_SCRIPT = `
local visitsKey, prefixesKey, visitorsPrefix, daysKey, day = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local ttl = tonumber(ARGV[6])
local i = 7
while i <= #ARGV do
  local prefix, count, n = ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2])
  redis.call('HINCRBY', visitsKey, prefix, count)
  local key = visitorsPrefix .. prefix
  local first = i + 3
  while first <= i + 2 + n do
    local last = math.min(first + 499, i + 2 + n)
    redis.call('PFADD', key, unpack(ARGV, first, last))
    first = last + 1
  end
  if redis.call('TTL', key) < 0 then redis.call('EXPIRE', key, ttl) end
  redis.call('SADD', prefixesKey, prefix)
  i = i + 3 + n
end
redis.call('SADD', daysKey, day)
redis.call('EXPIRE', visitsKey, ttl)
redis.call('EXPIRE', prefixesKey, ttl)
return 1
`;

type FlushCommand = (...args: (string | number)[]) => Promise<unknown>;

/**
 * Counts resolutions per namespace in process and flushes them to Redis at most once per interval, in one
 * script call. A Redis round trip per request halves resolution throughput; a Map increment costs next to
 * nothing. Visitor identities (address and user agent) are hashed with a key, so they cannot be reversed,
 * at flush time and once per distinct visitor, however many namespaces the visitor resolved. A crash
 * loses at most one interval of counts.
 */
export class UsageRecorder {
  private pending: PendingCounts;
  private visitorCount = 0;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private readonly flushCommand: FlushCommand;

  constructor(
    private readonly redis: Redis,
    private readonly hashKey: string,
    private readonly logger: Logger,
    private readonly intervalMs: number,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.pending = { day: utcDay(now()), visits: new Map(), visitors: new Map() };
    if (!(redis as unknown as Record<string, unknown>).usageFlush) {
      redis.defineCommand('usageFlush', { numberOfKeys: 0, lua: FLUSH_SCRIPT });
    }
    this.flushCommand = (...args) => (redis as unknown as { usageFlush: FlushCommand }).usageFlush(...args);
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  record(prefix: string, address: string, userAgent: string): void {
    const { visits, visitors } = this.pending;
    visits.set(prefix, (visits.get(prefix) ?? 0) + 1);
    if (this.visitorCount >= MAX_VISITORS_PER_FLUSH) return;
    const identity = `${address}\n${userAgent}`;
    const seen = visitors.get(prefix);
    if (seen === undefined) {
      visitors.set(prefix, identity);
      this.visitorCount++;
    } else if (typeof seen === 'string') {
      if (seen !== identity) {
        visitors.set(prefix, new Set([seen, identity]));
        this.visitorCount++;
      }
    } else if (!seen.has(identity)) {
      seen.add(identity);
      this.visitorCount++;
    }
  }

  /** Sends what was counted since the last flush; also called at shutdown. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    this.flushing = this.flushPending().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async flushPending(): Promise<void> {
    const batch = this.pending;
    // A flush crossing midnight starts the new day's counts; the few requests of the old batch counted
    // after midnight stay on the old day, which is within the one-interval precision of these figures.
    this.pending = { day: utcDay(this.now()), visits: new Map(), visitors: new Map() };
    this.visitorCount = 0;
    if (batch.visits.size === 0) return;

    const hashes = new Map<string, string>();
    const hashOf = (identity: string): string => {
      let hash = hashes.get(identity);
      if (hash === undefined) {
        hash = createHmac('sha256', this.hashKey).update(identity).digest('base64url').slice(0, 22);
        hashes.set(identity, hash);
      }
      return hash;
    };
    const head = [
      usageKeys.visits(batch.day),
      usageKeys.prefixes(batch.day),
      usageKeys.visitors(batch.day, ''),
      usageKeys.days,
      batch.day,
      USAGE_KEY_TTL_SECONDS,
    ];
    const calls: Promise<unknown>[] = [];
    let args: (string | number)[] = [...head];
    let inCall = 0;
    for (const [prefix, count] of batch.visits) {
      const seen = batch.visitors.get(prefix);
      const identities = seen === undefined ? [] : typeof seen === 'string' ? [seen] : [...seen];
      args.push(prefix, count, identities.length);
      for (const identity of identities) args.push(hashOf(identity));
      if (++inCall === PREFIXES_PER_CALL) {
        calls.push(this.flushCommand(...args));
        args = [...head];
        inCall = 0;
      }
    }
    if (inCall > 0) calls.push(this.flushCommand(...args));
    try {
      await Promise.all(calls);
    } catch (error) {
      // Usage figures are approximate by nature: a flush Redis refuses is dropped, not retried forever.
      this.logger.warn({ err: error, prefixes: batch.visits.size }, 'usage counters could not be flushed to Redis; dropped');
    }
  }
}
