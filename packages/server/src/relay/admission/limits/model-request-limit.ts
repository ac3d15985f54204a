import type { Language } from '@gateway/shared';
import type { OptionsStore } from '../../../cache/options-store.js';
import type { SlidingWindowLog, WindowLimits, WindowRefusal } from '../../../cache/sliding-window-log.js';
import { RelayError } from '../../errors.js';
import type { RelayCaller } from '../caller.js';

export interface ModelRequestRefusal {
  kind: WindowRefusal;
  max: number;
  minutes: number;
}

/**
 * The model request rate limit (options ModelRequestRateLimit*, spec 001 "Ratelimit"): per user and window of
 * DurationMinutes, at most Count requests (0 = unlimited, failures included) and at most SuccessCount successful
 * ones. `ModelRequestRateLimitGroup` {"group": [count, success]} overrides both for the caller's group (the
 * token's group, else the user's). Counted in memory, or in Redis when configured so every node shares the count.
 */
export class ModelRequestLimiter {
  constructor(
    private readonly options: OptionsStore,
    private readonly log: SlidingWindowLog,
    private readonly now: () => number = Date.now,
  ) {}

  /** The limits for a group, or null when the limit is off (then nothing is counted). */
  limits(group: string): WindowLimits | null {
    if (!this.options.bool('ModelRequestRateLimitEnabled')) return null;
    const minutes = this.options.number('ModelRequestRateLimitDurationMinutes');
    if (minutes <= 0) return null;
    const overrides = this.options.json<Record<string, [number, number]>>('ModelRequestRateLimitGroup') ?? {};
    const override = Object.hasOwn(overrides, group) ? overrides[group] : undefined;
    return {
      total: override ? override[0] : this.options.number('ModelRequestRateLimitCount'),
      success: override ? override[1] : this.options.number('ModelRequestRateLimitSuccessCount'),
      windowMs: minutes * 60_000,
    };
  }

  /**
   * Counts the request unless a limit refuses it. Returns null at once (no promise, no await) when the limit is
   * off, which is the default: the relay pays nothing for it then.
   */
  admit(userId: number, group: string): Promise<ModelRequestRefusal | null> | null {
    const limits = this.limits(group);
    if (!limits) return null;
    return this.log
      .admit(userId, limits, this.now())
      .then((kind) =>
        kind
          ? { kind, max: kind === 'total' ? limits.total : limits.success, minutes: limits.windowMs / 60_000 }
          : null,
      );
  }

  /** A request that got its answer counts towards the success limit. Failures to record are not the caller's. */
  succeeded(userId: number): void {
    if (!this.options.bool('ModelRequestRateLimitEnabled')) return;
    const minutes = this.options.number('ModelRequestRateLimitDurationMinutes');
    if (minutes <= 0) return;
    this.log.recordSuccess(userId, minutes * 60_000, this.now()).catch(() => {
      // Redis unreachable for a moment: the count is a little low, the request itself already succeeded.
    });
  }
}

/**
 * The relay's check: 429 in the caller's error shape, naming the limit that was hit. Returns nothing when the
 * limit is off, so the relay does not even await then.
 */
export function admitModelRequest(
  limiter: ModelRequestLimiter,
  caller: RelayCaller,
  lang: Language,
): Promise<void> | undefined {
  return limiter.admit(caller.user.id, caller.group)?.then((refusal) => {
    if (!refusal) return;
    const error = RelayError.of(
      429,
      lang,
      refusal.kind === 'total' ? 'relay_rate_limited' : 'relay_rate_limited_success',
      { minutes: refusal.minutes, count: refusal.max },
      'rate_limit_exceeded',
    );
    // A sliding window frees a request at the latest one whole window later.
    error.retryAfter = refusal.minutes * 60;
    throw error;
  });
}
