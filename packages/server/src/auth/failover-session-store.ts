import type { RedisPair } from '../cache/redis.js';
import { sharedOrLocal } from '../cache/redis-failover.js';
import type { SessionStore } from './session-store.js';

/**
 * Sessions with several nodes: written to the database and to Redis, read from Redis and, when Redis does not
 * know the session or is down or slow, from the database. So a Redis outage or a Redis that lost its data (a
 * restart without persistence) signs nobody out: the database answers meanwhile. Sign-outs delete from both; a
 * Redis delete that failed during an outage is retried when Redis answers again, so a signed-out session cannot
 * come back with it.
 */
export function failoverSessionStore(redis: RedisPair, shared: SessionStore, database: SessionStore): SessionStore {
  const undone: Array<() => Promise<void>> = [];
  const inRedis = (work: () => Promise<void>) =>
    sharedOrLocal(redis.health, work, async () => {
      undone.push(work);
    });
  redis.health.onUp(() => {
    for (const work of undone.splice(0)) void inRedis(work);
  });
  return {
    async create(id, userId, ttl) {
      await database.create(id, userId, ttl);
      await sharedOrLocal(
        redis.health,
        () => shared.create(id, userId, ttl),
        async () => {},
      );
    },
    async userIdOf(id) {
      const cached = await sharedOrLocal(
        redis.health,
        () => shared.userIdOf(id),
        async () => undefined,
      );
      return cached ?? database.userIdOf(id);
    },
    async destroy(id) {
      await database.destroy(id);
      await inRedis(() => shared.destroy(id));
    },
    async destroyAllOf(userId) {
      await database.destroyAllOf(userId);
      await inRedis(() => shared.destroyAllOf(userId));
    },
  };
}
