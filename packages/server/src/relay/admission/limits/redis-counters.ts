import type { Redis } from 'ioredis';
import type { LimitCheck, LimitCounters } from './counters.js';

// Checks every limit of a request, then applies them all, in one script: nodes can never race each other, and a
// refusal leaves no count behind. Six arguments per check after `now`: kind, limit, amount or lease, ttl or lease
// expiry, seed ('' when not known yet), allow-first. Returns -1 (admitted), the 0-based index of the refusing
// check, or -2 - index for a missing counter without a seed (nothing taken: the caller reads the seed and retries,
// and whoever comes first creates the counter, so it is seeded once and only where absent).
const TAKE = `
local now = tonumber(ARGV[1])
local function arg(i, n) return ARGV[1 + (i - 1) * 6 + n] end
for i = 1, #KEYS do
  local limit = tonumber(arg(i, 2))
  if arg(i, 1) == 'c' then
    local raw = redis.call('GET', KEYS[i])
    if not raw and arg(i, 5) == '' then return -1 - i end
    local used = raw and tonumber(raw) or tonumber(arg(i, 5))
    local amount = tonumber(arg(i, 3))
    if used + amount > limit and not (arg(i, 6) == '1' and used <= 0) then return i - 1 end
  else
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
    if redis.call('ZCARD', KEYS[i]) >= limit then return i - 1 end
  end
end
for i = 1, #KEYS do
  if arg(i, 1) == 'c' then
    if redis.call('EXISTS', KEYS[i]) == 1 then
      redis.call('INCRBY', KEYS[i], arg(i, 3))
    else
      redis.call('SET', KEYS[i], tonumber(arg(i, 5)) + tonumber(arg(i, 3)), 'PX', arg(i, 4))
    end
  else
    redis.call('ZADD', KEYS[i], arg(i, 4), arg(i, 3))
    redis.call('PEXPIRE', KEYS[i], math.max(1, tonumber(arg(i, 4)) - now))
  end
end
return -1`;

// Moves a counter; creates it only when a lifetime is given (a budget missing here is seeded, never invented).
const ADD = `
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('INCRBY', KEYS[1], ARGV[1]) end
if ARGV[2] ~= '' then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
return 0`;

// Brings counts a node took in its own memory during an outage into Redis: added to a counter that exists, else
// the counter is created from ARGV[2] when given (a window: the count itself; a budget: its seed from the
// database, which holds these spends already). Returns 1, or 0 when the counter is missing and no seed was given.
const RESTORE = `
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('INCRBY', KEYS[1], ARGV[1])
  return 1
end
if ARGV[2] == '' then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`;

/** Redis counters, plus what a node needs to hand back what it counted alone while Redis was away. */
export interface SharedCounters extends LimitCounters {
  /** Runs RESTORE: true when the count is in Redis now, false when the counter is missing and `seed` is null. */
  restore(key: string, delta: number, seed: number | null, ttlMs: number): Promise<boolean>;
}

/** Counters shared by every node through Redis (times come from each node's clock, like the model request limit). */
export function redisCounters(client: Redis, onError: (error: unknown) => void): SharedCounters {
  return {
    async take(checks, now) {
      if (checks.length === 0) return -1;
      const args: Array<string | number> = [now];
      for (const check of checks) args.push(...argumentsOf(check));
      const keys = checks.map((check) => check.key);
      return Number(await client.eval(TAKE, keys.length, ...keys, ...args));
    },
    add(key, delta, createTtlMs) {
      if (delta === 0) return;
      client.eval(ADD, 1, key, delta, createTtlMs === null ? '' : Math.max(1, createTtlMs)).catch(onError);
    },
    release(key, lease) {
      client.zrem(key, lease).catch(onError);
    },
    async read(key) {
      return Number((await client.get(key)) ?? 0);
    },
    async restore(key, delta, seed, ttlMs) {
      const answer = await client.eval(RESTORE, 1, key, delta, seed === null ? '' : seed, Math.max(1, ttlMs));
      return Number(answer) === 1;
    },
  };
}

function argumentsOf(check: LimitCheck): Array<string | number> {
  if (check.type === 'slot') return ['s', check.limit, check.lease, check.expiresAt, 0, 0];
  const seed = check.seed === null ? '' : check.seed;
  return ['c', check.limit, check.amount, Math.max(1, check.ttlMs), seed, check.allowFirst ? 1 : 0];
}
