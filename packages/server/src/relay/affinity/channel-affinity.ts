import type { RedisPair } from '../../cache/redis.js';
import { sharedOrLocal } from '../../cache/redis-failover.js';
import type { OptionReader } from '../provider.js';

/** Where a conversation is served: the channel and the index of its key (multi-key channels). */
export interface Binding {
  channelId: number;
  keyIndex: number;
}

interface Entry extends Binding {
  expiresAt: number;
  /** When this node last wrote the binding to Redis (0: never), so a busy conversation is not written every turn. */
  sharedAt: number;
}

/** Where a store's bindings live in Redis, how long they last and how many a node's memory holds. */
export interface BindingPolicy {
  prefix: string;
  ttlSeconds(): number;
  maxEntries(): number;
}

/** Conversations: the family's `channel_affinity_setting.*` options. */
function conversationPolicy(options: OptionReader): BindingPolicy {
  return {
    prefix: 'gateway:affinity:',
    ttlSeconds: () => options.number('channel_affinity_setting.default_ttl_seconds'),
    maxEntries: () => options.number('channel_affinity_setting.max_entries'),
  };
}

/**
 * Sticky channels (the family's "channel affinity"): conversation → the channel (and key) that last answered it,
 * and, with another policy, any other key → binding (response-owners.ts: stored responses → their channel),
 * for `channel_affinity_setting.default_ttl_seconds` after its last answer. Held in the node's memory (at most
 * `max_entries`, oldest dropped first) and, with Redis, shared by every node: a lookup asks Redis (one GET, only
 * for requests that name a conversation) and answers from memory while Redis is down or has no entry. Writes are
 * not awaited. Every operation is O(1).
 */
export class ChannelAffinity {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly options: OptionReader,
    private readonly redis: RedisPair | null,
    private readonly now: () => number = Date.now,
    private readonly policy: BindingPolicy = conversationPolicy(options),
  ) {}

  get enabled(): boolean {
    return this.options.bool('channel_affinity_setting.enabled');
  }

  /** Bindings held in this node's memory. */
  get size(): number {
    return this.entries.size;
  }

  /** The conversation's binding, or null. Awaited only with Redis up. */
  lookup(key: string): Binding | null | Promise<Binding | null> {
    const redis = this.redis;
    if (!redis?.health.up) return this.local(key);
    return sharedOrLocal(
      redis.health,
      async () => parse(await redis.client.get(this.policy.prefix + key)) ?? this.local(key),
      async () => this.local(key),
    );
  }

  /** Records that the conversation was served by this channel and key (refreshing its time to live). */
  bind(key: string, binding: Binding): void {
    const now = this.now();
    const ttlMs = this.ttlSeconds() * 1000;
    const held = this.entries.get(key);
    const same = held !== undefined && held.channelId === binding.channelId && held.keyIndex === binding.keyIndex;
    // A binding written to Redis within the last tenth of its life is not written again.
    const shareAgain = !same || now - held.sharedAt > ttlMs / 10;
    if (held) this.entries.delete(key);
    else this.evict();
    const entry: Entry = {
      channelId: binding.channelId,
      keyIndex: binding.keyIndex,
      expiresAt: now + ttlMs,
      sharedAt: held?.sharedAt ?? 0,
    };
    // Re-inserted last: the map's order is the order of use, so the oldest is evicted first.
    this.entries.set(key, entry);
    const redis = this.redis;
    if (!shareAgain || !redis?.health.up) return;
    entry.sharedAt = now;
    redis.client
      .set(this.policy.prefix + key, `${binding.channelId}:${binding.keyIndex}`, 'PX', ttlMs)
      .catch((error: unknown) => {
        entry.sharedAt = 0;
        redis.health.failed(error);
      });
  }

  /** Forgets the conversation's binding to a channel that failed it, so its next turn is placed afresh. */
  drop(key: string, channelId: number): void {
    const held = this.entries.get(key);
    if (held?.channelId === channelId) this.entries.delete(key);
    const redis = this.redis;
    if (!redis?.health.up) return;
    redis.client.del(this.policy.prefix + key).catch((error: unknown) => redis.health.failed(error));
  }

  private local(key: string): Binding | null {
    const held = this.entries.get(key);
    if (!held) return null;
    if (held.expiresAt <= this.now()) {
      this.entries.delete(key);
      return null;
    }
    return held;
  }

  private evict(): void {
    const max = Math.max(1, this.policy.maxEntries());
    while (this.entries.size >= max) {
      const oldest = this.entries.keys().next();
      if (oldest.done) return;
      this.entries.delete(oldest.value);
    }
  }

  private ttlSeconds(): number {
    return Math.max(1, this.policy.ttlSeconds());
  }
}

function parse(value: string | null): Binding | null {
  if (!value) return null;
  const [channel, key] = value.split(':');
  const channelId = Number(channel);
  const keyIndex = Number(key);
  if (!Number.isInteger(channelId) || !Number.isInteger(keyIndex) || keyIndex < 0) return null;
  return { channelId, keyIndex };
}
