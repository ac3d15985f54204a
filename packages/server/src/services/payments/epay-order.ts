/**
 * The pure part of an online top-up: what an amount costs and which epay payment type a console choice means.
 * No I/O, so the money rules are tested with hand-worked tables.
 */

export interface TopUpPricing {
  /** Money per unit of credit (option `Price`). */
  price: number;
  /** `TopupGroupRatio` of the payer's group (1 when the group has none). */
  groupRatio: number;
  /** `payment_setting.amount_discount`: amount → price factor (0.95 = 5% off). */
  discounts: Record<string, number>;
}

/** The discount factor for an amount: a configured factor above 0, otherwise 1 (no discount). */
export function discountFor(amount: number, discounts: Record<string, number>): number {
  const factor = Object.hasOwn(discounts, String(amount)) ? discounts[String(amount)] : undefined;
  return typeof factor === 'number' && Number.isFinite(factor) && factor > 0 ? factor : 1;
}

/** Money for `amount` units: amount × Price × group ratio × discount, rounded to cents. */
export function payableMoney(amount: number, pricing: TopUpPricing): number {
  const money = amount * pricing.price * pricing.groupRatio * discountFor(amount, pricing.discounts);
  // Rounding through toFixed on the scaled value avoids 109.49999… style float artefacts.
  return Math.round(Number((money * 100).toFixed(6))) / 100;
}

/** Reads `TopupGroupRatio` defensively: an operator's half-edited JSON must not break payments for everyone. */
export function groupRatioFor(group: string, ratios: unknown): number {
  if (!ratios || typeof ratios !== 'object') return 1;
  const ratio = Object.hasOwn(ratios, group) ? (ratios as Record<string, unknown>)[group] : undefined;
  return typeof ratio === 'number' && Number.isFinite(ratio) && ratio > 0 ? ratio : 1;
}

/** The quick-pick amounts of `payment_setting.amount_options`: positive whole numbers, sorted, without repeats. */
export function amountOptions(value: unknown): number[] {
  if (!Array.isArray(value)) return [];
  const amounts = value.filter((v): v is number => Number.isInteger(v) && v > 0);
  return [...new Set(amounts)].sort((a, b) => a - b);
}

/** Only the usable entries of `payment_setting.amount_discount` (amount → factor in (0, 1]). */
export function amountDiscounts(value: unknown): Record<string, number> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter(
      ([amount, factor]) =>
        /^[1-9]\d*$/.test(amount) && typeof factor === 'number' && Number.isFinite(factor) && factor > 0 && factor <= 1,
    ),
  ) as Record<string, number>;
}

/**
 * The console offers `zfb` (Alipay) and `wx` (WeChat Pay), the family's names; epay gateways expect `alipay` and
 * `wxpay` in the `type` field. Gateway names are accepted as they are. Anything else is not a payment method.
 */
const EPAY_TYPES: Record<string, string> = {
  zfb: 'alipay',
  alipay: 'alipay',
  wx: 'wxpay',
  wxpay: 'wxpay',
  qqpay: 'qqpay',
};

export function epayType(paymentMethod: string): string | undefined {
  return Object.hasOwn(EPAY_TYPES, paymentMethod) ? EPAY_TYPES[paymentMethod] : undefined;
}

/** The family's order number: `USR{user}NO{6 random characters}{unix seconds}`, unique per order. */
export function tradeNumber(userId: number, random: string, nowSeconds: number): string {
  return `USR${userId}NO${random}${nowSeconds}`;
}
