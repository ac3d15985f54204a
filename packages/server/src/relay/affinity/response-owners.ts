import type { RedisPair } from '../../cache/redis.js';
import type { OptionReader } from '../provider.js';
import { type Binding, ChannelAffinity } from './channel-affinity.js';

/** OpenAI keeps a stored response for 30 days; its id is useless to the gateway after that. */
const RESPONSE_TTL_SECONDS = 30 * 24 * 3600;
/** Per node; with Redis every node shares them for the whole TTL. About 150 bytes each. */
const MAX_HELD = 50_000;

/**
 * Which channel (and key) created a stored Responses API response, per owner: `GET`/`DELETE /v1/responses/{id}`,
 * `…/cancel` and `…/input_items` must reach the upstream account that holds it, and only its creator may ask
 * (the key is `user:id`, so another user's id is simply unknown: a 404, as OpenAI answers). Kept like sticky
 * channels: in memory, shared through Redis when there is one.
 */
export class ResponseOwners {
  private readonly store: ChannelAffinity;

  constructor(options: OptionReader, redis: RedisPair | null, now: () => number = Date.now) {
    this.store = new ChannelAffinity(options, redis, now, {
      prefix: 'gateway:response:',
      ttlSeconds: () => RESPONSE_TTL_SECONDS,
      maxEntries: () => MAX_HELD,
    });
  }

  remember(userId: number, responseId: string, binding: Binding): void {
    this.store.bind(`${userId}:${responseId}`, binding);
  }

  find(userId: number, responseId: string): Binding | null | Promise<Binding | null> {
    return this.store.lookup(`${userId}:${responseId}`);
  }

  /** A deleted response is forgotten, so asking again is a 404 without a trip upstream. */
  forget(userId: number, responseId: string, channelId: number): void {
    this.store.drop(`${userId}:${responseId}`, channelId);
  }
}
