import { randomBytes } from 'node:crypto';
import type { RedisPair } from '../../cache/redis.js';
import type { AppContext } from '../../context.js';

/** What a WebAuthn challenge was issued for; a challenge answers only the ceremony it was made for. */
export type CeremonyKind = 'register' | 'verify' | 'login';

export interface Ceremony {
  kind: CeremonyKind;
  challenge: string;
  /** The signed-in user who began it; null for a sign-in, where nobody is known yet. */
  userId: number | null;
}

/** How long a begun ceremony may take: the browser's own prompt times out at 60 s by default. */
export const CEREMONY_TTL_SECONDS = 300;

/**
 * Server-side challenges, keyed by a random id the browser holds in a cookie. `take` hands a ceremony out once and
 * forgets it, so a challenge answers at most one finish, however many nodes or retries there are.
 */
export interface CeremonyStore {
  save(id: string, ceremony: Ceremony): Promise<void>;
  take(id: string): Promise<Ceremony | null>;
}

export function newCeremonyId(): string {
  return randomBytes(24).toString('base64url');
}

export function memoryCeremonyStore(now: () => number = Date.now): CeremonyStore {
  const entries = new Map<string, { ceremony: Ceremony; expiresAt: number }>();
  return {
    async save(id, ceremony) {
      const time = now();
      for (const [key, entry] of entries) if (entry.expiresAt <= time) entries.delete(key);
      entries.set(id, { ceremony, expiresAt: time + CEREMONY_TTL_SECONDS * 1000 });
    },
    async take(id) {
      const entry = entries.get(id);
      entries.delete(id);
      return entry && entry.expiresAt > now() ? entry.ceremony : null;
    },
  };
}

export function redisCeremonyStore(redis: RedisPair): CeremonyStore {
  const key = (id: string) => `gateway:passkey:${id}`;
  return {
    async save(id, ceremony) {
      await redis.client.set(key(id), JSON.stringify(ceremony), 'EX', CEREMONY_TTL_SECONDS);
    },
    async take(id) {
      // Read and delete in one transaction: two nodes racing on one id cannot both get it.
      const results = await redis.client.multi().get(key(id)).del(key(id)).exec();
      const value = results?.[0]?.[1];
      return typeof value === 'string' ? (JSON.parse(value) as Ceremony) : null;
    },
  };
}

const stores = new WeakMap<AppContext, CeremonyStore>();

/** Redis when configured (any node may receive the finish), else this process's memory. */
export function passkeyCeremonies(ctx: AppContext): CeremonyStore {
  let store = stores.get(ctx);
  if (!store) {
    store = ctx.redis ? redisCeremonyStore(ctx.redis) : memoryCeremonyStore();
    stores.set(ctx, store);
  }
  return store;
}
