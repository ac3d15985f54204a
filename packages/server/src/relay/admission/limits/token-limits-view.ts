import {
  budgetPairError,
  isBudgetPeriod,
  type LimitColumns,
  periodBounds,
  type TokenLimitsView,
} from '@gateway/shared';
import type { TokenRow } from '../../../db/schema.js';
import { ApiFailure } from '../../../http/envelope.js';
import { activeBudget } from './effective-limits.js';
import type { RequestLimiter } from './request-limiter.js';

type LimitInput = Partial<LimitColumns> & { budget_period?: string; budget_quota?: number };

/**
 * A token's limits and budget as the API shows them: `budget_used` is what was spent in the current period
 * (settled requests; this node's unwritten spends included) and `budget_reset_time` when the period ends (unix
 * seconds; 0 without a budget).
 */
export function tokenLimitsView(token: TokenRow, limits: RequestLimiter): TokenLimitsView {
  const budget = activeBudget(token);
  const bounds = budget ? periodBounds(budget.period, limits.now()) : null;
  return {
    rpm_limit: token.rpm_limit,
    tpm_limit: token.tpm_limit,
    concurrency_limit: token.concurrency_limit,
    // A period the console does not know (a hand-edited row) is shown as no budget, as the limiter reads it.
    budget_period: isBudgetPeriod(token.budget_period) ? token.budget_period : '',
    budget_quota: Number(token.budget_quota),
    budget_used: bounds ? limits.budgets.spent(token, bounds.start) : 0,
    budget_reset_time: bounds ? Math.floor(bounds.end / 1000) : 0,
  };
}

/** The limit columns a create or edit sets: only fields the body carried (a family script's edit keeps them). */
export function limitColumnsOf(input: LimitInput): LimitInput {
  const columns: LimitInput = {};
  if (input.rpm_limit !== undefined) columns.rpm_limit = input.rpm_limit;
  if (input.tpm_limit !== undefined) columns.tpm_limit = input.tpm_limit;
  if (input.concurrency_limit !== undefined) columns.concurrency_limit = input.concurrency_limit;
  if (input.budget_period !== undefined) columns.budget_period = input.budget_period;
  if (input.budget_quota !== undefined) columns.budget_quota = input.budget_quota;
  return columns;
}

/** Refuses a budget period without an amount, checked on the token as it would be stored. */
export function assertBudgetPair(token: { budget_period?: string; budget_quota?: number }): void {
  const error = budgetPairError(token.budget_period ?? '', Number(token.budget_quota ?? 0));
  if (error) throw new ApiFailure(error);
}
