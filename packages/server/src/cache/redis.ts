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

/** How long start-up waits for Redis before it goes on without it (connect timeout plus one command timeout). */
const START_WAIT_MS = 1_500;

/**
 * Connects both connections, or, when Redis is down at start, does not wait for it: the node then starts in the
 * state of an outage (everything falls back to its own memory, see RedisHealth) and keeps reconnecting, so it
 * shares again as soon as Redis answers. A wrong address or password looks the same and is logged the same way.
 */
export async function connectRedis(url: string): Promise<RedisPair> {
  // Loaded only when Redis is configured (about 20 MiB).
  const { Redis } = await import('ioredis');
  const client = new Redis(url, boundedRedisOptions());
  // Subscribing is not a request: it waits in the queue for the connection (however long that takes) rather than
  // failing, and ioredis renews it on every reconnect.
  const subscriber = new Redis(url, {
    ...boundedRedisOptions(),
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
    commandTimeout: undefined,
  });
  const health = new RedisHealth(client, subscriber);
  const connected = Promise.all([client.connect(), subscriber.connect()]).then(() => client.ping());
  let timer: NodeJS.Timeout | undefined;
  // A Redis that accepts connections but never answers would hold a connect (its ready check) for seconds.
  const gaveUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${START_WAIT_MS} ms at start`)), START_WAIT_MS);
  });
  try {
    await Promise.race([connected, gaveUp]);
  } catch (error) {
    connected.catch(() => {});
    health.failed(error);
  } finally {
    clearTimeout(timer);
  }
  return {
    client,
    subscriber,
    health,
    async close() {
      health.stop();
      // A connection that is not up is dropped: a quit would wait in its queue for a Redis that may never answer.
      await Promise.allSettled(
        [client, subscriber].map((connection) =>
          connection.status === 'ready' ? connection.quit() : Promise.resolve(connection.disconnect()),
        ),
      );
    },
  };
}

/**
 * Listens to a pub/sub channel. Start-up waits for the subscription only while the subscriber is connected (so a
 * change announced right after start is not missed); otherwise it is queued and sent once Redis answers. One lost
 * with its connection before Redis confirmed it is asked again on the next connection (ioredis renews only
 * confirmed ones).
 */
export async function listen(pair: RedisPair, channel: string, onMessage: (message: string) => void): Promise<void> {
  const { subscriber } = pair;
  subscriber.on('message', (from: string, message: string) => {
    if (from === channel) onMessage(message);
  });
  const subscribe = (): Promise<unknown> =>
    subscriber.subscribe(channel).catch(() => subscriber.once('ready', () => void subscribe()));
  const subscribed = subscribe();
  if (subscriber.status === 'ready') await subscribed;
}
