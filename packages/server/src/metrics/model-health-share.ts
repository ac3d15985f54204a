import type { ModelHealthView } from '@gateway/shared';
import type { RedisPair } from '../cache/redis.js';
import { sharedOrLocal } from '../cache/redis-failover.js';
import {
  emptyBucket,
  HEALTH_TTFT_BUCKETS,
  HEALTH_WINDOW_MINUTES,
  type HealthBucket,
  healthOf,
  type ModelHealth,
} from './model-health.js';

const PREFIX = 'gateway:health:';
/** Kept a little past the window, so a slow reader still finds its oldest minute. */
const KEY_TTL_SECONDS = (HEALTH_WINDOW_MINUTES + 10) * 60;
const SEPARATOR = '\t';
const COUNTERS = ['requests', 'failures', 'genTokens', 'genMs'] as const;

/**
 * The model health of every node: each pushes what it counted since its last push into one Redis hash per minute
 * (HINCRBY, so nodes add up), and a reader sums the hour's hashes. Without Redis (or while it is down) the page
 * shows this node's own figures.
 */
export class SharedModelHealth {
  /** What this node already pushed, per model and minute. */
  private readonly pushed = new Map<string, HealthBucket>();

  constructor(
    private readonly local: ModelHealth,
    private readonly redis: RedisPair | null,
  ) {}

  async push(): Promise<void> {
    const redis = this.redis;
    if (!redis?.health.up) return;
    const multi = redis.client.multi();
    let writes = 0;
    const current = new Set<string>();
    for (const [model, buckets] of this.local.buckets()) {
      for (const bucket of buckets) {
        const id = `${model}${SEPARATOR}${bucket.minute}`;
        current.add(id);
        const before = this.pushed.get(id) ?? emptyBucket(bucket.minute);
        const key = `${PREFIX}${bucket.minute}`;
        for (const counter of COUNTERS) {
          const delta = bucket[counter] - before[counter];
          if (delta !== 0) {
            multi.hincrby(key, `${model}${SEPARATOR}${counter}`, delta);
            writes++;
          }
        }
        bucket.ttft.forEach((count, index) => {
          const delta = count - (before.ttft[index] ?? 0);
          if (delta !== 0) {
            multi.hincrby(key, `${model}${SEPARATOR}t${index}`, delta);
            writes++;
          }
        });
        multi.expire(key, KEY_TTL_SECONDS);
        this.pushed.set(id, { ...bucket, ttft: [...bucket.ttft] });
      }
    }
    for (const id of this.pushed.keys()) if (!current.has(id)) this.pushed.delete(id);
    if (writes === 0) return;
    await multi.exec().catch((error: unknown) => {
      // Pushed again next time: forget what this push claimed.
      this.pushed.clear();
      redis.health.failed(error);
    });
  }

  /** Per model, the hour summed over every node (this node's unpushed counts included once pushed). */
  async snapshot(now = Date.now()): Promise<Record<string, ModelHealthView>> {
    const redis = this.redis;
    if (!redis?.health.up) return this.local.snapshot();
    return sharedOrLocal(
      redis.health,
      async () => {
        await this.push();
        const last = Math.floor(now / 60_000);
        const multi = redis.client.multi();
        for (let minute = last - HEALTH_WINDOW_MINUTES + 1; minute <= last; minute++) multi.hgetall(PREFIX + minute);
        const answers = (await multi.exec()) ?? [];
        const byModel = bucketsOfHashes(
          answers.map(([, value]) => (value ?? {}) as Record<string, string>),
          last - HEALTH_WINDOW_MINUTES + 1,
        );
        const out: Record<string, ModelHealthView> = {};
        for (const [model, buckets] of byModel) out[model] = healthOf(buckets);
        return out;
      },
      async () => this.local.snapshot(),
    );
  }
}

/** The minute hashes (oldest first, starting at `first`) as buckets per model. */
function bucketsOfHashes(hashes: Array<Record<string, string>>, first: number): Map<string, HealthBucket[]> {
  const byModel = new Map<string, Map<number, HealthBucket>>();
  hashes.forEach((hash, offset) => {
    const minute = first + offset;
    for (const [field, text] of Object.entries(hash)) {
      const [model, counter] = field.split(SEPARATOR) as [string, string];
      const minutes = byModel.get(model) ?? new Map<number, HealthBucket>();
      byModel.set(model, minutes);
      const bucket = minutes.get(minute) ?? emptyBucket(minute);
      minutes.set(minute, bucket);
      const amount = Number(text) || 0;
      if (counter.startsWith('t')) {
        const index = Number(counter.slice(1));
        if (index >= 0 && index < HEALTH_TTFT_BUCKETS) bucket.ttft[index]! += amount;
      } else if ((COUNTERS as readonly string[]).includes(counter)) {
        bucket[counter as (typeof COUNTERS)[number]] += amount;
      }
    }
  });
  return new Map([...byModel].map(([model, minutes]) => [model, [...minutes.values()]]));
}

/** Every node adds what it counted to the shared figures every 15 s (and on each read); a failed push retries. */
export function startModelHealthPush(shared: SharedModelHealth, onError: (error: unknown) => void): () => void {
  const timer = setInterval(() => {
    shared.push().catch(onError);
  }, 15_000);
  timer.unref();
  return () => clearInterval(timer);
}
