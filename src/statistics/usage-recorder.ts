import { createHmac } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../lib/logger.js';
import { USAGE_KEY_TTL_SECONDS, usageKeys, utcDay } from './usage-keys.js';

/**
 * What one namespace has seen. The entry lives as long as the process (at most one per namespace), so that
 * counting a request allocates nothing once its namespace has been seen: the counters are reset at each
 * flush, not replaced.
 */
interface Tally {
  /** Visits since the last flush. */
  visits: number;
  /** Visitors since the last flush that Redis may not have yet: none, one (the common case) or several. */
  fresh: Identity | Identity[] | null;
  /** The visitor last sent to Redis for `sentDay`; seeing it again that day adds nothing to the HyperLogLog. */
  sent: Identity | null;
  /** The day whose prefix set already holds this namespace, as far as this process knows. */
  sentDay: string | null;
  /** Whether `sent` came again since the last flush (needed when the flush finds a new day). */
  sentSeen: boolean;
}

interface Identity {
  address: string;
  userAgent: string;
}

/** Bounds memory when Redis stays away: beyond this many distinct visitors a flush period, drop new ones. */
const MAX_VISITORS_PER_FLUSH = 200_000;
/** Namespaces per script call, so that one flush never holds Redis for long. */
const PREFIXES_PER_CALL = 2000;

/**
 * Applies one flush inside Redis, in one round trip however many namespaces were seen. Per namespace:
 * HINCRBY the day's visits; when `isNew`, remember the prefix in the day's set; PFADD the visitor hashes
 * (in slices, Lua's unpack has a stack limit) and give a new HyperLogLog its expiry. ARGV: visits key,
 * prefixes key, visitors key prefix, days key, day, ttl, then per namespace: prefix, visits, isNew (0/1),
 * n, n hashes. Steady traffic (known namespaces, known visitors) costs one HINCRBY per namespace.
 */
const FLUSH_SCRIPT = `
local visitsKey, prefixesKey, visitorsPrefix, daysKey, day = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local ttl = tonumber(ARGV[6])
local i = 7
while i <= #ARGV do
  local prefix, count, isNew, n = ARGV[i], tonumber(ARGV[i + 1]), ARGV[i + 2], tonumber(ARGV[i + 3])
  redis.call('HINCRBY', visitsKey, prefix, count)
  if isNew == '1' then redis.call('SADD', prefixesKey, prefix) end
  if n > 0 then
    local key = visitorsPrefix .. prefix
    local first = i + 4
    while first <= i + 3 + n do
      local last = math.min(first + 499, i + 3 + n)
      redis.call('PFADD', key, unpack(ARGV, first, last))
      first = last + 1
    end
    if redis.call('TTL', key) < 0 then redis.call('EXPIRE', key, ttl) end
  end
  i = i + 4 + n
end
redis.call('SADD', daysKey, day)
redis.call('EXPIRE', visitsKey, ttl)
redis.call('EXPIRE', prefixesKey, ttl)
return 1
`;

type FlushCommand = (...args: (string | number)[]) => Promise<unknown>;

const sameIdentity = (a: Identity, address: string, userAgent: string) => a.address === address && a.userAgent === userAgent;

/**
 * Counts resolutions per namespace in process and flushes them to Redis at most once per interval, in one
 * script call. A Redis round trip per request halves resolution throughput; a Map lookup costs next to
 * nothing. Visitor identities (address and user agent) are hashed with a key, so they cannot be reversed,
 * at flush time and once per distinct visitor, however many namespaces the visitor resolved.
 *
 * What Redis already has is not sent again: a namespace joins the day's prefix set once, and a visitor the
 * namespace's HyperLogLog once, as long as the same visitor keeps coming (a pipeline resolving many
 * identifiers). With 100,000 namespaces in use every second this keeps a flush to one HINCRBY each. The
 * memory of what was sent is forgotten whenever the Redis connection is re-established, since a Redis that
 * restarted may have lost it. A crash loses at most one interval of counts.
 */
export class UsageRecorder {
  private readonly tallies = new Map<string, Tally>();
  /** Namespaces with visits since the last flush. */
  private touched: Tally[] = [];
  private touchedPrefixes: string[] = [];
  private visitorCount = 0;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private readonly flushCommand: FlushCommand;
  private flushed = Date.now();
  private failures = 0;

  constructor(
    private readonly redis: Redis,
    private readonly hashKey: string,
    private readonly logger: Logger,
    private readonly intervalMs: number,
    private readonly now: () => Date = () => new Date(),
  ) {
    if (!(redis as unknown as Record<string, unknown>).usageFlush) {
      redis.defineCommand('usageFlush', { numberOfKeys: 0, lua: FLUSH_SCRIPT });
    }
    this.flushCommand = (...args) => (redis as unknown as { usageFlush: FlushCommand }).usageFlush(...args);
    redis.on('ready', this.forgetSent);
  }

  /**
   * When every count made before it was in Redis (Date.now() of the last flush that sent everything, or of
   * the start): the oldest count not yet flushed is at most this old (the usage-flush lag of the metrics).
   */
  get flushedAt(): number {
    return this.flushed;
  }

  /** Flushes Redis refused since the start (their counts were dropped). */
  get failedFlushes(): number {
    return this.failures;
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.redis.off('ready', this.forgetSent);
    await this.flush();
  }

  record(prefix: string, address: string, userAgent: string): void {
    let tally = this.tallies.get(prefix);
    if (tally === undefined) {
      tally = { visits: 0, fresh: null, sent: null, sentDay: null, sentSeen: false };
      this.tallies.set(prefix, tally);
    }
    if (tally.visits++ === 0) {
      this.touched.push(tally);
      this.touchedPrefixes.push(prefix);
    }
    const { fresh, sent } = tally;
    if (sent !== null && sameIdentity(sent, address, userAgent)) {
      tally.sentSeen = true;
      return;
    }
    if (fresh === null) {
      if (this.visitorCount >= MAX_VISITORS_PER_FLUSH) return;
      tally.fresh = { address, userAgent };
    } else if (!Array.isArray(fresh)) {
      if (sameIdentity(fresh, address, userAgent) || this.visitorCount >= MAX_VISITORS_PER_FLUSH) return;
      tally.fresh = [fresh, { address, userAgent }];
    } else {
      if (fresh.some((f) => sameIdentity(f, address, userAgent)) || this.visitorCount >= MAX_VISITORS_PER_FLUSH) return;
      fresh.push({ address, userAgent });
    }
    this.visitorCount++;
  }

  /** Sends what was counted since the last flush; also called at shutdown. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    this.flushing = this.flushPending().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /** Bound once, so that it can be removed from the connection's listeners. */
  private readonly forgetSent = (): void => {
    for (const tally of this.tallies.values()) {
      // A visitor skipped since the last flush because Redis had it goes back among the fresh ones.
      if (tally.sentSeen && tally.sent !== null) {
        const { fresh, sent } = tally;
        tally.fresh = fresh === null ? sent : Array.isArray(fresh) ? [...fresh, sent] : [fresh, sent];
      }
      tally.sent = null;
      tally.sentDay = null;
      tally.sentSeen = false;
    }
  };

  private async flushPending(): Promise<void> {
    const started = Date.now();
    const touched = this.touched;
    const prefixes = this.touchedPrefixes;
    this.touched = [];
    this.touchedPrefixes = [];
    this.visitorCount = 0;
    if (touched.length === 0) {
      this.flushed = started;
      return;
    }
    // A flush crossing midnight counts the whole interval on the new day, which is within the one-interval
    // precision of these figures.
    const day = utcDay(this.now());

    const hashes = new Map<string, string>();
    const hashOf = (identity: Identity): string => {
      const text = `${identity.address}\n${identity.userAgent}`;
      let hash = hashes.get(text);
      if (hash === undefined) {
        hash = createHmac('sha256', this.hashKey).update(text).digest('base64url').slice(0, 22);
        hashes.set(text, hash);
      }
      return hash;
    };
    const head = [usageKeys.visits(day), usageKeys.prefixes(day), usageKeys.visitors(day, ''), usageKeys.days, day, USAGE_KEY_TTL_SECONDS];
    const calls: Promise<unknown>[] = [];
    let args: (string | number)[] = [...head];
    let inCall = 0;
    for (let i = 0; i < touched.length; i++) {
      const tally = touched[i]!;
      const isNew = tally.sentDay !== day;
      const identities = tally.fresh === null ? [] : Array.isArray(tally.fresh) ? tally.fresh : [tally.fresh];
      // A new day's HyperLogLog starts empty: the visitor sent on the previous day counts again.
      if (isNew && tally.sentSeen && tally.sent !== null) identities.unshift(tally.sent);
      args.push(prefixes[i]!, tally.visits, isNew ? 1 : 0, identities.length);
      for (const identity of identities) args.push(hashOf(identity));
      tally.visits = 0;
      tally.fresh = null;
      tally.sentSeen = false;
      tally.sentDay = day;
      if (identities.length > 0) tally.sent = identities[identities.length - 1]!;
      if (++inCall === PREFIXES_PER_CALL) {
        calls.push(this.flushCommand(...args));
        args = [...head];
        inCall = 0;
      }
    }
    if (inCall > 0) calls.push(this.flushCommand(...args));
    try {
      await Promise.all(calls);
      this.flushed = started;
    } catch (error) {
      this.failures++;
      // Usage figures are approximate by nature: a flush Redis refuses is dropped, not retried forever,
      // and what this process believed Redis held is forgotten so that the next flush sends it again.
      this.forgetSent();
      this.logger.warn({ err: error, prefixes: touched.length }, 'usage counters could not be flushed to Redis; dropped');
    }
  }
}
