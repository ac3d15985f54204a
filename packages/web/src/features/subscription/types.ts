import type { PlanRecord } from '../../lib/subscriptions';

/** What the plan form sends (`{plan: …}`), as the family's create and update take it. */
export type PlanInput = Omit<PlanRecord, 'id' | 'created_at' | 'updated_at' | 'subscriber_count'>;

/** A new plan's starting values: a month, quota that never resets, sold for the wallet balance. */
export const NEW_PLAN: PlanInput = {
  title: '',
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
  quota_reset_period: 'monthly',
  quota_reset_custom_seconds: 0,
  allow_balance_pay: true,
};
