import { z } from 'zod';

/** Largest limit value stored (the columns are 32-bit integers on every database). */
export const LIMIT_VALUE_MAX = 2_147_483_647;

/** The three request limits a token, a user and a group default can each carry. */
export const LIMIT_KINDS = ['rpm', 'tpm', 'concurrency'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];

/** A token's or user's own limits as stored: null = none of its own (a group default may apply), 0 = unlimited. */
export interface LimitColumns {
  rpm_limit: number | null;
  tpm_limit: number | null;
  concurrency_limit: number | null;
}

export const BUDGET_PERIODS = ['day', 'week', 'month'] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];

export function isBudgetPeriod(value: unknown): value is BudgetPeriod {
  return typeof value === 'string' && (BUDGET_PERIODS as readonly string[]).includes(value);
}

const limitValue = (message: string) =>
  z.number(message).int(message).min(0, message).max(LIMIT_VALUE_MAX, message).nullable().optional();

/**
 * The limit fields of the token and user forms. Each is optional on the wire: a body without it (a script written
 * for the family) leaves the stored value as it is; null clears it.
 */
export const limitFieldsSchema = z.object({
  rpm_limit: limitValue('limit_rpm_invalid'),
  tpm_limit: limitValue('limit_tpm_invalid'),
  concurrency_limit: limitValue('limit_concurrency_invalid'),
});

/** A token's period budget: '' = none; otherwise `budget_quota` (quota units, above 0) per calendar period. */
export const budgetFieldsSchema = z.object({
  budget_period: z.union([z.literal(''), z.enum(BUDGET_PERIODS)], 'budget_period_invalid').optional(),
  budget_quota: z
    .number('budget_quota_invalid')
    .int('budget_quota_invalid')
    .min(0, 'budget_quota_invalid')
    .max(Number.MAX_SAFE_INTEGER, 'budget_quota_invalid')
    .optional(),
});

/** Checks the budget pair once both are known (after merging the stored row with the edit). */
export function budgetPairError(period: string, quota: number): 'budget_quota_required' | null {
  return period !== '' && quota <= 0 ? 'budget_quota_required' : null;
}

/** `GroupLimitDefaults`: group → default limits for users of that group without their own value. */
export type GroupLimitDefaults = Record<string, Partial<Record<LimitKind, number>>>;

/** The option's value as a map, or null when it is not one (unknown keys, negative or fractional numbers). */
export function parseGroupLimitDefaults(value: unknown): GroupLimitDefaults | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  for (const [group, limits] of Object.entries(value)) {
    if (group.trim() === '') return null;
    if (typeof limits !== 'object' || limits === null || Array.isArray(limits)) return null;
    for (const [kind, amount] of Object.entries(limits)) {
      if (!(LIMIT_KINDS as readonly string[]).includes(kind)) return null;
      if (!Number.isInteger(amount) || (amount as number) < 0 || (amount as number) > LIMIT_VALUE_MAX) return null;
    }
  }
  return value as GroupLimitDefaults;
}
