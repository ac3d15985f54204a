import { PaymentProvider } from '@gateway/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { criticalLimit } from '../auth/critical-limit.js';
import { currentUser, guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { ApiFailure, ok } from '../http/envelope.js';
import { parseBody } from '../http/validation.js';
import { insertCardOrder } from '../services/payments/card-order.js';
import {
  CREEM_SIGNATURE_HEADER,
  createCreemCheckout,
  creemEnabled,
  creemProducts,
  handleCreemEvent,
  verifyCreemSignature,
} from '../services/payments/creem.js';
import { listMoney, topUpMoney } from '../services/payments/pricing.js';
import {
  createStripeCheckout,
  handleStripeEvent,
  stripeEnabled,
  verifyStripeEvent,
} from '../services/payments/stripe.js';

const stripeAmountSchema = z.object({
  amount: z.number({ error: 'pay_amount_invalid' }).int('pay_amount_invalid').positive('pay_amount_invalid'),
});
const stripePaySchema = stripeAmountSchema.extend({
  payment_method: z.literal('stripe', { error: 'pay_method_invalid' }),
});
const creemPaySchema = z.object({
  product_id: z.string({ error: 'pay_product_invalid' }).min(1, 'pay_product_invalid').max(128, 'pay_product_invalid'),
  payment_method: z.literal('creem', { error: 'pay_method_invalid' }),
});

/** Webhook payloads are small JSON documents; the signature covers the exact bytes, so they are kept as bytes. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * Card top-ups through Stripe Checkout and Creem (the family's routes and answers). The user's request creates a
 * pending order and the provider's hosted checkout; only the provider's signed webhook completes and credits it.
 */
export async function cardPaymentRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user: requireUser } = guards(ctx);
  const o = ctx.options;
  const critical = criticalLimit(ctx);
  /** Where the hosted checkout sends the payer back (the wallet; the webhook decides whether it was paid). */
  const walletUrl = (query: string) => `${o.get('ServerAddress').replace(/\/+$/, '')}/topup${query}`;

  const stripeQuote = (amount: number, group: string) => {
    const min = o.number('StripeMinTopUp');
    if (amount < min) throw new ApiFailure('pay_amount_too_small', { min });
    return topUpMoney(ctx, amount, group, o.number('StripeUnitPrice'));
  };

  app.post('/api/user/stripe/amount', { preHandler: requireUser }, async (request) => {
    const { amount } = parseBody(stripeAmountSchema, request.body);
    return ok(stripeQuote(amount, currentUser(request).group).toFixed(2), 'success');
  });

  app.post('/api/user/stripe/pay', { preHandler: [requireUser, critical] }, async (request) => {
    if (!stripeEnabled(ctx)) throw new ApiFailure('pay_not_enabled');
    if (!o.get('ServerAddress')) throw new ApiFailure('pay_server_address_missing');
    const user = currentUser(request);
    const { amount } = parseBody(stripePaySchema, request.body);
    const money = stripeQuote(amount, user.group);
    // Without a discount or a group ratio the configured Price is bought `amount` times (services/payments/stripe.ts).
    const listPrice = money === listMoney(amount, o.number('StripeUnitPrice'));
    const tradeNo = await insertCardOrder(ctx, { userId: user.id, amount, money, provider: PaymentProvider.Stripe });
    const payLink = await startCheckout(request, tradeNo, () =>
      createStripeCheckout(ctx, {
        tradeNo,
        amount,
        money,
        listPrice,
        email: user.email ?? '',
        successUrl: walletUrl('?pay=pending'),
        cancelUrl: walletUrl(''),
      }),
    );
    return ok({ pay_link: payLink }, 'success');
  });

  app.post('/api/user/creem/pay', { preHandler: [requireUser, critical] }, async (request) => {
    if (!creemEnabled(ctx)) throw new ApiFailure('pay_not_enabled');
    if (!o.get('ServerAddress')) throw new ApiFailure('pay_server_address_missing');
    const user = currentUser(request);
    const { product_id } = parseBody(creemPaySchema, request.body);
    const product = creemProducts(ctx).find((entry) => entry.productId === product_id);
    if (!product) throw new ApiFailure('pay_product_invalid');
    const tradeNo = await insertCardOrder(ctx, {
      userId: user.id,
      amount: product.quota,
      money: product.price,
      provider: PaymentProvider.Creem,
    });
    const checkoutUrl = await startCheckout(request, tradeNo, () =>
      createCreemCheckout(ctx, {
        tradeNo,
        product,
        email: user.email ?? '',
        username: user.username,
        successUrl: walletUrl('?pay=pending'),
      }),
    );
    return ok({ checkout_url: checkoutUrl, order_id: tradeNo }, 'success');
  });

  /** The provider refused or was unreachable: the order can never be paid, and the user gets a plain failure. */
  async function startCheckout(request: FastifyRequest, tradeNo: string, create: () => Promise<string>) {
    try {
      return await create();
    } catch (error) {
      await ctx.repos.topUps.markFailed(tradeNo);
      // Only the kind of failure and the HTTP status: never the request (it carries the key) nor the provider's text.
      const { type, statusCode } = error as { type?: string; statusCode?: number };
      request.log.warn(
        { reqId: request.id, tradeNo, failure: type ?? (error as Error).name, status: statusCode },
        'card checkout not created',
      );
      throw new ApiFailure('pay_checkout_failed');
    }
  }

  // The webhooks read the raw bytes their signature covers, so their JSON is not parsed before verification.
  await app.register(async (webhooks) => {
    webhooks.removeAllContentTypeParsers();
    webhooks.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );
    const rawBody = (request: FastifyRequest) => (Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));
    const header = (request: FastifyRequest, name: string) => String(request.headers[name] ?? '');

    // Stripe: 400 for a delivery that is not genuine (or too old), 200 once handled, 500 (retried) on our failure.
    webhooks.post('/api/stripe/webhook', { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
      const event = await verifyStripeEvent(ctx, rawBody(request), header(request, 'stripe-signature'));
      if (!event) return refuse(request, reply, 400, 'stripe');
      const outcome = await handleStripeEvent(ctx, event);
      request.log.info({ reqId: request.id, type: event.type, outcome }, 'stripe webhook');
      return reply.code(200).send({ received: true });
    });

    webhooks.post('/api/creem/webhook', { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
      const body = rawBody(request);
      if (!verifyCreemSignature(ctx, body, header(request, CREEM_SIGNATURE_HEADER))) {
        return refuse(request, reply, 401, 'creem');
      }
      let event: unknown;
      try {
        event = JSON.parse(body.toString('utf8'));
      } catch {
        return reply.code(400).send();
      }
      const outcome = await handleCreemEvent(ctx, event as Parameters<typeof handleCreemEvent>[1]);
      request.log.info({ reqId: request.id, outcome }, 'creem webhook');
      return reply.code(200).send();
    });
  });
}

function refuse(request: FastifyRequest, reply: FastifyReply, status: number, provider: string) {
  request.log.warn({ reqId: request.id, provider }, 'payment webhook signature refused');
  return reply.code(status).send();
}
