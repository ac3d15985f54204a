import { formatQuota, LogType, logFacts } from '@gateway/shared';
import type { AppContext } from '../../context.js';
import { nowSeconds } from '../../db/sql-helpers.js';
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
 * merchant id and the paid money are checked against the order; the pending → success update is conditional, so
 * of any number of concurrent or replayed reports exactly one credits the user, inside one transaction with the
 * top-up log.
 */
export async function settleEpayReport(ctx: AppContext, params: Record<string, string>): Promise<EpayOutcome> {
  const o = ctx.options;
  if (!epayEnabled(ctx) || !epayVerify(params, o.get('EpayKey'))) return 'rejected';
  if (params.pid !== o.get('EpayId')) return 'rejected';
  const order = await ctx.repos.topUps.findByTradeNo(params.out_trade_no ?? '');
  // Redemptions share the table (trade numbers REDEEM…); only epay orders are completed by epay reports.
  if (!order || order.payment_method === 'redemption') return 'rejected';
  const money = Number(params.money);
  if (!Number.isFinite(money) || money.toFixed(2) !== order.money.toFixed(2)) return 'rejected';
  if (params.trade_status !== 'TRADE_SUCCESS') return 'unpaid';

  const quota = Math.round(order.amount * o.number('QuotaPerUnit'));
  const display = { quotaPerUnit: o.number('QuotaPerUnit'), displayInCurrency: true };
  const payer = await ctx.repos.users.findById(order.user_id);
  const credited = await ctx.db.kysely.transaction().execute(async (trx) => {
    if (!(await ctx.repos.topUps.completePending(trx, order.trade_no))) return false;
    await ctx.repos.users.addQuotaIn(trx, order.user_id, quota);
    await trx
      .insertInto('logs')
      .values({
        user_id: order.user_id,
        username: payer?.username ?? '',
        created_at: nowSeconds(),
        type: LogType.TopUp,
        quota,
        content: `在线充值成功，充值额度: ${formatQuota(quota, display)}，支付金额：${order.money.toFixed(2)}`,
        other: logFacts('topup_online', { quota, money: order.money.toFixed(2) }),
      })
      .execute();
    return true;
  });
  if (!credited) return 'settled';
  ctx.ledger.credit('user', order.user_id, quota);
  return 'credited';
}
