/** Texts of card payments (Stripe, Creem), spread into the server's message catalogue. */
export const CARD_PAYMENT_MESSAGES = {
  pay_checkout_failed: {
    zh: '拉起支付失败，请稍后再试',
    en: 'The payment could not be started; please try again later',
  },
  pay_product_invalid: { zh: '产品不存在', en: 'This product does not exist' },
  option_bad_creem_products: {
    zh: '{key} 必须是产品数组：[{"productId": "…", "name": "…", "price": 价格 > 0, "currency": "USD", "quota": 正整数额度}]',
    en: '{key} must be an array of products: [{"productId": "…", "name": "…", "price": price > 0, "currency": "USD", "quota": whole quota > 0}]',
  },
} as const satisfies Record<string, { zh: string; en: string }>;
