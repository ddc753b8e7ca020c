import { createHmac } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../lib/logger.js';
import { USAGE_KEY_TTL_SECONDS, usageKeys, utcDay } from './usage-keys.js';

interface PendingCounts {
  day: string;
  visits: Map<string, number>;
  /** prefix → distinct "address \n user agent" strings seen since the last flush. */
  visitors: Map<string, Set<string>>;
}

/** Bounds memory when Redis stays away: beyond this many distinct visitors a flush period, drop new ones. */
const MAX_VISITORS_PER_FLUSH = 200_000;

/**
 * Counts resolutions per namespace in process and flushes them to Redis at most once per interval, in one
 * pipeline. A Redis round trip per request halves resolution throughput; a Map increment costs next to
 * nothing. Visitor identities are hashed (keyed, so they cannot be reversed) at flush time, once per
 * distinct visitor rather than once per request. A crash loses at most one interval of counts.
 */
export class UsageRecorder {
  private pending: PendingCounts;
  private visitorCount = 0;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly hashKey: string,
    private readonly logger: Logger,
    private readonly intervalMs: number,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.pending = { day: utcDay(now()), visits: new Map(), visitors: new Map() };
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
    let set = visitors.get(prefix);
    if (!set) visitors.set(prefix, (set = new Set()));
    if (this.visitorCount < MAX_VISITORS_PER_FLUSH) {
      const before = set.size;
      set.add(`${address}\n${userAgent}`);
      this.visitorCount += set.size - before;
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
    const pipeline = this.redis.pipeline();
    const visitsKey = usageKeys.visits(batch.day);
    const prefixesKey = usageKeys.prefixes(batch.day);
    for (const [prefix, count] of batch.visits) pipeline.hincrby(visitsKey, prefix, count);
    for (const [prefix, set] of batch.visitors) {
      const key = usageKeys.visitors(batch.day, prefix);
      const hashes = [...set].map((identity) => createHmac('sha256', this.hashKey).update(identity).digest('base64url').slice(0, 22));
      pipeline.pfadd(key, ...hashes);
      pipeline.expire(key, USAGE_KEY_TTL_SECONDS);
    }
    pipeline.sadd(prefixesKey, ...batch.visits.keys());
    pipeline.sadd(usageKeys.days, batch.day);
    pipeline.expire(visitsKey, USAGE_KEY_TTL_SECONDS);
    pipeline.expire(prefixesKey, USAGE_KEY_TTL_SECONDS);
    try {
      const results = await pipeline.exec();
      const failed = results?.find(([error]) => error);
      if (failed) throw failed[0];
    } catch (error) {
      // Usage figures are approximate by nature: a flush Redis refuses is dropped, not retried forever.
      this.logger.warn({ err: error, prefixes: batch.visits.size }, 'usage counters could not be flushed to Redis; dropped');
    }
  }
}
