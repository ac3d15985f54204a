import type { SubscriptionPlanView, SubscriptionSummaryView } from '@gateway/shared';

/** A plan as the server answers it: "Pro", $10 a month, 5,000,000 quota per period; tests change what they need. */
export function planFixture(overrides: Partial<SubscriptionPlanView> = {}): SubscriptionPlanView {
  return {
    id: 3,
    title: 'Pro',
    subtitle: '',
    price_amount: 10,
    currency: 'USD',
    duration_unit: 'month',
    duration_value: 1,
    custom_seconds: 0,
    enabled: true,
    sort_order: 0,
    stripe_price_id: '',
    creem_product_id: '',
    max_purchase_per_user: 0,
    upgrade_group: '',
    total_amount: 5_000_000,
    quota_reset_period: 'weekly',
    quota_reset_custom_seconds: 0,
    allow_balance_pay: true,
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
