import type { Redis, RedisOptions } from 'ioredis';
import { RedisHealth } from './redis-health.js';

/** Two connections: a subscribed ioredis connection cannot run ordinary commands. */
export interface RedisPair {
  client: Redis;
  subscriber: Redis;
  /** Whether Redis answers, outages counted and logged once each; everything that uses Redis falls back on it. */
  health: RedisHealth;
  close(): Promise<void>;
}

/** No command waits on Redis longer than this; the caller then answers from the node's own memory. */
export const REDIS_COMMAND_TIMEOUT_MS = 400;

/**
 * Bounded in every direction, so a Redis that is down or slow never holds a request: commands are refused at once
 * while disconnected (no offline queue), time out after REDIS_COMMAND_TIMEOUT_MS, are never re-sent after a
 * reconnect (a reservation re-sent later would be taken twice), and reconnecting goes on forever with a backoff
 * of at most one second, so recovery is automatic.
 */
export function boundedRedisOptions(): RedisOptions {
  return {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(100 * attempt, 1_000),
  };
}

export async function connectRedis(url: string): Promise<RedisPair> {
  // Loaded only when Redis is configured (about 20 MiB).
  const { Redis } = await import('ioredis');
  const client = new Redis(url, boundedRedisOptions());
  // Subscribing is not a request: it waits for the connection rather than failing, and is renewed on reconnect.
  const subscriber = new Redis(url, { ...boundedRedisOptions(), enableOfflineQueue: true, commandTimeout: undefined });
  const health = new RedisHealth(client, subscriber);
  await Promise.all([client.connect(), subscriber.connect()]);
  await client.ping();
  return {
    client,
    subscriber,
    health,
    async close() {
      health.stop();
      await Promise.allSettled([client.quit(), subscriber.quit()]);
    },
  };
}
