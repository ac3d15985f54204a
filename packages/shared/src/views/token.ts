// Token answers (`/api/token/…`): what a token's owner sees.
import type { BudgetPeriod, LimitColumns } from '../limits/index.js';

/** A token's limits and budget as `GET /api/token/...` shows them. */
export interface TokenLimitsView extends LimitColumns {
  /** '' when the token has no budget. */
  budget_period: BudgetPeriod | '';
  budget_quota: number;
  /** Spent in the current period. */
  budget_used: number;
  /** Unix seconds when the period ends; 0 without a budget. */
  budget_reset_time: number;
}

/** A token as `GET /api/token/...` returns it to its owner. `key` has no `sk-` prefix on the wire. */
export interface TokenView extends Partial<TokenLimitsView> {
  id: number;
  user_id: number;
  key: string;
  /** 1 enabled, 2 disabled, 3 expired, 4 exhausted (TokenStatus). */
  status: number;
  name: string;
  created_time: number;
  accessed_time: number;
  /** Unix seconds; -1 never expires. */
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  /** Comma string. */
  model_limits: string;
  /** One IP or CIDR per line. */
  allow_ips: string;
  used_quota: number;
  /** '' means the owner's own group. */
  group: string;
  /** Comma string, in try order; '' = none of its own (the group's list applies). */
  fallback_models?: string;
}

/** `POST /api/token/` answers the name and the full key of the token it made. */
export interface CreatedTokenView {
  name: string;
  key: string;
}

/** `GET /api/user/self/groups`: group name → description and price ratio. */
export type UserGroupsView = Record<string, { desc: string; ratio: number }>;
