import {
  DURATION_UNITS,
  type DurationUnit,
  QUOTA_RESET_PERIODS,
  type QuotaResetPeriod,
  QuotaResetPeriod as Reset,
  type SubscriptionPlanView,
  type SubscriptionSummaryView,
  type UserSubscriptionView,
} from '@gateway/shared';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { SubscriptionPlanRow, UserSubscriptionRow } from '../../db/schema.js';
import { ApiFailure } from '../../http/envelope.js';

const truthy = (value: unknown) => value === true || value === 1 || value === '1' || value === 't';

export function planView(row: SubscriptionPlanRow): SubscriptionPlanView {
  return {
    id: row.id,
    title: row.title,
    subtitle: row.subtitle ?? '',
    price_amount: Number(row.price_amount ?? 0),
    currency: row.currency || 'USD',
    duration_unit: (row.duration_unit || 'month') as DurationUnit,
    duration_value: Number(row.duration_value ?? 1),
    custom_seconds: Number(row.custom_seconds ?? 0),
    enabled: truthy(row.enabled),
    sort_order: Number(row.sort_order ?? 0),
    stripe_price_id: row.stripe_price_id ?? '',
    creem_product_id: row.creem_product_id ?? '',
    max_purchase_per_user: Number(row.max_purchase_per_user ?? 0),
    upgrade_group: row.upgrade_group ?? '',
    total_amount: Number(row.total_amount ?? 0),
    quota_reset_period: (QUOTA_RESET_PERIODS.includes(row.quota_reset_period as QuotaResetPeriod)
      ? row.quota_reset_period
      : Reset.Never) as QuotaResetPeriod,
    quota_reset_custom_seconds: Number(row.quota_reset_custom_seconds ?? 0),
    allow_balance_pay: row.allow_balance_pay === null ? true : truthy(row.allow_balance_pay),
    created_at: Number(row.created_at ?? 0),
    updated_at: Number(row.updated_at ?? 0),
  };
}

export function subscriptionView(row: UserSubscriptionRow): UserSubscriptionView {
  return {
    id: row.id,
    user_id: Number(row.user_id ?? 0),
    plan_id: Number(row.plan_id ?? 0),
    amount_total: Number(row.amount_total ?? 0),
    amount_used: Number(row.amount_used ?? 0),
    start_time: Number(row.start_time ?? 0),
    end_time: Number(row.end_time ?? 0),
    status: (row.status ?? 'active') as UserSubscriptionView['status'],
    source: row.source ?? 'order',
    last_reset_time: Number(row.last_reset_time ?? 0),
    next_reset_time: Number(row.next_reset_time ?? 0),
    upgrade_group: row.upgrade_group ?? '',
    prev_user_group: row.prev_user_group ?? '',
    created_at: Number(row.created_at ?? 0),
    updated_at: Number(row.updated_at ?? 0),
  };
}

/** Each subscription with its plan (the family's SubscriptionSummary), plans read once. */
export async function summaries(ctx: AppContext, rows: UserSubscriptionRow[]): Promise<SubscriptionSummaryView[]> {
  const plans = new Map<number, SubscriptionPlanView | undefined>();
  for (const id of new Set(rows.map((row) => Number(row.plan_id ?? 0)))) {
    const plan = await ctx.repos.subscriptions.findPlan(id);
    plans.set(id, plan ? planView(plan) : undefined);
  }
  return rows.map((row) => {
    const plan = plans.get(Number(row.plan_id ?? 0));
    return plan ? { subscription: subscriptionView(row), plan } : { subscription: subscriptionView(row) };
  });
}

/** The plan an admin submits (`{plan: {...}}`, the family's request), validated; unknown fields are ignored. */
export const planInputSchema = z.object({
  title: z.string().trim().min(1, 'title').max(128, 'title'),
  subtitle: z.string().max(255).optional().default(''),
  price_amount: z.number().min(0, 'price_amount').max(1e9),
  currency: z.string().max(8).optional().default('USD'),
  duration_unit: z
    .enum(DURATION_UNITS as [DurationUnit, ...DurationUnit[]])
    .optional()
    .default('month'),
  duration_value: z.number().int().min(0).max(100_000).optional().default(1),
  custom_seconds: z.number().int().min(0).optional().default(0),
  enabled: z.boolean().optional().default(true),
  sort_order: z.number().int().optional().default(0),
  stripe_price_id: z.string().max(128).optional().default(''),
  creem_product_id: z.string().max(128).optional().default(''),
  max_purchase_per_user: z.number().int().min(0, 'max_purchase_per_user').optional().default(0),
  upgrade_group: z.string().trim().max(64).optional().default(''),
  total_amount: z.number().int().positive('total_amount'),
  quota_reset_period: z
    .enum(QUOTA_RESET_PERIODS as [QuotaResetPeriod, ...QuotaResetPeriod[]])
    .optional()
    .default('never'),
  quota_reset_custom_seconds: z.number().int().min(0).optional().default(0),
  allow_balance_pay: z.boolean().optional().default(true),
});
export type PlanInput = z.infer<typeof planInputSchema>;

/** The checks zod cannot make alone: a custom length or period needs its seconds, a group must exist. */
export function checkPlan(ctx: AppContext, plan: PlanInput): PlanInput {
  const invalid = (reason: string) => new ApiFailure('subscription_plan_invalid', { reason });
  if (plan.duration_unit === 'custom' ? plan.custom_seconds <= 0 : plan.duration_value <= 0) {
    throw invalid(plan.duration_unit === 'custom' ? 'custom_seconds' : 'duration_value');
  }
  if (plan.quota_reset_period === 'custom' && plan.quota_reset_custom_seconds <= 0) {
    throw invalid('quota_reset_custom_seconds');
  }
  if (plan.upgrade_group) {
    const groups = ctx.options.json<Record<string, number>>('GroupRatio') ?? {};
    if (!(plan.upgrade_group in groups)) throw invalid('upgrade_group');
  }
  return plan;
}
