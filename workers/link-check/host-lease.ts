import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Politeness towards each provider host, across every worker process: at most `concurrency` link-check
 * requests to a host at once, and `delayMs` at least between the starts of two of them. The state lives in
 * Redis (a sorted set of leases scored by their expiry, and the time of the last start) and is changed by one
 * Lua script, so two workers can never both take the last place. Times are Redis's own clock (TIME), the same
 * for every process. A lease expires by itself after `ttlMs`, so a worker killed while holding one blocks its
 * host no longer than that.
 *
 * KEYS[1] leases (zset token → expiry ms), KEYS[2] the host's next allowed start (ms)
 * ARGV[1] token, ARGV[2] concurrency, ARGV[3] delay ms, ARGV[4] lease ttl ms
 * Returns {1, 0} when the lease is taken, or {0, ms to wait before asking again}.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local concurrency = tonumber(ARGV[2])
local delay = tonumber(ARGV[3])
local ttl = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local notBefore = tonumber(redis.call('GET', KEYS[2]) or '0')
if notBefore > now then
  return {0, notBefore - now}
end
if redis.call('ZCARD', KEYS[1]) >= concurrency then
  -- A place frees when a request ends, which only its worker knows: ask again soon (or when the first
  -- lease expires, if that is sooner).
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  local untilExpiry = tonumber(first[2]) - now
  return {0, math.max(1, math.min(untilExpiry, 250))}
end
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
if delay > 0 then
  redis.call('SET', KEYS[2], now + delay, 'PX', delay)
end
return {1, 0}
`;

/**
 * Pushes the host's next allowed start to at least `ARGV[1]` ms from now (a Retry-After that asks every
 * client to hold off). KEYS[1] the host's next allowed start.
 */
const HOLD = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local wanted = now + tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if wanted > current then
  redis.call('SET', KEYS[1], wanted, 'PX', tonumber(ARGV[1]))
end
return 1
`;

export interface HostLeaseSettings {
  /** LINKCHECK_HOST_CONCURRENCY. */
  concurrency: number;
  /** LINKCHECK_HOST_DELAY_MS. */
  delayMs: number;
  /** How long a lease outlives a worker that never gives it back: longer than any one request may take. */
  ttlMs: number;
}

export type LeaseAnswer = { granted: true; release: () => Promise<void> } | { granted: false; waitMs: number };

export class HostLeases {
  constructor(
    private readonly redis: Redis,
    /** QUEUE_PREFIX: deployments and tests sharing a Redis keep their hosts apart. */
    private readonly prefix: string,
    private readonly settings: HostLeaseSettings,
    /** Whose leases these are: each fetcher (link checks, page metadata) keeps its own per-host politeness. */
    private readonly family = 'link-check',
  ) {}

  private keys(host: string): [string, string] {
    const base = `${this.prefix}:${this.family}-host:${host.toLowerCase()}`;
    return [`${base}:leases`, `${base}:next`];
  }

  /** Takes a place at `host` now, or says how long to wait before asking again. */
  async acquire(host: string): Promise<LeaseAnswer> {
    const [leases, next] = this.keys(host);
    const token = randomBytes(8).toString('hex');
    const { concurrency, delayMs, ttlMs } = this.settings;
    const [granted, waitMs] = (await this.redis.eval(ACQUIRE, 2, leases, next, token, concurrency, delayMs, ttlMs)) as [number, number];
    if (granted !== 1) return { granted: false, waitMs };
    return { granted: true, release: async () => void (await this.redis.zrem(leases, token)) };
  }

  /** No request to `host` starts for `ms` (a Retry-After). */
  async hold(host: string, ms: number): Promise<void> {
    await this.redis.eval(HOLD, 1, this.keys(host)[1], Math.max(1, Math.round(ms)));
  }
}
