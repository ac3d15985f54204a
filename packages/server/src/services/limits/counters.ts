/**
 * The counters behind the request limits and budgets, in one node's memory or in Redis. A request's checks are
 * taken all at once or not at all, so a refusal by one limit never leaves a count behind in another.
 */

/** A count with a ceiling: requests or tokens in a fixed window, quota spent in a budget period. */
export interface CounterCheck {
  type: 'counter';
  key: string;
  limit: number;
  amount: number;
  /** How long a counter created now lives (until its window or period ends, plus a little). */
  ttlMs: number;
  /** The value a missing counter starts from (a budget already partly spent, as the database knows it). */
  seed: number;
  /** Admit even an amount over the limit while the counter is at 0, so one oversized request is not refused forever. */
  allowFirst: boolean;
}

/** Requests in flight: one lease each, released when the request ends, expiring if its node dies first. */
export interface SlotCheck {
  type: 'slot';
  key: string;
  limit: number;
  lease: string;
  /** Unix ms after which a lease that was never released stops counting. */
  expiresAt: number;
}

export type LimitCheck = CounterCheck | SlotCheck;

export interface LimitCounters {
  /**
   * Checks every limit and, when all admit, applies them all. Returns -1 when admitted, else the index of the
   * first check that refused. Memory answers at once (no promise); Redis answers in one round trip.
   */
  take(checks: readonly LimitCheck[], now: number): number | Promise<number>;
  /**
   * Moves a counter by `delta` (settling an estimate). A missing counter is created when `createTtlMs` is given
   * (a window's count can start anywhere), else left missing (a budget is seeded from the database instead).
   */
  add(key: string, delta: number, createTtlMs: number | null, now: number): void;
  /** Ends a request's lease. */
  release(key: string, lease: string): void;
  /** A counter's current value (0 when missing), for views. */
  read(key: string, now: number): number | Promise<number>;
}
