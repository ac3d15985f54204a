import type { RedisPair } from '../cache/redis.js';
import { sharedOrLocal } from '../cache/redis-failover.js';

/** Fixed-window counter per key. In memory on one node, in Redis when several nodes must share the count. */
export interface RateLimiter {
  /** Counts one hit; true when the key is still within `max` hits for the current window. */
  hit(key: string, max: number, windowSeconds: number): Promise<boolean>;
}

export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { resetAt: number; count: number }>();
  let lastSweep = now();
  return {
    async hit(key, max, windowSeconds) {
      const time = now();
      if (time - lastSweep > 60_000) {
        // Drop finished windows so a scan over many IPs cannot grow the map without bound.
        for (const [entryKey, entry] of windows) if (entry.resetAt <= time) windows.delete(entryKey);
        lastSweep = time;
      }
      const entry = windows.get(key);
      if (!entry || entry.resetAt <= time) {
        windows.set(key, { resetAt: time + windowSeconds * 1000, count: 1 });
        return max >= 1;
      }
      entry.count++;
      return entry.count <= max;
    },
  };
}

export function redisRateLimiter(redis: RedisPair): RateLimiter {
  return {
    async hit(key, max, windowSeconds) {
      const redisKey = `gateway:rl:${key}`;
      const [[, count]] = (await redis.client.multi().incr(redisKey).expire(redisKey, windowSeconds, 'NX').exec()) as [
        [unknown, number],
      ];
      return count <= max;
    },
  };
}

/** Per-IP limits counted in Redis, or on this node alone while Redis is down or slow. */
export function failoverRateLimiter(redis: RedisPair, local: RateLimiter = memoryRateLimiter()): RateLimiter {
  const shared = redisRateLimiter(redis);
  return {
    hit: (key, max, windowSeconds) =>
      sharedOrLocal(
        redis.health,
        () => shared.hit(key, max, windowSeconds),
        () => local.hit(key, max, windowSeconds),
      ),
  };
}
