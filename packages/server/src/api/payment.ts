import { formatQuota, LogType, TopUpStatus } from '@gateway/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { criticalLimit } from '../auth/critical-limit.js';
import { currentUser, guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { nowSeconds } from '../db/sql-helpers.js';
import { ApiFailure, ok } from '../http/envelope.js';
import { parseBody } from '../http/validation.js';
import { epaySign, epayVerify } from '../services/epay.js';
import { randomText } from './token.js';

const amountSchema = z.object({
  amount: z.number({ error: 'pay_amount_invalid' }).int('pay_amount_invalid').positive('pay_amount_invalid'),
  top_up_code: z.string().optional(),
});
const paySchema = amountSchema.extend({ payment_method: z.string().min(1, 'pay_method_invalid').max(32) });

/** Money to pay for `amount` units: Price per unit × the user's group top-up ratio, two decimals. */
function payable(ctx: AppContext, amount: number, group: string): number {
  const ratios = ctx.options.json<Record<string, number>>('TopupGroupRatio') ?? {};
  const ratio = ratios[group] ?? 1;
  return Math.round(amount * ctx.options.number('Price') * ratio * 100) / 100;
}

export async function paymentRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user: requireUser } = guards(ctx);
  const o = ctx.options;
  const enabled = () => o.get('PayAddress') !== '' && o.get('EpayId') !== '' && o.get('EpayKey') !== '';

  const checkAmount = (amount: number) => {
    const min = o.number('MinTopUp');
    if (amount < min) throw new ApiFailure('pay_amount_too_small', { min });
  };

  app.post('/api/user/amount', { preHandler: requireUser }, async (request) => {
    const { amount } = parseBody(amountSchema, request.body);
    checkAmount(amount);
    return ok(payable(ctx, amount, currentUser(request).group).toFixed(2));
  });

  // Creates a pending order and hands the console the gateway's form fields to submit.
  app.post('/api/user/pay', { preHandler: [requireUser, criticalLimit(ctx)] }, async (request) => {
    if (!enabled()) throw new ApiFailure('pay_not_enabled');
    const user = currentUser(request);
    const { amount, payment_method } = parseBody(paySchema, request.body);
    checkAmount(amount);
    const callbackBase = (o.get('CustomCallbackAddress') || o.get('ServerAddress')).replace(/\/+$/, '');
    if (!callbackBase) throw new ApiFailure('pay_server_address_missing');
    const money = payable(ctx, amount, user.group).toFixed(2);
    const tradeNo = `USR${user.id}NO${randomText(6)}${nowSeconds()}`;
    await ctx.repos.topUps.insert({
      user_id: user.id,
      amount,
      money: Number(money),
      trade_no: tradeNo,
      payment_method,
      status: TopUpStatus.Pending,
    });
    const params: Record<string, string> = {
      pid: o.get('EpayId'),
      type: payment_method,
      out_trade_no: tradeNo,
      notify_url: `${callbackBase}/api/user/epay/notify`,
      return_url: `${(o.get('ServerAddress') || callbackBase).replace(/\/+$/, '')}/log`,
      name: `TUC${amount}`,
      money,
    };
    const data = { ...params, sign: epaySign(params, o.get('EpayKey')), sign_type: 'MD5' };
    return { success: true, message: 'success', data, url: `${o.get('PayAddress').replace(/\/+$/, '')}/submit.php` };
  });

  /**
   * The gateway's asynchronous notification (GET or POST form). Signature, merchant and amount are checked against
   * the order; the order goes pending → success once (a replayed notification credits nothing); the answer is
   * the protocol's plain `success` / `fail`.
   */
  const notify = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = Object.fromEntries(
      Object.entries({ ...(request.query as object), ...((request.body as object) ?? {}) }).map(([k, v]) => [
        k,
        String(v),
      ]),
    );
    const fail = () => reply.type('text/plain').send('fail');
    if (!enabled() || !epayVerify(params, o.get('EpayKey'))) return fail();
    if (params.pid !== o.get('EpayId') || params.trade_status !== 'TRADE_SUCCESS') return fail();
    const order = await ctx.repos.topUps.findByTradeNo(params.out_trade_no ?? '');
    if (!order || Number(params.money).toFixed(2) !== order.money.toFixed(2)) return fail();
    const quota = Math.round(order.amount * o.number('QuotaPerUnit'));
    const display = { quotaPerUnit: o.number('QuotaPerUnit'), displayInCurrency: true };
    const credited = await ctx.db.kysely.transaction().execute(async (trx) => {
      if (!(await ctx.repos.topUps.completePending(trx, order.trade_no))) return false;
      await ctx.repos.users.addQuotaIn(trx, order.user_id, quota);
      await trx
        .insertInto('logs')
        .values({
          user_id: order.user_id,
          created_at: nowSeconds(),
          type: LogType.TopUp,
          quota,
          content: `在线充值成功，充值额度: ${formatQuota(quota, display)}，支付金额：${order.money.toFixed(2)}`,
          other: '',
        })
        .execute();
      return true;
    });
    if (credited) ctx.ledger.credit('user', order.user_id, quota);
    // A replay of a completed order is acknowledged so the gateway stops retrying, but credits nothing.
    return reply.type('text/plain').send('success');
  };
  app.get('/api/user/epay/notify', notify);
  app.post('/api/user/epay/notify', notify);
}
