import { PaymentProvider } from '@gateway/shared';
import { creditTopUp } from '../../billing/credits.js';
import type { AppContext } from '../../context.js';
import { completeOrder, isSubscriptionTradeNo } from '../subscriptions/lifecycle.js';
import { epayVerify } from './epay.js';

/**
 * What a payment report from the gateway (the asynchronous notify or the browser's return) did:
 * `credited` this report completed the order; `settled` the order was already complete (a replay: nothing credited);
 * `unpaid` genuine, but the gateway says the payment is not finished; `rejected` forged, foreign, short-paid or for
 * an unknown order.
 */
export type EpayOutcome = 'credited' | 'settled' | 'unpaid' | 'rejected';

/** True when the operator has filled in the gateway address, merchant id and key. */
export function epayEnabled(ctx: AppContext): boolean {
  const o = ctx.options;
  return o.get('PayAddress') !== '' && o.get('EpayId') !== '' && o.get('EpayKey') !== '';
}

/**
 * Checks a gateway report and completes its order at most once. The signature (constant-time compare), the
 * merchant id and the paid money are checked against the order; billing/credits.ts completes it, so that of any
 * number of concurrent or replayed reports exactly one credits the user.
 */
export async function settleEpayReport(ctx: AppContext, params: Record<string, string>): Promise<EpayOutcome> {
  const o = ctx.options;
  if (!epayEnabled(ctx) || !epayVerify(params, o.get('EpayKey'))) return 'rejected';
  if (params.pid !== o.get('EpayId')) return 'rejected';
  const order = await ctx.repos.topUps.findByTradeNo(params.out_trade_no ?? '');
  // Redemptions and card orders share the table; only epay orders are completed by epay reports.
  if (!order || order.payment_provider !== PaymentProvider.Epay) return 'rejected';
  const money = Number(params.money);
  if (!Number.isFinite(money) || money.toFixed(2) !== order.money.toFixed(2)) return 'rejected';
  if (params.trade_status !== 'TRADE_SUCCESS') return 'unpaid';

  const quota = Math.round(order.amount * o.number('QuotaPerUnit'));
  return (await creditTopUp(ctx, order, quota)) ? 'credited' : 'settled';
}

/**
 * The same checks for a subscription order's report (`/api/subscription/epay/notify` and `/return`): genuine, this
 * merchant, the order's money, paid; then the order is completed and its plan granted once (lifecycle.ts).
 */
export async function settleSubscriptionEpayReport(
  ctx: AppContext,
  params: Record<string, string>,
): Promise<EpayOutcome> {
  const o = ctx.options;
  if (!epayEnabled(ctx) || !epayVerify(params, o.get('EpayKey'))) return 'rejected';
  if (params.pid !== o.get('EpayId')) return 'rejected';
  const tradeNo = params.out_trade_no ?? '';
  const order = isSubscriptionTradeNo(tradeNo) ? await ctx.repos.subscriptions.findOrder(tradeNo) : undefined;
  if (!order || order.payment_method === 'balance') return 'rejected';
  const money = Number(params.money);
  if (!Number.isFinite(money) || money.toFixed(2) !== Number(order.money ?? 0).toFixed(2)) return 'rejected';
  if (params.trade_status !== 'TRADE_SUCCESS') return 'unpaid';
  return (await completeOrder(ctx, tradeNo, null)) ? 'credited' : 'settled';
}
