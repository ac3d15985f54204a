/** Texts of subscription plans, spread into the server's message catalogue. */
export const SUBSCRIPTION_MESSAGES = {
  subscription_plan_not_found: { zh: '套餐不存在', en: 'This plan does not exist' },
  subscription_plan_disabled: { zh: '套餐未启用', en: 'This plan is not on sale' },
  subscription_plan_invalid: { zh: '套餐参数错误：{reason}', en: 'Invalid plan: {reason}' },
  subscription_purchase_limit: {
    zh: '已达到该套餐的购买上限（{limit} 次）',
    en: 'You have reached the purchase limit of this plan ({limit})',
  },
  subscription_balance_pay_disabled: {
    zh: '该套餐不支持余额购买',
    en: 'This plan cannot be bought with the wallet balance',
  },
  subscription_balance_insufficient: { zh: '余额不足', en: 'Your balance is too low for this plan' },
  subscription_not_found: { zh: '订阅不存在', en: 'This subscription does not exist' },
  subscription_preference_invalid: { zh: '无效的计费偏好', en: 'Unknown billing preference' },
  subscription_purchase_success: { zh: '订阅购买成功', en: 'Subscription bought' },
  subscription_price_missing: {
    zh: '该套餐未配置此支付方式',
    en: 'This plan is not set up for this payment method',
  },
  relay_subscription_quota: {
    zh: '订阅额度不足',
    en: 'Your subscription quota for this period is used up',
  },
} as const satisfies Record<string, { zh: string; en: string }>;
