import type { BudgetPeriod, LimitColumns } from '@gateway/shared';

/** A token's limits and budget as `GET /api/token/...` shows them. */
export interface TokenLimits extends LimitColumns {
  /** '' when the token has no budget. */
  budget_period: BudgetPeriod | '';
  budget_quota: number;
  /** Spent in the current period. */
  budget_used: number;
  /** Unix seconds when the period ends; 0 without a budget. */
  budget_reset_time: number;
}

/** What the token form sends: every field, so a cleared input clears the stored value. */
export type TokenLimitsInput = LimitColumns & { budget_period: BudgetPeriod | ''; budget_quota: number };
