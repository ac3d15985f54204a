import { Redis } from 'ioredis';
import { IN_CI, REDIS_URL } from './databases.js';

/** One quick connect-and-ping that gives up at once (no retries), so a machine without Redis costs no wait. */
export async function redisReachable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/**
 * Whether the Redis-backed tests of a file can run. CI promises a Redis server, so there a missing one fails the file
 * instead of skipping it; elsewhere the file's tests are skipped, with `skipNote` (when given) saying which.
 */
export async function requireRedisInCi(skipNote?: string): Promise<boolean> {
  const reachable = await redisReachable();
  if (!reachable && IN_CI) throw new Error('Redis is not reachable but CI=true requires it');
  if (!reachable && skipNote) console.warn(`[skip] Redis is not reachable: ${skipNote}`);
  return reachable;
}
