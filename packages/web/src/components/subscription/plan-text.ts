import type { TFunction } from 'i18next';
import type { PlanRecord } from '../../lib/subscriptions';

/** Seconds as the largest whole unit that fits (3600 → 1 hour), for custom lengths and periods. */
function secondsText(t: TFunction, seconds: number): string {
  const units = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ] as const;
  for (const [unit, size] of units) {
    if (seconds >= size && seconds % size === 0) return t(`subscription.unit_${unit}`, { count: seconds / size });
  }
  return t('subscription.unit_second', { count: seconds });
}

/** How long a plan runs once bought: "1 month", "30 days", or a custom length. */
export function durationText(
  t: TFunction,
  plan: Pick<PlanRecord, 'duration_unit' | 'duration_value' | 'custom_seconds'>,
): string {
  if (plan.duration_unit === 'custom') return secondsText(t, plan.custom_seconds);
  return t(`subscription.unit_${plan.duration_unit}`, { count: plan.duration_value });
}

/** How often the quota starts again: daily, weekly, monthly, every N (custom), or once for the whole plan. */
export function periodText(
  t: TFunction,
  plan: Pick<PlanRecord, 'quota_reset_period' | 'quota_reset_custom_seconds'>,
): string {
  if (plan.quota_reset_period === 'custom')
    return t('subscription.period_every', { length: secondsText(t, plan.quota_reset_custom_seconds) });
  return t(`subscription.period_${plan.quota_reset_period}`);
}

/** A plan's price in its own currency ("9.90 USD"). */
export function priceText(plan: Pick<PlanRecord, 'price_amount' | 'currency'>): string {
  return `${plan.price_amount.toFixed(2)} ${plan.currency || 'USD'}`;
}
