import type { Redis } from 'ioredis';

/** Two connections: a subscribed ioredis connection cannot run ordinary commands. */
export interface RedisPair {
  client: Redis;
  subscriber: Redis;
  close(): Promise<void>;
}

export async function connectRedis(url: string): Promise<RedisPair> {
  // Loaded only when Redis is configured (about 20 MiB).
  const { Redis } = await import('ioredis');
  const options = { maxRetriesPerRequest: 3, lazyConnect: true, enableOfflineQueue: true };
  const client = new Redis(url, options);
  const subscriber = new Redis(url, options);
  await Promise.all([client.connect(), subscriber.connect()]);
  await client.ping();
  return {
    client,
    subscriber,
    async close() {
      await Promise.allSettled([client.quit(), subscriber.quit()]);
    },
  };
}
