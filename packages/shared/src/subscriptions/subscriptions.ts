/**
 * Subscription plans (the family's `subscription_plans`, `subscription_orders`, `user_subscriptions`): a plan gives a
 * quota per period (`total_amount`) for its duration, spent before or after the wallet as the user prefers, and may
 * move the user to another group while it is active.
 */

/** Which balance pays a relay call first (the user setting `billing_preference`; the family's four values). */
export const BillingPreference = {
  SubscriptionFirst: 'subscription_first',
  WalletFirst: 'wallet_first',
  SubscriptionOnly: 'subscription_only',
  WalletOnly: 'wallet_only',
} as const;
export type BillingPreference = (typeof BillingPreference)[keyof typeof BillingPreference];
export const BILLING_PREFERENCES: readonly BillingPreference[] = Object.values(BillingPreference);

/** Anything else (absent, misspelt) counts as the default, as in the family. */
export function normalizeBillingPreference(value: unknown): BillingPreference {
  return BILLING_PREFERENCES.includes(value as BillingPreference)
    ? (value as BillingPreference)
    : BillingPreference.SubscriptionFirst;
}

/** How often a plan's period quota starts again (`quota_reset_period`). */
export const QuotaResetPeriod = {
  Never: 'never',
  Daily: 'daily',
  Weekly: 'weekly',
  Monthly: 'monthly',
  Custom: 'custom',
} as const;
export type QuotaResetPeriod = (typeof QuotaResetPeriod)[keyof typeof QuotaResetPeriod];
export const QUOTA_RESET_PERIODS: readonly QuotaResetPeriod[] = Object.values(QuotaResetPeriod);

/** A plan's duration unit (`duration_unit`; custom: `custom_seconds`). */
export const DurationUnit = {
  Year: 'year',
  Month: 'month',
  Day: 'day',
  Hour: 'hour',
  Custom: 'custom',
} as const;
export type DurationUnit = (typeof DurationUnit)[keyof typeof DurationUnit];
export const DURATION_UNITS: readonly DurationUnit[] = Object.values(DurationUnit);

/** `user_subscriptions.status`. */
export const SubscriptionStatus = { Active: 'active', Expired: 'expired', Cancelled: 'cancelled' } as const;
export type SubscriptionStatus = (typeof SubscriptionStatus)[keyof typeof SubscriptionStatus];

/** `user_subscriptions.source`. */
export const SubscriptionSource = { Order: 'order', Admin: 'admin', Balance: 'balance' } as const;

/** Which balance a relay call was charged to (the usage log's `other.billing_source`). */
export const BillingSource = { Wallet: 'wallet', Subscription: 'subscription' } as const;
export type BillingSource = (typeof BillingSource)[keyof typeof BillingSource];

const DAY = 86_400;

/** Seconds of one quota period (months are 30 days: windows start at the purchase time, not at midnight). */
export function resetPeriodSeconds(period: string, customSeconds: number): number {
  switch (period) {
    case QuotaResetPeriod.Daily:
      return DAY;
    case QuotaResetPeriod.Weekly:
      return 7 * DAY;
    case QuotaResetPeriod.Monthly:
      return 30 * DAY;
    case QuotaResetPeriod.Custom:
      return Math.max(customSeconds, 0);
    default:
      return 0;
  }
}

/**
 * The first period boundary after `now` of a subscription that started at `start` (period k runs from
 * start + k·period), or 0 when the quota never resets or the next boundary is past the end.
 */
export function nextResetAfter(start: number, now: number, periodSeconds: number, end: number): number {
  if (periodSeconds <= 0) return 0;
  const elapsed = Math.max(0, now - start);
  const next = start + (Math.floor(elapsed / periodSeconds) + 1) * periodSeconds;
  return end > 0 && next >= end ? 0 : next;
}

/** The end of a plan bought at `start` (calendar months and years, as the family). */
export function planEndTime(start: number, unit: string, value: number, customSeconds: number): number {
  const date = new Date(start * 1000);
  switch (unit) {
    case DurationUnit.Year:
      date.setUTCFullYear(date.getUTCFullYear() + value);
      return Math.floor(date.getTime() / 1000);
    case DurationUnit.Month:
      date.setUTCMonth(date.getUTCMonth() + value);
      return Math.floor(date.getTime() / 1000);
    case DurationUnit.Day:
      return start + value * DAY;
    case DurationUnit.Hour:
      return start + value * 3600;
    default:
      return start + Math.max(0, customSeconds);
  }
}

/** A plan as the family's API shows it (`subscription_plans`). */
export interface SubscriptionPlanView {
  id: number;
  title: string;
  subtitle: string;
  price_amount: number;
  currency: string;
  duration_unit: DurationUnit;
  duration_value: number;
  custom_seconds: number;
  enabled: boolean;
  sort_order: number;
  stripe_price_id: string;
  creem_product_id: string;
  max_purchase_per_user: number;
  upgrade_group: string;
  total_amount: number;
  quota_reset_period: QuotaResetPeriod;
  quota_reset_custom_seconds: number;
  allow_balance_pay: boolean;
  created_at: number;
  updated_at: number;
}

/** `GET /api/subscription/plans` and the admin list: each plan wrapped as the family does. */
export interface SubscriptionPlanItemView {
  plan: SubscriptionPlanView;
}

/** One subscription of a user (`user_subscriptions`). */
export interface UserSubscriptionView {
  id: number;
  user_id: number;
  plan_id: number;
  amount_total: number;
  /** Used in the current period (0 at each reset). */
  amount_used: number;
  start_time: number;
  end_time: number;
  status: SubscriptionStatus;
  source: string;
  last_reset_time: number;
  /** When the period quota starts again (0: never). */
  next_reset_time: number;
  upgrade_group: string;
  prev_user_group: string;
  created_at: number;
  updated_at: number;
}

/** A subscription with its plan (the family's SubscriptionSummary). */
export interface SubscriptionSummaryView {
  subscription: UserSubscriptionView;
  plan?: SubscriptionPlanView;
}

/** `GET /api/subscription/self`. */
export interface SubscriptionSelfView {
  billing_preference: BillingPreference;
  /** Active subscriptions. */
  subscriptions: SubscriptionSummaryView[];
  /** Every subscription, expired and cancelled included. */
  all_subscriptions: SubscriptionSummaryView[];
}

/**
 * `POST /api/subscription/epay/pay`'s whole answer (the family's, as for top-ups): the signed form fields in `data`,
 * and beside them the gateway's `url` the browser posts them to.
 */
export interface SubscriptionEpayView {
  success: true;
  message: string;
  data: Record<string, string>;
  url: string;
}
