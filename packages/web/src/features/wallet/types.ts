// The answer shapes are declared once in @gateway/shared; this console keeps its own names for them.
import type { TopUpInfoView as TopUpInfo, TopUpView as TopUpRecord } from '@gateway/shared';

export type { TopUpInfo, TopUpRecord };

/** The gateway's payment methods this console offers (epay's `type`): Alipay and WeChat Pay. */
export type PaymentMethod = 'zfb' | 'wx';

export const PAYMENT_METHODS: readonly PaymentMethod[] = ['zfb', 'wx'];

/** Every way the online top-up card pays: the epay methods and a card through Stripe Checkout. */
export type TopUpMethod = PaymentMethod | 'stripe';

/**
 * `POST /api/user/pay` answers the epay form fields in `data` and the gateway's address in a top-level `url`:
 * pid, type, out_trade_no, notify_url, return_url, name, money, sign, sign_type.
 */
export type PayFields = Record<string, string | number>;

export interface PayOrder {
  url: string;
  fields: PayFields;
}

/** Quick picks for the online top-up amount (in units of credit, i.e. dollars when 500000 quota = $1). */
export const AMOUNT_PRESETS = [10, 20, 50, 100, 200, 500] as const;

/** The presets at or above the minimum; when the minimum is above them all, multiples of the minimum. */
export function amountPresets(min: number): number[] {
  const presets = AMOUNT_PRESETS.filter((amount) => amount >= min);
  return presets.length >= 3 ? presets : [1, 2, 5, 10, 20, 50].map((factor) => factor * min);
}

/** The smallest amount the page accepts: at least 1 and at least the operator's minimum top-up. */
export function minimumAmount(minTopUp: number | undefined): number {
  return Math.max(1, Math.ceil(Number.isFinite(minTopUp) ? (minTopUp as number) : 1));
}

/** The operator's quick picks at or above the minimum; without usable ones, the defaults for that minimum. */
export function presetsFrom(options: number[] | undefined, min: number): number[] {
  const usable = (options ?? []).filter((amount) => Number.isInteger(amount) && amount >= min);
  return usable.length > 0 ? usable : amountPresets(min);
}

/** The factor for an amount when it is a real discount (below 1), else null. */
export function discountOf(discount: Record<string, number> | undefined, amount: number): number | null {
  const factor = discount?.[String(amount)];
  return typeof factor === 'number' && factor > 0 && factor < 1 ? factor : null;
}
