import { randomUUID } from 'node:crypto';
import type { RedisPair } from './redis.js';
import { sharedOrLocal } from './redis-failover.js';

/** Which limit refused a request: all requests in the window, or the successful ones. */
export type WindowRefusal = 'total' | 'success';

export interface WindowLimits {
  /** Requests allowed per window, failures included; 0 = unlimited. */
  total: number;
  /** Successful requests allowed per window; 0 = unlimited. */
  success: number;
  windowMs: number;
}

/**
 * Per-user sliding windows of request and success times (the model request rate limit). `admit` checks both
 * windows and records the request in one step, so two concurrent requests cannot both take the last slot.
 */
export interface SlidingWindowLog {
  admit(userId: number, limits: WindowLimits, now: number): Promise<WindowRefusal | null>;
  recordSuccess(userId: number, windowMs: number, now: number): Promise<void>;
}

/** One node's memory: exact for a single node; each node of a cluster without Redis counts on its own. */
export function memoryWindowLog(): SlidingWindowLog {
  const requests = new Map<number, number[]>();
  const successes = new Map<number, number[]>();
  let lastSweep = 0;
  let longestWindow = 0;

  const recent = (map: Map<number, number[]>, userId: number, floor: number): number[] => {
    const times = map.get(userId);
    if (!times) return [];
    let drop = 0;
    while (drop < times.length && times[drop]! <= floor) drop++;
    if (drop > 0) times.splice(0, drop);
    if (times.length === 0) map.delete(userId);
    return times;
  };
  const push = (map: Map<number, number[]>, userId: number, now: number) => {
    const times = map.get(userId);
    if (times) times.push(now);
    else map.set(userId, [now]);
  };
  // Users who stopped calling would otherwise keep their lists forever.
  const sweep = (now: number) => {
    if (now - lastSweep < 60_000) return;
    lastSweep = now;
    for (const map of [requests, successes]) {
      for (const [userId, times] of map) if (times[times.length - 1]! <= now - longestWindow) map.delete(userId);
    }
  };

  return {
    async admit(userId, limits, now) {
      longestWindow = Math.max(longestWindow, limits.windowMs);
      sweep(now);
      const floor = now - limits.windowMs;
      if (limits.success > 0 && recent(successes, userId, floor).length >= limits.success) return 'success';
      if (limits.total > 0) {
        if (recent(requests, userId, floor).length >= limits.total) return 'total';
        push(requests, userId, now);
      }
      return null;
    },
    async recordSuccess(userId, windowMs, now) {
      longestWindow = Math.max(longestWindow, windowMs);
      recent(successes, userId, now - windowMs);
      push(successes, userId, now);
    },
  };
}

// Sorted sets of request times per user; check and record run as one script, so nodes never race each other.
const ADMIT_SCRIPT = `
local now = tonumber(ARGV[1])
local floor = now - tonumber(ARGV[2])
local maxTotal = tonumber(ARGV[3])
local maxSuccess = tonumber(ARGV[4])
if maxSuccess > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', floor)
  if redis.call('ZCARD', KEYS[2]) >= maxSuccess then return 2 end
end
if maxTotal > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', floor)
  if redis.call('ZCARD', KEYS[1]) >= maxTotal then return 1 end
  redis.call('ZADD', KEYS[1], now, ARGV[5])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`;

const REFUSALS: Record<number, WindowRefusal | null> = { 0: null, 1: 'total', 2: 'success' };

/** Shared by every node through Redis (the times come from each node's clock). */
export function redisWindowLog(redis: RedisPair, prefix = 'gateway:mrl'): SlidingWindowLog {
  const keys = (userId: number) => [`${prefix}:total:${userId}`, `${prefix}:success:${userId}`] as const;
  return {
    async admit(userId, limits, now) {
      const [totalKey, successKey] = keys(userId);
      const result = (await redis.client.eval(
        ADMIT_SCRIPT,
        2,
        totalKey,
        successKey,
        now,
        limits.windowMs,
        limits.total,
        limits.success,
        `${now}:${randomUUID()}`,
      )) as number;
      return REFUSALS[result] ?? null;
    },
    async recordSuccess(userId, windowMs, now) {
      const [, successKey] = keys(userId);
      await redis.client
        .multi()
        .zremrangebyscore(successKey, '-inf', now - windowMs)
        .zadd(successKey, now, `${now}:${randomUUID()}`)
        .pexpire(successKey, windowMs)
        .exec();
    },
  };
}

/** The model request limit counted in Redis, or on this node alone while Redis is down or slow. */
export function failoverWindowLog(redis: RedisPair, local: SlidingWindowLog = memoryWindowLog()): SlidingWindowLog {
  const shared = redisWindowLog(redis);
  return {
    admit: (userId, limits, now) =>
      sharedOrLocal(
        redis.health,
        () => shared.admit(userId, limits, now),
        () => local.admit(userId, limits, now),
      ),
    recordSuccess: (userId, windowMs, now) =>
      sharedOrLocal(
        redis.health,
        () => shared.recordSuccess(userId, windowMs, now),
        () => local.recordSuccess(userId, windowMs, now),
      ),
  };
}
