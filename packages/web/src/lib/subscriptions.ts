/**
 * Subscription plans as the console reads them (the family's `/api/subscription/...` answers). The answer shapes are
 * declared here until @gateway/shared carries them (the server side lands in its own branch); the wallet, the users
 * page and the plans page all read them, so they live outside any one feature, as do the query keys they share.
 */

export type BillingPreference = 'subscription_first' | 'wallet_first' | 'subscription_only' | 'wallet_only';
export const BILLING_PREFERENCE_CHOICES: readonly BillingPreference[] = [
  'subscription_first',
  'wallet_first',
  'subscription_only',
  'wallet_only',
];

export type PlanResetPeriod = 'never' | 'daily' | 'weekly' | 'monthly' | 'custom';
export const PLAN_RESET_PERIODS: readonly PlanResetPeriod[] = ['never', 'daily', 'weekly', 'monthly', 'custom'];

export type PlanDurationUnit = 'year' | 'month' | 'day' | 'hour' | 'custom';
export const PLAN_DURATION_UNITS: readonly PlanDurationUnit[] = ['year', 'month', 'day', 'hour', 'custom'];

/** One plan (`subscription_plans`). `price_amount` is money; `total_amount` the quota of each period. */
export interface PlanRecord {
  id: number;
  title: string;
  subtitle: string;
  price_amount: number;
  currency: string;
  duration_unit: PlanDurationUnit;
  duration_value: number;
  custom_seconds: number;
  enabled: boolean;
  sort_order: number;
  stripe_price_id: string;
  creem_product_id: string;
  max_purchase_per_user: number;
  upgrade_group: string;
  total_amount: number;
  quota_reset_period: PlanResetPeriod;
  quota_reset_custom_seconds: number;
  allow_balance_pay: boolean;
  created_at: number;
  updated_at: number;
  /** Active subscribers, when the server counts them. */
  subscriber_count?: number;
}

/** The plan lists wrap each plan (`{plan}`), as the family does. */
export interface PlanEntry {
  plan: PlanRecord;
  subscriber_count?: number;
}

/** One subscription of a user (`user_subscriptions`). `amount_used` counts the current period. */
export interface SubscriptionRecord {
  id: number;
  user_id: number;
  plan_id: number;
  amount_total: number;
  amount_used: number;
  start_time: number;
  end_time: number;
  status: 'active' | 'expired' | 'cancelled' | string;
  source: string;
  last_reset_time: number;
  next_reset_time: number;
  upgrade_group: string;
  prev_user_group: string;
  created_at: number;
  updated_at: number;
}

/** A subscription with its plan (the family's SubscriptionSummary). */
export interface SubscriptionEntry {
  subscription: SubscriptionRecord;
  plan?: PlanRecord;
}

/** `GET /api/subscription/self`. */
export interface SubscriptionSelf {
  billing_preference: BillingPreference;
  subscriptions: SubscriptionEntry[] | null;
  all_subscriptions: SubscriptionEntry[] | null;
}

/** Every subscription query starts with this: buying, resetting or granting refreshes them all. */
export const subscriptionQueryKey = ['subscription'] as const;
export const subscriptionSelfQueryKey = [...subscriptionQueryKey, 'self'] as const;
export const subscriptionPlansQueryKey = [...subscriptionQueryKey, 'plans'] as const;
export const adminPlansQueryKey = [...subscriptionQueryKey, 'admin-plans'] as const;

/** The plan of a list entry, whichever way the server wrapped it. */
export function planOf(entry: PlanEntry | PlanRecord): PlanRecord {
  return 'plan' in entry && entry.plan
    ? { ...entry.plan, subscriber_count: entry.subscriber_count ?? entry.plan.subscriber_count }
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
