import { randomInt } from 'node:crypto';
import { VERIFICATION_CODE_LENGTH, VERIFICATION_VALID_MINUTES } from '@gateway/shared';
import type { RedisPair } from '../../cache/redis.js';
import type { AppContext } from '../../context.js';

/** What a code proves: an e-mail address (registration, binding) or the right to reset a password. */
export type CodePurpose = 'email_verification' | 'password_reset';

/** Wrong guesses a code survives; after that it is gone and a new one must be mailed. */
export const MAX_CODE_ATTEMPTS = 5;
export const CODE_TTL_SECONDS = VERIFICATION_VALID_MINUTES * 60;

/**
 * Short-lived secrets keyed by purpose and e-mail. A code is used at most once: `consume` answers true for the
 * right code exactly once, and wrong guesses wear it out, so the six digits cannot be walked through.
 */
export interface VerificationCodeStore {
  /** Stores a code, replacing any earlier one for the same purpose and key. */
  save(purpose: CodePurpose, key: string, code: string, ttlSeconds?: number): Promise<void>;
  /** True when `code` is the live code for this key; the code is then deleted. */
  consume(purpose: CodePurpose, key: string, code: string): Promise<boolean>;
}

export function newVerificationCode(): string {
  let code = '';
  for (let index = 0; index < VERIFICATION_CODE_LENGTH; index++) code += String(randomInt(10));
  return code;
}

export function memoryCodeStore(now: () => number = Date.now): VerificationCodeStore {
  const entries = new Map<string, { code: string; expiresAt: number; attempts: number }>();
  const sweep = () => {
    const time = now();
    for (const [key, entry] of entries) if (entry.expiresAt <= time) entries.delete(key);
  };
  return {
    async save(purpose, key, code, ttlSeconds = CODE_TTL_SECONDS) {
      sweep();
      entries.set(`${purpose}:${key}`, { code, expiresAt: now() + ttlSeconds * 1000, attempts: 0 });
    },
    async consume(purpose, key, code) {
      const id = `${purpose}:${key}`;
      const entry = entries.get(id);
      if (!entry || entry.expiresAt <= now()) {
        entries.delete(id);
        return false;
      }
      if (entry.code === code) {
        entries.delete(id);
        return true;
      }
      entry.attempts++;
      if (entry.attempts >= MAX_CODE_ATTEMPTS) entries.delete(id);
      return false;
    },
  };
}

// Check, count and delete in one step so two nodes cannot both accept the same code.
const CONSUME_SCRIPT = `
local code = redis.call('HGET', KEYS[1], 'code')
if not code then return 0 end
if code == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
if redis.call('HINCRBY', KEYS[1], 'attempts', 1) >= tonumber(ARGV[2]) then redis.call('DEL', KEYS[1]) end
return 0
`;

export function redisCodeStore(redis: RedisPair): VerificationCodeStore {
  const redisKey = (purpose: CodePurpose, key: string) => `gateway:code:${purpose}:${key}`;
  return {
    async save(purpose, key, code, ttlSeconds = CODE_TTL_SECONDS) {
      const id = redisKey(purpose, key);
      await redis.client.multi().del(id).hset(id, 'code', code, 'attempts', 0).expire(id, ttlSeconds).exec();
    },
    async consume(purpose, key, code) {
      const result = await redis.client.eval(CONSUME_SCRIPT, 1, redisKey(purpose, key), code, MAX_CODE_ATTEMPTS);
      return Number(result) === 1;
    },
  };
}

const stores = new WeakMap<AppContext, VerificationCodeStore>();

/**
 * The node's code store: Redis when configured, so a code mailed by one node is accepted by any other; otherwise
 * this process's memory (a single node, or nodes behind sticky sessions).
 */
export function verificationCodes(ctx: AppContext): VerificationCodeStore {
  let store = stores.get(ctx);
  if (!store) {
    store = ctx.redis ? redisCodeStore(ctx.redis) : memoryCodeStore();
    stores.set(ctx, store);
  }
  return store;
}
