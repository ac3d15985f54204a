import {
  formatQuota,
  LogType,
  logFacts,
  nextResetAfter,
  planEndTime,
  resetPeriodSeconds,
  SubscriptionSource,
  SubscriptionStatus,
  TopUpStatus,
} from '@gateway/shared';
import type { AppContext } from '../../context.js';
import type { SubscriptionPlanRow, UserSubscriptionRow } from '../../db/schema.js';
import { nowSeconds } from '../../db/sql-helpers.js';
import type { Trx } from '../../db/unit-of-work.js';
import { ApiFailure } from '../../http/envelope.js';
import { planView } from './plans.js';

/**
 * How subscriptions begin, renew, reset and end. Every step is one transaction decided by a conditional update
 * or under the user's row lock, then the in-memory balances are told (the ledger re-reads what changed, the auth
 * cache forgets a changed group).
 */

export function periodOf(plan: SubscriptionPlanRow): number {
  const view = planView(plan);
  return resetPeriodSeconds(view.quota_reset_period, view.quota_reset_custom_seconds);
}

/** What a grant did: a new subscription, or the same plan's active one renewed (its end moved). */
export interface Grant {
  subscriptionId: number;
  renewed: boolean;
  groupChanged: boolean;
}

/**
 * Gives the user the plan inside the caller's transaction, which must hold the user's row lock (lockUser). The
 * user's active subscription of the same plan is renewed instead: its end moves by one duration and its current
 * period (used amount, next boundary) stays, so no period is granted twice. A plan with an upgrade group moves the
 * user there, remembering the group to go back to.
 */
export async function grantIn(
  ctx: AppContext,
  trx: Trx,
  userId: number,
  userGroup: string,
  plan: SubscriptionPlanRow,
  source: string,
  now = nowSeconds(),
): Promise<Grant> {
  const repo = ctx.repos.subscriptions;
  const view = planView(plan);
  const period = periodOf(plan);
  const current = await repo.activeOfPlan(trx, userId, plan.id, now);
  if (current) {
    const end = planEndTime(Number(current.end_time), view.duration_unit, view.duration_value, view.custom_seconds);
    const next = Number(current.next_reset_time ?? 0);
    const start = Number(current.start_time ?? now);
    await repo.extend(trx, current.id, end, next > 0 ? next : nextResetAfter(start, now, period, end));
    return { subscriptionId: current.id, renewed: true, groupChanged: false };
  }
  const end = planEndTime(now, view.duration_unit, view.duration_value, view.custom_seconds);
  const upgrade = view.upgrade_group;
  const groupChanged = upgrade !== '' && upgrade !== userGroup;
  const id = await repo.insert(trx, {
    user_id: userId,
    plan_id: plan.id,
    amount_total: view.total_amount,
    amount_used: 0,
    start_time: now,
    end_time: end,
    status: SubscriptionStatus.Active,
    source,
    last_reset_time: now,
    next_reset_time: nextResetAfter(now, now, period, end),
    upgrade_group: upgrade,
    prev_user_group: groupChanged ? userGroup : '',
    created_at: now,
    updated_at: now,
  });
  if (groupChanged) await repo.setUserGroup(trx, userId, upgrade);
  return { subscriptionId: id, renewed: false, groupChanged };
}

/** After a grant or an end committed: the ledger and the auth cache read the user again. */
async function changed(ctx: AppContext, userId: number, groupChanged: boolean, subscriptionId?: number) {
  ctx.ledger.subscriptionsChanged(userId);
  if (subscriptionId !== undefined) ctx.ledger.markStale('subscription', subscriptionId);
  if (groupChanged) await ctx.authCache.dropUser(userId);
}

async function enforceLimit(ctx: AppContext, trx: Trx, userId: number, plan: SubscriptionPlanRow): Promise<void> {
  const limit = Number(plan.max_purchase_per_user ?? 0);
  if (limit > 0 && (await ctx.repos.subscriptions.countPurchases(trx, userId, plan.id)) >= limit) {
    throw new ApiFailure('subscription_purchase_limit', { limit });
  }
}

/** Refuses a purchase the plan does not allow now (limit counted outside a lock: the grant checks again). */
export async function checkPurchasable(ctx: AppContext, userId: number, plan: SubscriptionPlanRow | undefined) {
  if (!plan) throw new ApiFailure('subscription_plan_not_found');
  if (!planView(plan).enabled) throw new ApiFailure('subscription_plan_disabled');
  const limit = Number(plan.max_purchase_per_user ?? 0);
  if (limit > 0 && (await ctx.repos.subscriptions.countPurchases(undefined, userId, plan.id)) >= limit) {
    throw new ApiFailure('subscription_purchase_limit', { limit });
  }
  return plan;
}

/** A plan's price in quota (price_amount is money; one unit of money is QuotaPerUnit). */
export function priceQuota(ctx: AppContext, plan: SubscriptionPlanRow): number {
  return Math.round(Number(plan.price_amount ?? 0) * ctx.options.number('QuotaPerUnit'));
}

/**
 * Buys a plan with the wallet. The price is first reserved in the ledger (the same check-and-take as a relay
 * call, so requests in flight and this purchase never spend the same quota twice), then taken in the database
 * (`quota >= price`, never below zero) with the order row, the limit check and the grant in one transaction under
 * the user's row lock: of two parallel purchases over the limit exactly one commits.
 */
export async function buyWithBalance(
  ctx: AppContext,
  user: { id: number; username: string },
  plan: SubscriptionPlanRow,
  tradeNo: string,
): Promise<Grant> {
  if (!planView(plan).allow_balance_pay) throw new ApiFailure('subscription_balance_pay_disabled');
  const price = priceQuota(ctx, plan);
  await ctx.ledger.prepare(user.id, null);
  const failure = price > 0 ? await ctx.ledger.reserve(user.id, null, price, true) : null;
  if (failure) throw new ApiFailure('subscription_balance_insufficient');
  let grant: Grant;
  try {
    grant = await ctx.db.inTransaction(async (trx) => {
      const group = await ctx.repos.subscriptions.lockUser(trx, user.id);
      if (group === undefined) throw new ApiFailure('subscription_not_found');
      await enforceLimit(ctx, trx, user.id, plan);
      if (price > 0 && !(await ctx.repos.subscriptions.takeWallet(trx, user.id, price))) {
        throw new ApiFailure('subscription_balance_insufficient');
      }
      const now = nowSeconds();
      await ctx.repos.subscriptions.insertOrder(
        {
          user_id: user.id,
          plan_id: plan.id,
          money: Number(plan.price_amount ?? 0),
          trade_no: tradeNo,
          payment_method: 'balance',
          status: TopUpStatus.Success,
          create_time: now,
          complete_time: now,
          provider_payload: null,
        },
        trx,
      );
      const result = await grantIn(ctx, trx, user.id, group, plan, SubscriptionSource.Balance, now);
      await ctx.repos.creditLogs.insertIn(trx, {
        user_id: user.id,
        username: user.username,
        created_at: now,
        type: LogType.System,
        quota: price,
        content: `余额购买订阅：${plan.title}，扣除 ${formatQuota(price, { quotaPerUnit: ctx.options.number('QuotaPerUnit'), displayInCurrency: true })}`,
        other: logFacts('subscription_balance_pay', { plan: plan.title, quota: price }),
      });
      return result;
    });
  } catch (error) {
    if (price > 0) ctx.ledger.refund(user.id, null, price, true);
    throw error;
  }
  // The reservation becomes the committed decrement: released and mirrored as a (negative) credit.
  if (price > 0) {
    ctx.ledger.refund(user.id, null, price, true);
    ctx.ledger.credit('user', user.id, -price);
  }
  await changed(ctx, user.id, grant.groupChanged, grant.subscriptionId);
  return grant;
}

/**
 * Completes a paid gateway order and grants its plan, exactly once however often the provider reports it: the
 * pending → success update decides, in the granting transaction. False: it was complete already (or is unknown).
 */
export async function completeOrder(ctx: AppContext, tradeNo: string, payload: string | null): Promise<boolean> {
  const order = await ctx.repos.subscriptions.findOrder(tradeNo);
  if (!order || order.status !== TopUpStatus.Pending) return false;
  const plan = await ctx.repos.subscriptions.findPlan(Number(order.plan_id));
  const userId = Number(order.user_id);
  if (!plan) return false;
  const grant = await ctx.db.inTransaction(async (trx) => {
    if (!(await ctx.repos.subscriptions.completePendingOrder(trx, tradeNo, payload))) return null;
    const group = await ctx.repos.subscriptions.lockUser(trx, userId);
    if (group === undefined) return null;
    return grantIn(ctx, trx, userId, group, plan, SubscriptionSource.Order);
  });
  if (!grant) return false;
  await changed(ctx, userId, grant.groupChanged, grant.subscriptionId);
  return true;
}

/**
 * Subscription orders' references start with `sub_` (api/subscription.ts), or `SUBUSR` (the family's epay orders,
 * still pending in an adopted database); top-ups' never do.
 */
export function isSubscriptionTradeNo(tradeNo: string): boolean {
  return tradeNo.startsWith('sub_') || tradeNo.startsWith('SUBUSR');
}

/** An admin gives a plan (no payment, no purchase limit). */
export async function grantByAdmin(ctx: AppContext, userId: number, plan: SubscriptionPlanRow): Promise<Grant> {
  const grant = await ctx.db.inTransaction(async (trx) => {
    const group = await ctx.repos.subscriptions.lockUser(trx, userId);
    if (group === undefined) throw new ApiFailure('user_not_found');
    return grantIn(ctx, trx, userId, group, plan, SubscriptionSource.Admin);
  });
  await changed(ctx, userId, grant.groupChanged, grant.subscriptionId);
  return grant;
}

/**
 * Ends a subscription (expired at its end, or cancelled by an admin now) exactly once, and gives the user back the
 * group it had before, unless another active subscription still holds an upgrade group.
 */
export async function endSubscription(
  ctx: AppContext,
  sub: UserSubscriptionRow,
  status: typeof SubscriptionStatus.Expired | typeof SubscriptionStatus.Cancelled,
  now = nowSeconds(),
): Promise<boolean> {
  const userId = Number(sub.user_id);
  const repo = ctx.repos.subscriptions;
  const restored = await ctx.db.inTransaction(async (trx) => {
    const group = await repo.lockUser(trx, userId);
    const endTime = status === SubscriptionStatus.Cancelled ? Math.min(now, Number(sub.end_time ?? now)) : undefined;
    if (!(await repo.end(trx, sub.id, status, endTime))) return null;
    const upgrade = sub.upgrade_group ?? '';
    if (!upgrade || group !== upgrade) return false;
    const other = await repo.otherUpgrading(trx, userId, sub.id, now);
    if (other) {
      // The other subscription now decides the group; it inherits where to go back to.
      if (other.upgrade_group !== group) await repo.setUserGroup(trx, userId, other.upgrade_group ?? group);
      return other.upgrade_group !== group;
    }
    const previous = sub.prev_user_group || 'default';
    await repo.setUserGroup(trx, userId, previous);
    return true;
  });
  if (restored === null) return false;
  await changed(ctx, userId, restored, sub.id);
  return true;
}

/**
 * Starts the next period of a subscription whose boundary has passed: used back to 0 and the first boundary after
 * now (windows run from the start time, k·period after it), conditional on the boundary read, so two nodes or
 * jobs never grant the same period twice. True when this call reset it.
 */
export async function resetIfDue(ctx: AppContext, sub: UserSubscriptionRow, now = nowSeconds()): Promise<boolean> {
  const expected = Number(sub.next_reset_time ?? 0);
  if (expected <= 0 || expected > now) return false;
  const plan = await ctx.repos.subscriptions.findPlan(Number(sub.plan_id));
  const period = plan ? periodOf(plan) : 0;
  const next = nextResetAfter(Number(sub.start_time ?? now), now, period, Number(sub.end_time ?? 0));
  const done = await ctx.repos.subscriptions.reset(sub.id, expected, next, now);
  if (done) ctx.ledger.markStale('subscription', sub.id);
  return done;
}

/** One round of the master's job: periods due start again, subscriptions past their end expire. */
export async function maintainSubscriptions(
  ctx: AppContext,
  now = nowSeconds(),
): Promise<{ reset: number; expired: number }> {
  let reset = 0;
  let expired = 0;
  for (const sub of await ctx.repos.subscriptions.dueExpiries(now, 200)) {
    if (await endSubscription(ctx, sub, SubscriptionStatus.Expired, now)) expired++;
  }
  for (const sub of await ctx.repos.subscriptions.dueResets(now, 200)) {
    if (await resetIfDue(ctx, sub, now)) reset++;
  }
  return { reset, expired };
}

/** Loads a user's active subscriptions for the ledger, starting any period that is due first (billing/ledger.ts). */
export async function activeForLedger(ctx: AppContext, userId: number) {
  const now = nowSeconds();
  let rows = await ctx.repos.subscriptions.activeForUser(userId, now);
  let any = false;
  for (const row of rows) if (await resetIfDue(ctx, row, now)) any = true;
  if (any) rows = await ctx.repos.subscriptions.activeForUser(userId, now);
  return rows.map((row) => ({
    id: row.id,
    endTime: Number(row.end_time ?? 0),
    nextResetTime: Number(row.next_reset_time ?? 0),
  }));
}
