import { PaymentProvider, TopUpStatus } from '@gateway/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { criticalLimit } from '../auth/critical-limit.js';
import { currentUser, guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { nowSeconds } from '../db/sql-helpers.js';
import { ApiFailure, ok } from '../http/envelope.js';
import { parseBody } from '../http/validation.js';
import { creemConfigured, creemEnabled, creemProducts } from '../services/payments/creem.js';
import { epaySign } from '../services/payments/epay.js';
import { amountOptions, epayType, tradeNumber } from '../services/payments/epay-order.js';
import { epayEnabled, settleEpayReport } from '../services/payments/epay-settle.js';
import { topUpDiscounts, topUpMoney } from '../services/payments/pricing.js';
import { stripeEnabled } from '../services/payments/stripe.js';
import { randomText } from './token.js';

const amountSchema = z.object({
  amount: z.number({ error: 'pay_amount_invalid' }).int('pay_amount_invalid').positive('pay_amount_invalid'),
  top_up_code: z.string().optional(),
});
const paySchema = amountSchema.extend({
  payment_method: z.string({ error: 'pay_method_invalid' }).max(32, 'pay_method_invalid'),
});

/** A gateway report arrives as a query (GET) or a form (POST); all values are read as text. */
function reportParams(request: FastifyRequest): Record<string, string> {
  const merged = { ...(request.query as object), ...((request.body as object) ?? {}) };
  return Object.fromEntries(Object.entries(merged).map(([key, value]) => [key, String(value)]));
}

export async function paymentRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user: requireUser } = guards(ctx);
  const o = ctx.options;
  const trimSlash = (url: string) => url.replace(/\/+$/, '');

  const payable = (amount: number, group: string) => topUpMoney(ctx, amount, group, o.number('Price'));
  const checkAmount = (amount: number) => {
    const min = o.number('MinTopUp');
    if (amount < min) throw new ApiFailure('pay_amount_too_small', { min });
  };

  // What the wallet needs before the user types anything: whether online top-up is on, its minimum, quick picks.
  app.get('/api/user/topup/info', { preHandler: requireUser }, async () =>
    ok({
      enable_online_topup: epayEnabled(ctx),
      min_topup: o.number('MinTopUp'),
      price: o.number('Price'),
      amount_options: amountOptions(o.json('payment_setting.amount_options')),
      discount: topUpDiscounts(ctx),
      enable_stripe_topup: stripeEnabled(ctx),
      stripe_min_topup: o.number('StripeMinTopUp'),
      enable_creem_topup: creemEnabled(ctx),
      enable_creem_subscription: creemConfigured(ctx),
      // The family sends the option's text; only checked entries, so a product the server refuses is never offered.
      creem_products: JSON.stringify(creemProducts(ctx)),
    }),
  );

  app.post('/api/user/amount', { preHandler: requireUser }, async (request) => {
    const { amount } = parseBody(amountSchema, request.body);
    checkAmount(amount);
    return ok(payable(amount, currentUser(request).group).toFixed(2));
  });

  // Creates a pending order and hands the console the gateway's form fields to submit.
  app.post('/api/user/pay', { preHandler: [requireUser, criticalLimit(ctx)] }, async (request) => {
    if (!epayEnabled(ctx)) throw new ApiFailure('pay_not_enabled');
    const user = currentUser(request);
    const { amount, payment_method } = parseBody(paySchema, request.body);
    const type = epayType(payment_method);
    if (!type) throw new ApiFailure('pay_method_invalid');
    checkAmount(amount);
    const callbackBase = trimSlash(o.get('CustomCallbackAddress') || o.get('ServerAddress'));
    if (!callbackBase) throw new ApiFailure('pay_server_address_missing');
    const money = payable(amount, user.group).toFixed(2);
    const tradeNo = tradeNumber(user.id, randomText(6), nowSeconds());
    await ctx.repos.topUps.insert({
      user_id: user.id,
      amount,
      money: Number(money),
      trade_no: tradeNo,
      payment_method: type,
      payment_provider: PaymentProvider.Epay,
      status: TopUpStatus.Pending,
    });
    const params: Record<string, string> = {
      pid: o.get('EpayId'),
      type,
      out_trade_no: tradeNo,
      notify_url: `${callbackBase}/api/user/epay/notify`,
      // The browser comes back through the server, which checks the signed result and lands it on the wallet.
      return_url: `${trimSlash(o.get('ServerAddress') || callbackBase)}/api/user/epay/return`,
      name: `TUC${amount}`,
      money,
    };
    const data = { ...params, sign: epaySign(params, o.get('EpayKey')), sign_type: 'MD5' };
    return { success: true, message: 'success', data, url: `${trimSlash(o.get('PayAddress'))}/submit.php` };
  });

  /**
   * The gateway's asynchronous notification. The protocol's answer is plain `success` (stop retrying: also for a
   * replay of a completed order, which credits nothing) or `fail`.
   */
  const notify = async (request: FastifyRequest, reply: FastifyReply) => {
    const outcome = await settleEpayReport(ctx, reportParams(request));
    return reply.type('text/plain').send(outcome === 'credited' || outcome === 'settled' ? 'success' : 'fail');
  };
  app.get('/api/user/epay/notify', notify);
  app.post('/api/user/epay/notify', notify);

  /**
   * Where the gateway sends the payer's browser afterwards, with the same signed fields as the notification. A
   * genuine report completes the order here too (whichever of the two arrives first credits; the other finds it
   * done), so a late notification does not leave the payer looking at an unchanged balance.
   */
  const back = async (request: FastifyRequest, reply: FastifyReply) => {
    const outcome = await settleEpayReport(ctx, reportParams(request));
    const result =
      outcome === 'credited' || outcome === 'settled' ? 'success' : outcome === 'unpaid' ? 'pending' : 'fail';
    return reply.redirect(`/topup?pay=${result}`, 302);
  };
  app.get('/api/user/epay/return', back);
  app.post('/api/user/epay/return', back);
}
