import type { OptionsStore } from '../cache/options-store.js';

/**
 * The model request rate limit (options ModelRequestRateLimit*): per user and window, at most `count` requests
 * (0 = unlimited) and at most `success` successful ones. A group may override both. Counted in memory as sliding
 * lists of timestamps per user; multi-node setups get the limit per node.
 */
export class ModelRateLimiter {
  private requests = new Map<number, number[]>();
  private successes = new Map<number, number[]>();

  constructor(private readonly options: OptionsStore) {}

  private limits(group: string): { count: number; success: number; windowMs: number } | null {
    if (!this.options.bool('ModelRequestRateLimitEnabled')) return null;
    const minutes = this.options.number('ModelRequestRateLimitDurationMinutes');
    if (minutes <= 0) return null;
    const overrides = this.options.json<Record<string, [number, number]>>('ModelRequestRateLimitGroup') ?? {};
    const override = overrides[group];
    return {
      count: override ? override[0] : this.options.number('ModelRequestRateLimitCount'),
      success: override ? override[1] : this.options.number('ModelRequestRateLimitSuccessCount'),
      windowMs: minutes * 60_000,
    };
  }

  private recent(map: Map<number, number[]>, userId: number, windowMs: number, now: number): number[] {
    const list = (map.get(userId) ?? []).filter((time) => time > now - windowMs);
    map.set(userId, list);
    return list;
  }

  /** Counts the request; false when the user is over either limit (nothing is counted then). */
  admit(userId: number, group: string, now = Date.now()): boolean {
    const limits = this.limits(group);
    if (!limits) return true;
    const requests = this.recent(this.requests, userId, limits.windowMs, now);
    const successes = this.recent(this.successes, userId, limits.windowMs, now);
    if (limits.count > 0 && requests.length >= limits.count) return false;
    if (limits.success > 0 && successes.length >= limits.success) return false;
    requests.push(now);
    return true;
  }

  succeeded(userId: number, now = Date.now()): void {
    if (!this.options.bool('ModelRequestRateLimitEnabled')) return;
    const list = this.successes.get(userId) ?? [];
    list.push(now);
    this.successes.set(userId, list);
  }
}
