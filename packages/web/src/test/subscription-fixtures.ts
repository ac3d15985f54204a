import type { SubscriptionPlanView, SubscriptionSummaryView } from '@gateway/shared';
import { NEW_PLAN } from '../features/subscription/types';

/**
 * A plan as the server answers it: the plan form's starting values ($10 a month, 5,000,000 quota per period)
 * named "Pro" and reset weekly; tests change what they need.
 */
export function planFixture(overrides: Partial<SubscriptionPlanView> = {}): SubscriptionPlanView {
  return {
    ...NEW_PLAN,
    id: 3,
    title: 'Pro',
    quota_reset_period: 'weekly',
    created_at: 1_760_000_000,
    updated_at: 1_760_000_000,
    ...overrides,
  };
}

/** A user's subscription to `plan`, started 2025-10-09, active, with `overrides` on top. */
export function subscriptionFixture(
  plan: SubscriptionPlanView,
  overrides: Partial<SubscriptionSummaryView['subscription']> = {},
): SubscriptionSummaryView['subscription'] {
  return {
    id: 9,
    user_id: 1,
    plan_id: plan.id,
    amount_total: plan.total_amount,
    amount_used: 0,
    start_time: 1_760_000_000,
    end_time: 1_762_592_000,
    status: 'active',
    source: 'balance',
    last_reset_time: 1_760_000_000,
    next_reset_time: 1_760_604_800,
    upgrade_group: plan.upgrade_group,
    prev_user_group: '',
    created_at: 1_760_000_000,
    updated_at: 1_760_000_000,
    ...overrides,
  };
}
