import type { RedisPair } from '../cache/redis.js';
import type { SessionsRepo } from '../db/repos/sessions.js';

/** Where console sessions live: the database by default, Redis when configured, so every node sees them. */
export interface SessionStore {
  create(id: string, userId: number, ttlSeconds: number): Promise<void>;
  userIdOf(id: string): Promise<number | undefined>;
  destroy(id: string): Promise<void>;
  destroyAllOf(userId: number): Promise<void>;
}

export function databaseSessionStore(repo: SessionsRepo): SessionStore {
  return {
    create: (id, userId, ttl) => repo.insert(id, userId, ttl),
    userIdOf: (id) => repo.findUserId(id),
    destroy: (id) => repo.delete(id),
    destroyAllOf: (userId) => repo.deleteForUser(userId),
  };
}

export function redisSessionStore(redis: RedisPair): SessionStore {
  const sessionKey = (id: string) => `gateway:session:${id}`;
  const userKey = (userId: number) => `gateway:user-sessions:${userId}`;
  const { client } = redis;
  return {
    async create(id, userId, ttl) {
      await client
        .multi()
        .set(sessionKey(id), String(userId), 'EX', ttl)
        .sadd(userKey(userId), id)
        .expire(userKey(userId), ttl)
        .exec();
    },
    async userIdOf(id) {
      const value = await client.get(sessionKey(id));
      return value === null ? undefined : Number(value);
    },
    async destroy(id) {
      const value = await client.get(sessionKey(id));
      const multi = client.multi().del(sessionKey(id));
      if (value !== null) multi.srem(userKey(Number(value)), id);
      await multi.exec();
    },
    async destroyAllOf(userId) {
      const ids = await client.smembers(userKey(userId));
      await client.del(userKey(userId), ...ids.map(sessionKey));
    },
  };
}
