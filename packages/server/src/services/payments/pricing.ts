import type { AppContext } from '../../context.js';
import { amountDiscounts, groupRatioFor, payableMoney } from './epay-order.js';

/** The quick-pick discounts the operator set (`payment_setting.amount_discount`), usable entries only. */
export function topUpDiscounts(ctx: AppContext): Record<string, number> {
  return amountDiscounts(ctx.options.json('payment_setting.amount_discount'));
}

/**
 * What `amount` units of credit cost a user of `group` at `unitPrice` per unit (epay: `Price`; Stripe:
 * `StripeUnitPrice`): the same group ratio and amount discounts for every way of paying.
 */
export function topUpMoney(ctx: AppContext, amount: number, group: string, unitPrice: number): number {
  return payableMoney(amount, {
    price: unitPrice,
    groupRatio: groupRatioFor(group, ctx.options.json('TopupGroupRatio')),
    discounts: topUpDiscounts(ctx),
  });
}

/** `amount` units at `unitPrice` with no group ratio and no discount. */
export function listMoney(amount: number, unitPrice: number): number {
  return payableMoney(amount, { price: unitPrice, groupRatio: 1, discounts: {} });
}
