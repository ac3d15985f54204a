import type { ModelHealthView } from '@gateway/shared';

/** The window the pricing page shows: the last hour, in one-minute buckets. */
const MINUTES = 60;
/** Time to first token in half-octave buckets from 25 ms (bucket i: up to 25·2^((i+1)/2) ms; the last is open). */
const TTFT_BUCKETS = 28;
const TTFT_BASE_MS = 25;

/** One minute of one model: counts that add up across nodes. */
export interface HealthBucket {
  minute: number;
  requests: number;
  failures: number;
  ttft: number[];
  /** Completion tokens of successful streamed calls, and the milliseconds they took after their first token. */
  genTokens: number;
  genMs: number;
}

function emptyBucket(minute: number): HealthBucket {
  return { minute, requests: 0, failures: 0, ttft: new Array(TTFT_BUCKETS).fill(0), genTokens: 0, genMs: 0 };
}

function ttftIndex(ms: number): number {
  if (ms <= TTFT_BASE_MS) return 0;
  return Math.min(TTFT_BUCKETS - 1, Math.floor(2 * Math.log2(ms / TTFT_BASE_MS)));
}

/** The middle of a bucket (its geometric middle), as the median's estimate. */
function ttftMiddle(index: number): number {
  return Math.round(TTFT_BASE_MS * 2 ** ((index + 0.5) / 2));
}

/** Sums a model's buckets of the window into what the pricing page shows. */
export function healthOf(buckets: readonly HealthBucket[]): ModelHealthView {
  let requests = 0;
  let failures = 0;
  let genTokens = 0;
  let genMs = 0;
  const ttft = new Array<number>(TTFT_BUCKETS).fill(0);
  for (const bucket of buckets) {
    requests += bucket.requests;
    failures += bucket.failures;
    genTokens += bucket.genTokens;
    genMs += bucket.genMs;
    bucket.ttft.forEach((count, index) => {
      ttft[index]! += count;
    });
  }
  const timed = ttft.reduce((sum, count) => sum + count, 0);
  let median: number | null = null;
  if (timed > 0) {
    let seen = 0;
    for (let index = 0; index < TTFT_BUCKETS; index++) {
      seen += ttft[index]!;
      if (seen * 2 >= timed) {
        median = ttftMiddle(index);
        break;
      }
    }
  }
  return {
    requests,
    success_rate: requests > 0 ? (requests - failures) / requests : null,
    ttft_p50_ms: median,
    tokens_per_second: genMs > 0 ? Math.round((genTokens / genMs) * 1000 * 10) / 10 : null,
  };
}

/**
 * Live model health for the pricing page: per model, the last hour's requests, failures, time to first token and
 * generation speed, in one-minute buckets in this node's memory (a few counter additions per request). With
 * several nodes each pushes what it counted to Redis (model-health-share.ts) and the page reads the sum.
 */
export class ModelHealth {
  private readonly series = new Map<string, HealthBucket[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * One finished model call. A call the client abandoned says nothing of the model and is not counted; a failure is
   * any other call that did not succeed (the gateway found no working channel, or the upstream failed).
   */
  record(
    model: string,
    outcome: 'success' | 'error' | 'cancelled',
    firstTokenMs: number | null,
    completionTokens: number,
    elapsedMs: number,
  ): void {
    if (!model || outcome === 'cancelled') return;
    const bucket = this.bucket(model, Math.floor(this.now() / 60_000));
    bucket.requests += 1;
    if (outcome === 'error') {
      bucket.failures += 1;
      return;
    }
    // Speed is read from streams only: a whole answer's time holds the prompt's processing too.
    if (firstTokenMs === null) return;
    bucket.ttft[ttftIndex(firstTokenMs)]! += 1;
    const generating = elapsedMs - firstTokenMs;
    if (completionTokens > 0 && generating > 0) {
      bucket.genTokens += completionTokens;
      bucket.genMs += generating;
    }
  }

  /** This node's buckets of the window, per model (oldest first). */
  buckets(): Map<string, HealthBucket[]> {
    const oldest = Math.floor(this.now() / 60_000) - MINUTES + 1;
    const out = new Map<string, HealthBucket[]>();
    for (const [model, ring] of this.series) {
      const live = ring.filter((bucket) => bucket.minute >= oldest).sort((a, b) => a.minute - b.minute);
      if (live.length) out.set(model, live);
    }
    return out;
  }

  /** Per model, the window summed on this node. */
  snapshot(): Record<string, ModelHealthView> {
    const out: Record<string, ModelHealthView> = {};
    for (const [model, buckets] of this.buckets()) out[model] = healthOf(buckets);
    return out;
  }

  private bucket(model: string, minute: number): HealthBucket {
    let ring = this.series.get(model);
    if (!ring) {
      ring = [];
      this.series.set(model, ring);
    }
    const slot = minute % MINUTES;
    let bucket = ring[slot];
    if (!bucket || bucket.minute !== minute) {
      bucket = emptyBucket(minute);
      ring[slot] = bucket;
    }
    return bucket;
  }
}

export const HEALTH_WINDOW_MINUTES = MINUTES;
export const HEALTH_TTFT_BUCKETS = TTFT_BUCKETS;
export { emptyBucket };
