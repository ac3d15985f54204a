import { randomBytes } from 'node:crypto';
import {
  BILLING_PREFERENCES,
  type BillingPreference,
  normalizeBillingPreference,
  type SubscriptionEpayView,
  type SubscriptionPlanItemView,
  type SubscriptionSelfView,
  SubscriptionStatus,
  TopUpStatus,
} from '@gateway/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { criticalLimit } from '../auth/critical-limit.js';
import { currentUser, guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import type { SubscriptionPlanRow } from '../db/schema.js';
import { nowSeconds } from '../db/sql-helpers.js';
import { ApiFailure, messageFor, ok } from '../http/envelope.js';
import { parseBody } from '../http/validation.js';
import { userSetting } from '../services/accounts/user-setting.js';
import { recordAudit } from '../services/audit/audit-trail.js';
import { createCreemCheckout, creemConfigured } from '../services/payments/creem.js';
import { epaySign } from '../services/payments/epay.js';
import { epayType } from '../services/payments/epay-order.js';
import { epayEnabled, settleSubscriptionEpayReport } from '../services/payments/epay-settle.js';
import { createStripeCheckout, stripeEnabled } from '../services/payments/stripe.js';
import {
  buyWithBalance,
  checkPurchasable,
  endSubscription,
  grantByAdmin,
  resetIfDue,
} from '../services/subscriptions/lifecycle.js';
import { checkPlan, planInputSchema, planView, summaries } from '../services/subscriptions/plans.js';

const planIdSchema = z.object({ plan_id: z.number().int().positive() });
const upsertSchema = z.object({ plan: planInputSchema });
const statusSchema = z.object({ enabled: z.boolean() });
const preferenceSchema = z.object({ billing_preference: z.string() });
const resetSchema = z.object({ plan_id: z.number().int().positive().optional() });
const bindSchema = z.object({ user_id: z.number().int().positive(), plan_id: z.number().int().positive() });

/**
 * Subscription orders' references, the family's form: `sub_ref_` and 40 hex characters (unguessable), so a payment
 * webhook knows a plan's order from a top-up's (`ref_…`, `USR…`).
 */
export function subscriptionTradeNo(): string {
  return `sub_ref_${randomBytes(20).toString('hex')}`;
}

const idParam = (request: FastifyRequest) => {
  const id = Number((request.params as { id: string }).id);
  if (!Number.isInteger(id) || id <= 0) throw new ApiFailure('invalid_params');
  return id;
};

/**
 * Subscription plans (the family's `/api/subscription/…` routes and answers): users list plans, see their own
 * subscriptions, choose which balance pays first and buy with the wallet or a gateway; admins define plans and
 * manage users' subscriptions. What a plan gives is spent by the relay through the ledger (billing/ledger.ts).
 */
export async function subscriptionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user: requireUser, admin } = guards(ctx);
  const critical = criticalLimit(ctx);
  const repo = ctx.repos.subscriptions;
  const items = (rows: SubscriptionPlanRow[]): SubscriptionPlanItemView[] =>
    rows.map((row) => ({ plan: planView(row) }));

  app.get('/api/subscription/plans', { preHandler: requireUser }, async () => ok(items(await repo.listPlans(true))));

  app.get('/api/subscription/self', { preHandler: requireUser }, async (request) => {
    const user = currentUser(request);
    return ok(await subscriptionSelf(ctx, user.id, userSetting(user).billing_preference));
  });

  app.put('/api/subscription/self/preference', { preHandler: requireUser }, async (request) => {
    const user = currentUser(request);
    const { billing_preference } = parseBody(preferenceSchema, request.body);
    if (!BILLING_PREFERENCES.includes(billing_preference as BillingPreference)) {
      throw new ApiFailure('subscription_preference_invalid');
    }
    let current: Record<string, unknown> = {};
    try {
      current = JSON.parse(user.setting ?? '{}') as Record<string, unknown>;
    } catch {
      current = {};
    }
    await ctx.repos.users.update(user.id, { setting: JSON.stringify({ ...current, billing_preference }) });
    await ctx.authCache.dropUser(user.id);
    return ok({ billing_preference }, messageFor(request, 'setting_saved'));
  });

  app.post('/api/subscription/balance/pay', { preHandler: [requireUser, critical] }, async (request) => {
    const user = currentUser(request);
    const { plan_id } = parseBody(planIdSchema, request.body);
    const plan = await checkPurchasable(ctx, user.id, await repo.findPlan(plan_id));
    await buyWithBalance(ctx, user, plan, subscriptionTradeNo());
    return ok(undefined, messageFor(request, 'subscription_purchase_success'));
  });

  /** A pending order for a gateway checkout; the gateway's signed report completes it (lifecycle.ts). */
  const pendingOrder = async (userId: number, plan: SubscriptionPlanRow, method: string) => {
    const tradeNo = subscriptionTradeNo();
    await repo.insertOrder({
      user_id: userId,
      plan_id: plan.id,
      money: Number(plan.price_amount ?? 0),
      trade_no: tradeNo,
      payment_method: method,
      status: TopUpStatus.Pending,
      create_time: nowSeconds(),
      complete_time: 0,
      provider_payload: null,
    });
    return tradeNo;
  };
  const returnUrl = (query: string) => `${ctx.options.get('ServerAddress').replace(/\/+$/, '')}/topup${query}`;
  const startCheckout = async (request: FastifyRequest, tradeNo: string, create: () => Promise<string>) => {
    try {
      return await create();
    } catch (error) {
      await repo.markOrderFailed(tradeNo);
      const { type, statusCode } = error as { type?: string; statusCode?: number };
      request.log.warn(
        { reqId: request.id, tradeNo, failure: type ?? (error as Error).name, status: statusCode },
        'subscription checkout not created',
      );
      throw new ApiFailure('pay_checkout_failed');
    }
  };

  app.post('/api/subscription/stripe/pay', { preHandler: [requireUser, critical] }, async (request) => {
    if (!stripeEnabled(ctx)) throw new ApiFailure('pay_not_enabled');
    if (!ctx.options.get('ServerAddress')) throw new ApiFailure('pay_server_address_missing');
    const user = currentUser(request);
    const { plan_id } = parseBody(planIdSchema, request.body);
    const plan = await checkPurchasable(ctx, user.id, await repo.findPlan(plan_id));
    const priceId = plan.stripe_price_id ?? '';
    if (!priceId) throw new ApiFailure('subscription_price_missing');
    const tradeNo = await pendingOrder(user.id, plan, 'stripe');
    const payLink = await startCheckout(request, tradeNo, () =>
      createStripeCheckout(ctx, {
        tradeNo,
        amount: 1,
        money: Number(plan.price_amount ?? 0),
        listPrice: true,
        priceId,
        email: user.email ?? '',
        successUrl: returnUrl('?pay=pending'),
        cancelUrl: returnUrl(''),
      }),
    );
    return ok({ pay_link: payLink }, 'success');
  });

  app.post('/api/subscription/creem/pay', { preHandler: [requireUser, critical] }, async (request) => {
    if (!creemConfigured(ctx)) throw new ApiFailure('pay_not_enabled');
    if (!ctx.options.get('ServerAddress')) throw new ApiFailure('pay_server_address_missing');
    const user = currentUser(request);
    const { plan_id } = parseBody(planIdSchema, request.body);
    const plan = await checkPurchasable(ctx, user.id, await repo.findPlan(plan_id));
    const productId = plan.creem_product_id ?? '';
    if (!productId) throw new ApiFailure('subscription_price_missing');
    const tradeNo = await pendingOrder(user.id, plan, 'creem');
    const checkoutUrl = await startCheckout(request, tradeNo, () =>
      createCreemCheckout(ctx, {
        tradeNo,
        product: {
          productId,
          name: plan.title,
          price: Number(plan.price_amount ?? 0),
          currency: plan.currency || 'USD',
          quota: 0,
        },
        email: user.email ?? '',
        username: user.username,
        successUrl: returnUrl('?pay=pending'),
      }),
    );
    return ok({ checkout_url: checkoutUrl, order_id: tradeNo }, 'success');
  });

  const epayPaySchema = planIdSchema.extend({ payment_method: z.string().max(32) });
  const trimSlash = (url: string) => url.replace(/\/+$/, '');
  // The epay gateway's form, as for top-ups (api/payment.ts); the order is completed by its signed report.
  app.post('/api/subscription/epay/pay', { preHandler: [requireUser, critical] }, async (request) => {
    if (!epayEnabled(ctx)) throw new ApiFailure('pay_not_enabled');
    const o = ctx.options;
    const user = currentUser(request);
    const { plan_id, payment_method } = parseBody(epayPaySchema, request.body);
    const type = epayType(payment_method);
    if (!type) throw new ApiFailure('pay_method_invalid');
    const plan = await checkPurchasable(ctx, user.id, await repo.findPlan(plan_id));
    const callbackBase = trimSlash(o.get('CustomCallbackAddress') || o.get('ServerAddress'));
    if (!callbackBase) throw new ApiFailure('pay_server_address_missing');
    const tradeNo = await pendingOrder(user.id, plan, type);
    const params: Record<string, string> = {
      pid: o.get('EpayId'),
      type,
      out_trade_no: tradeNo,
      notify_url: `${callbackBase}/api/subscription/epay/notify`,
      return_url: `${trimSlash(o.get('ServerAddress') || callbackBase)}/api/subscription/epay/return`,
      name: `SUB:${plan.title}`.slice(0, 64),
      money: Number(plan.price_amount ?? 0).toFixed(2),
    };
    const data = { ...params, sign: epaySign(params, o.get('EpayKey')), sign_type: 'MD5' };
    // The family's answer: the form fields in `data`, the gateway's address beside it (as for top-ups).
    const view: SubscriptionEpayView = {
      success: true,
      message: 'success',
      data,
      url: `${trimSlash(o.get('PayAddress'))}/submit.php`,
    };
    return view;
  });

  const reportParams = (request: FastifyRequest): Record<string, string> => {
    const merged = { ...(request.query as object), ...((request.body as object) ?? {}) };
    return Object.fromEntries(Object.entries(merged).map(([key, value]) => [key, String(value)]));
  };
  const notify = async (request: FastifyRequest, reply: FastifyReply) => {
    const outcome = await settleSubscriptionEpayReport(ctx, reportParams(request));
    return reply.type('text/plain').send(outcome === 'credited' || outcome === 'settled' ? 'success' : 'fail');
  };
  app.get('/api/subscription/epay/notify', notify);
  app.post('/api/subscription/epay/notify', notify);
  const back = async (request: FastifyRequest, reply: FastifyReply) => {
    const outcome = await settleSubscriptionEpayReport(ctx, reportParams(request));
    const result =
      outcome === 'credited' || outcome === 'settled' ? 'success' : outcome === 'unpaid' ? 'pending' : 'fail';
    return reply.redirect(`/topup?pay=${result}`, 302);
  };
  app.get('/api/subscription/epay/return', back);
  app.post('/api/subscription/epay/return', back);

  // ---- admin ----
  app.get('/api/subscription/admin/plans', { preHandler: admin }, async () => ok(items(await repo.listPlans(false))));

  app.post('/api/subscription/admin/plans', { preHandler: admin }, async (request) => {
    const { plan } = parseBody(upsertSchema, request.body);
    const id = await repo.insertPlan(checkPlan(ctx, plan));
    const row = await repo.findPlan(id);
    return ok(row ? planView(row) : undefined);
  });

  app.put('/api/subscription/admin/plans/:id', { preHandler: admin }, async (request) => {
    const id = idParam(request);
    const { plan } = parseBody(upsertSchema, request.body);
    if (!(await repo.updatePlan(id, checkPlan(ctx, plan)))) throw new ApiFailure('subscription_plan_not_found');
    return ok();
  });

  app.patch('/api/subscription/admin/plans/:id', { preHandler: admin }, async (request) => {
    const id = idParam(request);
    const { enabled } = parseBody(statusSchema, request.body);
    if (!(await repo.setPlanEnabled(id, enabled))) throw new ApiFailure('subscription_plan_not_found');
    return ok();
  });

  app.delete('/api/subscription/admin/plans/:id', { preHandler: admin }, async (request) => {
    if (!(await repo.deletePlan(idParam(request)))) throw new ApiFailure('subscription_plan_not_found');
    return ok();
  });

  /** Admins' changes to a user's subscriptions are on the user's audit trail (plans are site settings). */
  const audit = (request: FastifyRequest, action: string, userId: number, before: unknown, after: unknown) =>
    recordAudit(ctx, request, [
      {
        action: `subscription.${action}`,
        targetType: 'user',
        targetId: userId,
        changes: [{ field: 'subscription', before, after }],
      },
    ]);

  const adminGrant = async (request: FastifyRequest, userId: number, planId: number) => {
    const plan = await repo.findPlan(planId);
    if (!plan) throw new ApiFailure('subscription_plan_not_found');
    if (!(await ctx.repos.users.findById(userId))) throw new ApiFailure('user_not_found');
    const grant = await grantByAdmin(ctx, userId, plan);
    await audit(request, grant.renewed ? 'renew' : 'grant', userId, null, `${plan.id}:${plan.title}`);
    return ok();
  };

  app.post('/api/subscription/admin/bind', { preHandler: admin }, async (request) => {
    const { user_id, plan_id } = parseBody(bindSchema, request.body);
    return adminGrant(request, user_id, plan_id);
  });

  app.get('/api/subscription/admin/users/:id/subscriptions', { preHandler: admin }, async (request) =>
    ok(await summaries(ctx, await repo.listForUser(idParam(request)))),
  );

  app.post('/api/subscription/admin/users/:id/subscriptions', { preHandler: admin }, async (request) => {
    const { plan_id } = parseBody(planIdSchema, request.body);
    return adminGrant(request, idParam(request), plan_id);
  });

  /** Starts the current period again (used back to 0) for the user's active subscriptions (of one plan). */
  app.post('/api/subscription/admin/users/:id/subscriptions/reset', { preHandler: admin }, async (request) => {
    const userId = idParam(request);
    // The family resets one plan's subscriptions (`plan_id`); without one, every active subscription of the user.
    const { plan_id } = parseBody(resetSchema, request.body ?? {});
    const active = await repo.activeForUser(userId, nowSeconds());
    for (const sub of active.filter((row) => plan_id === undefined || Number(row.plan_id) === plan_id)) {
      if (!(await resetIfDue(ctx, sub))) await repo.clearUsed(sub.id);
      ctx.ledger.markStale('subscription', sub.id);
      await audit(request, 'reset', userId, Number(sub.amount_used), 0);
    }
    return ok();
  });

  app.post('/api/subscription/admin/plans/:id/subscriptions/reset', { preHandler: admin }, async (request) => {
    for (const sub of await repo.activeOfPlanAll(idParam(request))) {
      await repo.clearUsed(sub.id);
      ctx.ledger.markStale('subscription', sub.id);
    }
    return ok();
  });

  app.post('/api/subscription/admin/user_subscriptions/:id/invalidate', { preHandler: admin }, async (request) => {
    const sub = await repo.find(idParam(request));
    if (!sub) throw new ApiFailure('subscription_not_found');
    if (await endSubscription(ctx, sub, SubscriptionStatus.Cancelled)) {
      await audit(request, 'invalidate', Number(sub.user_id), sub.id, SubscriptionStatus.Cancelled);
    }
    return ok();
  });

  app.delete('/api/subscription/admin/user_subscriptions/:id', { preHandler: admin }, async (request) => {
    const sub = await repo.find(idParam(request));
    if (!sub) throw new ApiFailure('subscription_not_found');
    // Ended first (the group goes back), then removed.
    await endSubscription(ctx, sub, SubscriptionStatus.Cancelled);
    await ctx.db.inTransaction((trx) => repo.remove(trx, sub.id));
    ctx.ledger.subscriptionsChanged(Number(sub.user_id));
    await audit(request, 'delete', Number(sub.user_id), sub.id, null);
    return ok();
  });
}

/** `GET /api/subscription/self`: the preference, the active subscriptions and every one (the family's answer). */
export async function subscriptionSelf(
  ctx: AppContext,
  userId: number,
  setting: unknown,
): Promise<SubscriptionSelfView> {
  const rows = await ctx.repos.subscriptions.listForUser(userId);
  const now = nowSeconds();
  const all = await summaries(ctx, rows);
  // The ledger knows what requests took that is not written yet: the period's use as it really is now.
  for (const entry of all) {
    const left = ctx.ledger.live('subscription', entry.subscription.id);
    if (left !== null) entry.subscription.amount_used = entry.subscription.amount_total - left;
  }
  return {
    billing_preference: normalizeBillingPreference(setting),
    subscriptions: all.filter(
      (entry) => entry.subscription.status === SubscriptionStatus.Active && entry.subscription.end_time > now,
    ),
    all_subscriptions: all,
  };
}
