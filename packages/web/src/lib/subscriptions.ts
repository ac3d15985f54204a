// Subscription plans as the console reads them (the family's `/api/subscription/...` answers). The shapes are
// declared once in @gateway/shared; the wallet, the users page and the plans page all read them, so the console's
// names for them, and the query keys they share, live here rather than in any one feature.
import {
  BILLING_PREFERENCES,
  type BillingPreference,
  DURATION_UNITS,
  type DurationUnit,
  QUOTA_RESET_PERIODS,
  type QuotaResetPeriod,
  type SubscriptionPlanItemView,
  type SubscriptionPlanView,
  type SubscriptionSelfView,
  type SubscriptionSummaryView,
  type UserSubscriptionView,
} from '@gateway/shared';

export type { BillingPreference };
export type PlanResetPeriod = QuotaResetPeriod;
export type PlanDurationUnit = DurationUnit;
export const BILLING_PREFERENCE_CHOICES = BILLING_PREFERENCES;
export const PLAN_RESET_PERIODS = QUOTA_RESET_PERIODS;
export const PLAN_DURATION_UNITS = DURATION_UNITS;

/** One plan (`subscription_plans`): `price_amount` is money, `total_amount` the quota of each period. */
export type PlanRecord = SubscriptionPlanView & {
  /** Active subscribers, when the server counts them (the family's list does not). */
  subscriber_count?: number;
};

/** The plan lists wrap each plan (`{plan}`), as the family does. */
export type PlanEntry = SubscriptionPlanItemView & { subscriber_count?: number };

/** One subscription of a user (`user_subscriptions`); `amount_used` counts the current period. */
export type SubscriptionRecord = UserSubscriptionView;

/** A subscription with its plan (the family's SubscriptionSummary). */
export type SubscriptionEntry = SubscriptionSummaryView;

/** `GET /api/subscription/self`. */
export type SubscriptionSelf = SubscriptionSelfView;

/** Every subscription query starts with this: buying, resetting or granting refreshes them all. */
export const subscriptionQueryKey = ['subscription'] as const;
export const subscriptionSelfQueryKey = [...subscriptionQueryKey, 'self'] as const;
export const subscriptionPlansQueryKey = [...subscriptionQueryKey, 'plans'] as const;
export const adminPlansQueryKey = [...subscriptionQueryKey, 'admin-plans'] as const;

/** The plan of a list entry, whichever way the server wrapped it. */
export function planOf(entry: PlanEntry | PlanRecord): PlanRecord {
  return 'plan' in entry && entry.plan
    ? { ...entry.plan, subscriber_count: entry.subscriber_count ?? (entry.plan as PlanRecord).subscriber_count }
    : (entry as PlanRecord);
}

/** What is left of the period quota (never below zero). */
export function quotaLeft(subscription: Pick<SubscriptionRecord, 'amount_total' | 'amount_used'>): number {
  return Math.max(0, subscription.amount_total - subscription.amount_used);
}

/** The part of the period quota used, 0–100. */
export function usedPercent(subscription: Pick<SubscriptionRecord, 'amount_total' | 'amount_used'>): number {
  if (subscription.amount_total <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((subscription.amount_used / subscription.amount_total) * 100)));
}
