import {
  type BudgetPeriod,
  type GroupLimitDefaults,
  isBudgetPeriod,
  LIMIT_KINDS,
  type LimitColumns,
  type LimitKind,
  parseGroupLimitDefaults,
} from '@gateway/shared';

export type LimitScope = 'token' | 'user';

/** One limit that applies to a request: which counter (scope and id) and its ceiling (above 0). */
export interface ActiveLimit {
  kind: LimitKind;
  scope: LimitScope;
  id: number;
  limit: number;
}

export interface ActiveBudget {
  tokenId: number;
  period: BudgetPeriod;
  quota: number;
}

const COLUMN: Record<LimitKind, keyof LimitColumns> = {
  rpm: 'rpm_limit',
  tpm: 'tpm_limit',
  concurrency: 'concurrency_limit',
};

/**
 * The limits a request is held to. Precedence: a token's own value applies to that token (empty or 0: none); a
 * user's own value applies to all of the user's requests, and when the user has none, the default of the
 * request's group (the token's group, else the user's) from `GroupLimitDefaults` does. A user's own 0 means
 * unlimited even when the group has a default. Both levels must admit a request.
 */
export function activeLimits(
  token: LimitColumns & { id: number },
  user: LimitColumns & { id: number },
  defaults: GroupLimitDefaults[string] | undefined,
): ActiveLimit[] {
  const active: ActiveLimit[] = [];
  for (const kind of LIMIT_KINDS) {
    const own = token.id ? token[COLUMN[kind]] : null;
    if (own) active.push({ kind, scope: 'token', id: token.id, limit: own });
    const userLimit = user[COLUMN[kind]] ?? defaults?.[kind] ?? 0;
    if (userLimit) active.push({ kind, scope: 'user', id: user.id, limit: userLimit });
  }
  return active;
}

/** The token's period budget, when it has one. */
export function activeBudget(token: { id: number; budget_period: string; budget_quota: number }): ActiveBudget | null {
  if (!token.id || !isBudgetPeriod(token.budget_period) || token.budget_quota <= 0) return null;
  return { tokenId: token.id, period: token.budget_period, quota: Number(token.budget_quota) };
}

const parsedDefaults = new WeakMap<object, GroupLimitDefaults | null>();

/** The option's map, checked once per stored value (an imported database could hold anything). */
export function groupDefaultsOf(raw: unknown): GroupLimitDefaults | null {
  if (typeof raw !== 'object' || raw === null) return null;
  if (!parsedDefaults.has(raw)) parsedDefaults.set(raw, parseGroupLimitDefaults(raw));
  return parsedDefaults.get(raw) ?? null;
}
