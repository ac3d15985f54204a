/**
 * The counters behind the request limits and budgets, in one node's memory or in Redis. A request's checks are
 * taken all at once or not at all, so a refusal by one limit never leaves a count behind in another.
 *
 * Losing a counter (a restart, Redis flushed or restarted without persistence) must not give anything back that
 * the database can still tell: a budget counter is rebuilt from the database (and this node's unwritten and
 * in-flight spends) before it admits a request. Windows of requests and tokens per minute and concurrency leases
 * are known nowhere else, so a lost one starts again from 0: for at most the rest of its minute (or the requests
 * in flight) a limit can admit up to twice its value.
 */

/**
 * Reads a durable counter's starting value from the database and runs `use` with it, while this node writes
 * nothing of its own, so the database part and the node's unwritten part neither miss nor repeat a spend.
 */
export type Seeder = <T>(use: (seed: number) => T) => Promise<Awaited<T>>;

/** A count with a ceiling: requests or tokens in a fixed window, quota spent in a budget period. */
export interface CounterCheck {
  type: 'counter';
  key: string;
  limit: number;
  amount: number;
  /** How long a counter created now lives (until its window or period ends, plus a little). */
  ttlMs: number;
  /**
   * The value a missing counter starts from; null: not known yet, and the counter is only created once it is
   * (a missing one is reported by `take` as unseeded, with nothing taken; the caller asks `seeder` and retries).
   */
  seed: number | null;
  /** Set on counters the database can rebuild (budgets); those without (windows) start from 0 when lost. */
  seeder?: Seeder;
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

/** What `take` answers when it admitted every check. */
export const ADMITTED = -1;

/** `take`'s answer for a check at `index` whose counter is missing and has no seed yet: nothing was taken. */
export const unseeded = (index: number): number => -2 - index;

/** The index of the check `take` found unseeded, or -1 when its answer was an admission or a refusal. */
export const unseededIndex = (answer: number): number => (answer <= -2 ? -2 - answer : -1);

export interface LimitCounters {
  /**
   * Checks every limit and, when all admit, applies them all. Returns ADMITTED, the index of the first check that
   * refused, or `unseeded(index)`. Memory answers at once (no promise); Redis answers in one round trip.
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
