import { randomUUID } from 'node:crypto';
import { formatPeriodEnd, formatQuota, formatWait, type Language, periodBounds, translate } from '@gateway/shared';
import type { OptionsStore } from '../../../cache/options-store.js';
import { RelayError } from '../../errors.js';
import type { RelayCaller } from '../caller.js';
import type { BudgetLedger } from './budget-ledger.js';
import { ADMITTED, type CounterCheck, type LimitCheck, type LimitCounters, unseededIndex } from './counters.js';
import {
  type ActiveBudget,
  type ActiveLimit,
  activeBudget,
  activeLimits,
  groupDefaultsOf,
} from './effective-limits.js';

const WINDOW_MS = 60_000;
/** A lease outlives its request only when the node died holding it; then it stops counting after this long. */
const LEASE_MS = 15 * 60_000;
/** Counters outlive their window a little, so a settle arriving just after the boundary still finds them. */
const SLACK_MS = 5_000;

/** What a request is expected to use, reserved up front and corrected when it settles. */
export interface LimitEstimate {
  tokens: number;
  quota: number;
}

/** A request the limits let through; `finish` is called exactly once, when it ends. */
export interface Admission {
  /** `spent`: what it really used (it was settled), or null (nothing billed: the estimates are handed back). */
  finish(spent: LimitEstimate | null): void;
}

interface Taken {
  check: LimitCheck;
  /** What refused requests are told: which limit, its ceiling, and when to come back. */
  refusal: (lang: Language, now: number) => RelayError | Promise<RelayError>;
  /** Runs once the request is admitted. */
  admitted?: () => void;
  /** Settles this check's share of the request. */
  finish?: (spent: LimitEstimate | null, now: number) => void;
}

/**
 * Requests per minute, tokens per minute and concurrent requests per token and per user (with group defaults),
 * and a token's daily, weekly or monthly budget, checked before the upstream is called. Windows are fixed
 * calendar minutes (one counter each, exact across nodes through Redis, and a refusal knows when the window
 * frees). Tokens per minute and budgets reserve the request's estimate and are corrected to the billed amount
 * when it settles, or handed back when it fails. Everything comes from the cached token and user rows and the
 * options in memory: with nothing configured a request costs a few property reads, and on one node no await,
 * except the first budget check of a token in a period, which reads what the database says was spent.
 */
export class RequestLimiter {
  /** The clock; tests move it instead of waiting for windows and periods to end. */
  now: () => number = Date.now;

  constructor(
    private readonly counters: LimitCounters,
    /** Settled budget spends, written to the database in batches (flushed on shutdown). */
    readonly budgets: BudgetLedger,
    private readonly options: OptionsStore,
    private readonly prefix: string,
  ) {}

  admit(caller: RelayCaller, estimate: LimitEstimate, lang: Language): Admission | null | Promise<Admission | null> {
    const defaults = groupDefaultsOf(this.options.json('GroupLimitDefaults'))?.[caller.group];
    const limits = activeLimits(caller.token, caller.user, defaults);
    const budget = activeBudget(caller.token);
    if (limits.length === 0 && !budget) return null;
    const now = this.now();
    const taken = limits.map((limit) => this.limitCheck(limit, estimate, now));
    if (budget) taken.push(this.budgetCheck(budget, estimate, now));
    const checks = taken.map((entry) => entry.check);
    const decide = (answer: number): Admission | Promise<Admission> => {
      const missing = unseededIndex(answer);
      if (missing !== -1) return this.seedAndRetake(checks, missing, now).then(decide);
      if (answer !== ADMITTED) {
        const refusal = taken[answer]!.refusal(lang, now);
        if (refusal instanceof Promise) return refusal.then((error) => Promise.reject(error));
        throw refusal;
      }
      for (const entry of taken) entry.admitted?.();
      return { finish: (spent) => this.finish(taken, spent) };
    };
    const result = this.counters.take(checks, now);
    return result instanceof Promise ? result.then(decide) : decide(result);
  }

  /**
   * A budget counter the counters do not hold (first use on this node or in this period, or lost with Redis) is
   * built from the database before it admits anything; the take runs again with that seed, which is used only if
   * the counter is still missing then (another request or node may have built it meanwhile).
   */
  private async seedAndRetake(checks: LimitCheck[], index: number, now: number): Promise<number> {
    const check = checks[index] as CounterCheck;
    if (!check.seeder) throw new Error(`limits: counter ${check.key} has neither a seed nor a seeder`);
    const answer = await check.seeder((seed) => {
      check.seed = seed;
      return this.counters.take(checks, now);
    });
    if (unseededIndex(answer) !== -1) throw new Error(`limits: counter ${check.key} still unseeded`);
    return answer;
  }

  private finish(taken: Taken[], spent: LimitEstimate | null): void {
    const now = this.now();
    for (const entry of taken) {
      if (entry.finish) entry.finish(spent, now);
      else if (entry.check.type === 'slot') this.counters.release(entry.check.key, entry.check.lease);
    }
  }

  private limitCheck(limit: ActiveLimit, estimate: LimitEstimate, now: number): Taken {
    const base = `${this.prefix}:${limit.kind}:${limit.scope}:${limit.id}`;
    const refusal = (seconds: number) => (lang: Language) =>
      limitError(lang, `limit_${limit.kind}_reached`, limit, seconds, 'rate_limit_exceeded');
    if (limit.kind === 'concurrency') {
      return {
        check: { type: 'slot', key: base, limit: limit.limit, lease: randomUUID(), expiresAt: now + LEASE_MS },
        // A slot frees when a request in flight ends, which cannot be known: ask again soon.
        refusal: refusal(1),
      };
    }
    const window = Math.floor(now / WINDOW_MS);
    const windowEnd = (window + 1) * WINDOW_MS;
    const amount = limit.kind === 'rpm' ? 1 : Math.max(0, Math.round(estimate.tokens));
    const check: LimitCheck = {
      type: 'counter',
      key: `${base}:${window}`,
      limit: limit.limit,
      amount,
      ttlMs: windowEnd - now + SLACK_MS,
      seed: 0,
      allowFirst: limit.kind === 'tpm',
    };
    const taken: Taken = { check, refusal: refusal(secondsUntil(windowEnd, now)) };
    // Every admitted request counts towards requests per minute, failed or not; tokens are corrected to the bill.
    if (limit.kind === 'tpm') {
      taken.finish = (spent, at) => {
        const delta = (spent ? spent.tokens : 0) - amount;
        const current = Math.floor(at / WINDOW_MS);
        if (current === window) this.counters.add(check.key, delta, null, at);
        // Settled after its window: what exceeds the estimate counts in the window it was used in.
        else if (delta > 0)
          this.counters.add(`${base}:${current}`, delta, (current + 1) * WINDOW_MS - at + SLACK_MS, at);
      };
    }
    return taken;
  }

  private budgetCheck(budget: ActiveBudget, estimate: LimitEstimate, now: number): Taken {
    const base = `${this.prefix}:budget:${budget.tokenId}:${budget.period}`;
    const bounds = periodBounds(budget.period, now);
    const amount = Math.max(0, Math.round(estimate.quota));
    const check: LimitCheck = {
      type: 'counter',
      key: `${base}:${bounds.start}`,
      limit: budget.quota,
      amount,
      ttlMs: bounds.end - now + 3_600_000,
      // Never the cached token's figure: it may predate spends already written, so a lost counter would regain them.
      seed: null,
      seeder: (use) => this.budgets.seeded(budget.tokenId, bounds.start, use),
      allowFirst: false,
    };
    return {
      check,
      admitted: () => this.budgets.hold(budget.tokenId, bounds.start, amount),
      refusal: (lang) => {
        const quota = (value: number) =>
          formatQuota(value, {
            quotaPerUnit: this.options.number('QuotaPerUnit'),
            displayInCurrency: this.options.bool('DisplayInCurrencyEnabled'),
          });
        const seconds = secondsUntil(bounds.end, now);
        const refuse = (used: number) => {
          const error = RelayError.of(
            429,
            lang,
            'limit_budget_spent',
            {
              cost: quota(amount),
              left: quota(Math.max(0, budget.quota - used)),
              period: translate(`limit_period_${budget.period}`, lang),
              limit: quota(budget.quota),
              reset: formatPeriodEnd(bounds.end, now),
              wait: formatWait(seconds, lang),
            },
            'budget_exceeded',
          );
          error.retryAfter = seconds;
          return error;
        };
        // What is spent or held in the period (the counter refused: it exists); Redis answers in a round trip.
        const used = this.counters.read(check.key, now);
        return used instanceof Promise ? used.then(refuse, () => refuse(budget.quota)) : refuse(used);
      },
      finish: (spent, at) => {
        this.budgets.letGo(budget.tokenId, bounds.start, amount);
        const quota = spent ? Math.round(spent.quota) : 0;
        const current = periodBounds(budget.period, at);
        if (current.start === bounds.start) {
          this.counters.add(check.key, quota - amount, null, at);
          this.budgets.record(budget.tokenId, bounds.start, quota);
          return;
        }
        // Settled in the next period: what exceeds the estimate is spent there.
        const over = Math.max(0, quota - amount);
        this.counters.add(`${base}:${current.start}`, over, null, at);
        this.budgets.record(budget.tokenId, current.start, over);
      },
    };
  }
}

function secondsUntil(end: number, now: number): number {
  return Math.max(1, Math.ceil((end - now) / 1000));
}

function limitError(
  lang: Language,
  code: 'limit_rpm_reached' | 'limit_tpm_reached' | 'limit_concurrency_reached',
  limit: ActiveLimit,
  seconds: number,
  errorCode: string,
): RelayError {
  const scope = translate(limit.scope === 'token' ? 'limit_scope_token' : 'limit_scope_user', lang);
  const error = RelayError.of(429, lang, code, { scope, limit: limit.limit, seconds }, errorCode);
  error.retryAfter = seconds;
  return error;
}
