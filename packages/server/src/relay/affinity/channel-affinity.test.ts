import { describe, expect, it } from 'vitest';
import type { RedisPair } from '../../cache/redis.js';
import type { OptionReader } from '../provider.js';
import { ChannelAffinity } from './channel-affinity.js';

function options(values: Record<string, string> = {}): OptionReader {
  const all: Record<string, string> = {
    'channel_affinity_setting.enabled': 'true',
    'channel_affinity_setting.default_ttl_seconds': '60',
    'channel_affinity_setting.max_entries': '3',
    ...values,
  };
  return {
    get: (key) => all[key] ?? '',
    bool: (key) => all[key] === 'true',
    number: (key) => Number(all[key] ?? 0),
    json: () => undefined as never,
  };
}

/** A Redis stand-in: a map behind get/set/del, and a health flag that a failed command turns off. */
function fakeRedis() {
  const store = new Map<string, string>();
  const calls: string[] = [];
  let failing = false;
  const health = {
    up: true,
    fallbacks: 0,
    failed() {
      health.up = false;
    },
    fellBack() {
      health.fallbacks++;
    },
  };
  const refuse = () => Promise.reject(new Error('Redis down'));
  const client = {
    get: (key: string) => {
      calls.push(`get ${key}`);
      return failing ? refuse() : Promise.resolve(store.get(key) ?? null);
    },
    set: (key: string, value: string) => {
      calls.push(`set ${key} ${value}`);
      if (failing) return refuse();
      store.set(key, value);
      return Promise.resolve('OK');
    },
    del: (key: string) => {
      calls.push(`del ${key}`);
      return failing ? refuse() : Promise.resolve(Number(store.delete(key)));
    },
  };
  return {
    pair: { client, health } as unknown as RedisPair,
    store,
    calls,
    health,
    fail: () => {
      failing = true;
    },
  };
}

describe('channel affinity (sticky channels)', () => {
  it('answers from memory without Redis, forgets after the time to live, and drops only the failed channel', () => {
    let now = 1_000_000;
    const affinity = new ChannelAffinity(options(), null, () => now);
    expect(affinity.lookup('k')).toBeNull();
    affinity.bind('k', { channelId: 7, keyIndex: 2 });
    expect(affinity.lookup('k')).toEqual(expect.objectContaining({ channelId: 7, keyIndex: 2 }));
    affinity.drop('k', 8);
    expect(affinity.lookup('k')).toEqual(expect.objectContaining({ channelId: 7 }));
    affinity.drop('k', 7);
    expect(affinity.lookup('k')).toBeNull();
    affinity.bind('k', { channelId: 7, keyIndex: 0 });
    now += 59_000;
    // An answer refreshes the binding's life.
    affinity.bind('k', { channelId: 7, keyIndex: 0 });
    now += 59_000;
    expect(affinity.lookup('k')).not.toBeNull();
    now += 1_001;
    expect(affinity.lookup('k')).toBeNull();
  });

  it('holds at most max_entries conversations per node, the least recently answered dropped first', () => {
    const affinity = new ChannelAffinity(options(), null);
    for (const key of ['a', 'b', 'c']) affinity.bind(key, { channelId: 1, keyIndex: 0 });
    affinity.bind('a', { channelId: 2, keyIndex: 0 });
    affinity.bind('d', { channelId: 1, keyIndex: 0 });
    expect(affinity.size).toBe(3);
    expect(affinity.lookup('b')).toBeNull();
    expect(affinity.lookup('a')).toEqual(expect.objectContaining({ channelId: 2 }));
  });

  it('shares through Redis: another node reads the binding, and a busy conversation is not rewritten every turn', async () => {
    const redis = fakeRedis();
    let now = 0;
    const nodeA = new ChannelAffinity(options(), redis.pair, () => now);
    const nodeB = new ChannelAffinity(options(), redis.pair, () => now);
    nodeA.bind('k', { channelId: 4, keyIndex: 1 });
    expect(redis.store.get('gateway:affinity:k')).toBe('4:1');
    expect(await nodeB.lookup('k')).toEqual({ channelId: 4, keyIndex: 1 });
    now += 1_000;
    nodeA.bind('k', { channelId: 4, keyIndex: 1 });
    expect(redis.calls.filter((call) => call.startsWith('set'))).toHaveLength(1);
    now += 6_001;
    nodeA.bind('k', { channelId: 4, keyIndex: 1 });
    expect(redis.calls.filter((call) => call.startsWith('set'))).toHaveLength(2);
    nodeB.drop('k', 4);
    expect(redis.store.has('gateway:affinity:k')).toBe(false);
    // A's memory still names channel 4 when Redis has nothing: the retry path corrects it if that channel fails.
    expect(await nodeA.lookup('k')).toEqual(expect.objectContaining({ channelId: 4 }));
  });

  it('falls back to memory when Redis fails, without failing the request', async () => {
    const redis = fakeRedis();
    const affinity = new ChannelAffinity(options(), redis.pair);
    affinity.bind('k', { channelId: 3, keyIndex: 0 });
    redis.fail();
    expect(await affinity.lookup('k')).toEqual(expect.objectContaining({ channelId: 3 }));
    expect(redis.health.up).toBe(false);
    expect(redis.health.fallbacks).toBe(1);
    // While Redis is down nothing waits on it.
    const calls = redis.calls.length;
    expect(affinity.lookup('k')).toEqual(expect.objectContaining({ channelId: 3 }));
    affinity.bind('j', { channelId: 5, keyIndex: 0 });
    expect(redis.calls).toHaveLength(calls);
  });
});
