import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../src/cache/redis.js';
import {
  CEREMONY_TTL_SECONDS,
  type CeremonyStore,
  memoryCeremonyStore,
  newCeremonyId,
  redisCeremonyStore,
} from '../src/services/accounts/passkey-ceremonies.js';
import { REDIS_URL } from './helpers/databases.js';
import { requireRedisInCi } from './helpers/redis.js';

const hasRedis = await requireRedisInCi();

function storeContract(name: string, make: () => CeremonyStore) {
  describe(`passkey challenges: ${name}`, () => {
    it('hands a challenge out once, however many ask at the same time', async () => {
      const store = make();
      const id = newCeremonyId();
      await store.save(id, { kind: 'login', challenge: 'abc', userId: null });
      const taken = await Promise.all([store.take(id), store.take(id), store.take(id)]);
      expect(taken.filter((ceremony) => ceremony !== null)).toEqual([
        { kind: 'login', challenge: 'abc', userId: null },
      ]);
      expect(await store.take(id)).toBeNull();
    });

    it('knows nothing of an id it never saved', async () => {
      expect(await make().take(newCeremonyId())).toBeNull();
    });
  });
}

storeContract('memory', () => memoryCeremonyStore());

describe('passkey challenges: memory expiry', () => {
  it('refuses a challenge once its five minutes are over', async () => {
    let now = 1_000_000;
    const store = memoryCeremonyStore(() => now);
    await store.save('late', { kind: 'register', challenge: 'x', userId: 1 });
    now += CEREMONY_TTL_SECONDS * 1000 - 1;
    await store.save('early', { kind: 'register', challenge: 'y', userId: 1 });
    now += 1;
    expect(await store.take('late')).toBeNull();
    expect(await store.take('early')).toEqual({ kind: 'register', challenge: 'y', userId: 1 });
  });
});

describe.skipIf(!hasRedis)('passkey challenges across nodes (Redis)', () => {
  let redis: Awaited<ReturnType<typeof connectRedis>>;
  beforeAll(async () => {
    redis = await connectRedis(REDIS_URL);
  });
  afterAll(async () => redis?.close());

  storeContract('redis', () => redisCeremonyStore(redis));

  it('keeps a challenge in Redis for five minutes at most', async () => {
    const id = newCeremonyId();
    await redisCeremonyStore(redis).save(id, { kind: 'verify', challenge: 'z', userId: 3 });
    const ttl = await redis.client.ttl(`gateway:passkey:${id}`);
    expect(ttl).toBeGreaterThan(CEREMONY_TTL_SECONDS - 5);
    expect(ttl).toBeLessThanOrEqual(CEREMONY_TTL_SECONDS);
  });
});
