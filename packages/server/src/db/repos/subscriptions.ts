import { SubscriptionStatus, TopUpStatus } from '@gateway/shared';
import { sql } from 'kysely';
import type { Db } from '../connection.js';
import type {
  SubscriptionOrderRow,
  SubscriptionOrdersTable,
  SubscriptionPlanRow,
  SubscriptionPlansTable,
  UserSubscriptionRow,
  UserSubscriptionsTable,
} from '../schema.js';
import { insertReturningId, nowSeconds } from '../sql-helpers.js';
import { sqlOf, type Trx } from '../unit-of-work.js';

type PlanFields = Omit<SubscriptionPlansTable, 'id' | 'created_at' | 'updated_at'>;
type NewUserSubscription = Omit<UserSubscriptionsTable, 'id'>;

/** What the ledger needs of an active subscription to spend it (billing/ledger.ts). */
export interface SubscriptionMeta {
  id: number;
  endTime: number;
  nextResetTime: number;
}

/**
 * The family's subscription tables. Every change that must happen once (an order completed, a period reset, an
 * expiry) is a conditional update whose row count says whether this caller did it.
 */
export function createSubscriptionsRepo(db: Db) {
  const q = db.kysely;
  /** Booleans as each dialect stores them (SQLite has none). */
  const flag = (value: boolean) => (db.dialect === 'sqlite' ? Number(value) : value) as boolean;
  const writePlan = (plan: PlanFields) => ({
    ...plan,
    enabled: flag(Boolean(plan.enabled)),
    allow_balance_pay: flag(Boolean(plan.allow_balance_pay)),
  });
  return {
    async listPlans(enabledOnly: boolean): Promise<SubscriptionPlanRow[]> {
      let query = q.selectFrom('subscription_plans').selectAll();
      if (enabledOnly) query = query.where('enabled', '=', flag(true));
      return query.orderBy('sort_order', 'desc').orderBy('id', 'desc').execute();
    },
    async findPlan(id: number): Promise<SubscriptionPlanRow | undefined> {
      return q.selectFrom('subscription_plans').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async insertPlan(plan: PlanFields): Promise<number> {
      const now = nowSeconds();
      return insertReturningId(q, db.dialect, 'subscription_plans', {
        ...writePlan(plan),
        created_at: now,
        updated_at: now,
      });
    },
    async updatePlan(id: number, plan: PlanFields): Promise<boolean> {
      const result = await q
        .updateTable('subscription_plans')
        .set({ ...writePlan(plan), updated_at: nowSeconds() })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async setPlanEnabled(id: number, enabled: boolean): Promise<boolean> {
      const result = await q
        .updateTable('subscription_plans')
        .set({ enabled: flag(enabled), updated_at: nowSeconds() })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async deletePlan(id: number): Promise<boolean> {
      const result = await q.deleteFrom('subscription_plans').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async insertOrder(row: Omit<SubscriptionOrdersTable, 'id'>, trx?: Trx): Promise<number> {
      return insertReturningId(sqlOf(trx, q), db.dialect, 'subscription_orders', row);
    },
    async findOrder(tradeNo: string): Promise<SubscriptionOrderRow | undefined> {
      return q.selectFrom('subscription_orders').selectAll().where('trade_no', '=', tradeNo).executeTakeFirst();
    },
    /** pending → success exactly once: a replayed notification completes nothing. */
    async completePendingOrder(trx: Trx, tradeNo: string, payload: string | null): Promise<boolean> {
      const result = await sqlOf(trx)
        .updateTable('subscription_orders')
        .set({
          status: TopUpStatus.Success,
          complete_time: nowSeconds(),
          ...(payload ? { provider_payload: payload } : {}),
        })
        .where('trade_no', '=', tradeNo)
        .where('status', '=', TopUpStatus.Pending)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async markOrderFailed(tradeNo: string): Promise<void> {
      await q
        .updateTable('subscription_orders')
        .set({ status: TopUpStatus.Failed })
        .where('trade_no', '=', tradeNo)
        .where('status', '=', TopUpStatus.Pending)
        .execute();
    },
    /** Completed purchases of a plan by a user (the purchase limit counts these; admin grants are not purchases). */
    async countPurchases(trx: Trx | undefined, userId: number, planId: number): Promise<number> {
      const row = await sqlOf(trx, q)
        .selectFrom('subscription_orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('plan_id', '=', planId)
        .where('status', '=', TopUpStatus.Success)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /**
     * Locks the user's row for the rest of the transaction (a no-op update) and returns its group: purchases of
     * one user then run one after another on every database, so limits and groups are decided on fresh rows.
     */
    async lockUser(trx: Trx, userId: number): Promise<string | undefined> {
      await sqlOf(trx).updateTable('users').set({ quota: sql`quota` }).where('id', '=', userId).execute();
      const row = await sqlOf(trx).selectFrom('users').select('group').where('id', '=', userId).executeTakeFirst();
      return row?.group;
    },
    /** Takes `amount` from the wallet only if that much is there (never below zero); false: nothing taken. */
    async takeWallet(trx: Trx, userId: number, amount: number): Promise<boolean> {
      const result = await sqlOf(trx)
        .updateTable('users')
        .set({ quota: sql`quota - ${amount}` })
        .where('id', '=', userId)
        .where('quota', '>=', amount)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async setUserGroup(trx: Trx, userId: number, group: string): Promise<void> {
      await sqlOf(trx).updateTable('users').set({ group }).where('id', '=', userId).execute();
    },

    async listForUser(userId: number): Promise<UserSubscriptionRow[]> {
      return q
        .selectFrom('user_subscriptions')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('end_time', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },
    async find(id: number, trx?: Trx): Promise<UserSubscriptionRow | undefined> {
      return sqlOf(trx, q).selectFrom('user_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** The user's active subscription of a plan that has not ended (a purchase of the same plan renews it). */
    async activeOfPlan(
      trx: Trx,
      userId: number,
      planId: number,
      now: number,
    ): Promise<UserSubscriptionRow | undefined> {
      return sqlOf(trx)
        .selectFrom('user_subscriptions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('plan_id', '=', planId)
        .where('status', '=', SubscriptionStatus.Active)
        .where('end_time', '>', now)
        .orderBy('end_time', 'desc')
        .executeTakeFirst();
    },
    /** Another active subscription of the user that changes the group (the group stays while one is left). */
    async otherUpgrading(trx: Trx, userId: number, exceptId: number, now: number) {
      return sqlOf(trx)
        .selectFrom('user_subscriptions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('status', '=', SubscriptionStatus.Active)
        .where('end_time', '>', now)
        .where('id', '<>', exceptId)
        .where('upgrade_group', '<>', '')
        .orderBy('end_time', 'desc')
        .executeTakeFirst();
    },
    async insert(trx: Trx, row: NewUserSubscription): Promise<number> {
      return insertReturningId(sqlOf(trx), db.dialect, 'user_subscriptions', row);
    },
    async extend(trx: Trx, id: number, endTime: number, nextResetTime: number): Promise<void> {
      await sqlOf(trx)
        .updateTable('user_subscriptions')
        .set({ end_time: endTime, next_reset_time: nextResetTime, updated_at: nowSeconds() })
        .where('id', '=', id)
        .execute();
    },
    /** active → `status` exactly once (expiry, an admin's invalidation); false when it was no longer active. */
    async end(trx: Trx, id: number, status: string, endTime?: number): Promise<boolean> {
      const result = await sqlOf(trx)
        .updateTable('user_subscriptions')
        .set({ status, updated_at: nowSeconds(), ...(endTime === undefined ? {} : { end_time: endTime }) })
        .where('id', '=', id)
        .where('status', '=', SubscriptionStatus.Active)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async remove(trx: Trx, id: number): Promise<void> {
      await sqlOf(trx).deleteFrom('user_subscriptions').where('id', '=', id).execute();
    },
    /**
     * Starts a new period: used back to 0 and the next boundary, only if the boundary is still the one the caller
     * read, so of any number of nodes or jobs resetting at once exactly one does (false for the others).
     */
    async reset(id: number, expectedNext: number, next: number, now: number): Promise<boolean> {
      const result = await q
        .updateTable('user_subscriptions')
        .set({ amount_used: 0, last_reset_time: now, next_reset_time: next, updated_at: now })
        .where('id', '=', id)
        .where('next_reset_time', '=', expectedNext)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /** An admin's reset of the current period (the boundary stays). */
    async clearUsed(id: number): Promise<void> {
      await q
        .updateTable('user_subscriptions')
        .set({ amount_used: 0, updated_at: nowSeconds() })
        .where('id', '=', id)
        .execute();
    },
    async activeForUser(userId: number, now: number): Promise<UserSubscriptionRow[]> {
      return q
        .selectFrom('user_subscriptions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('status', '=', SubscriptionStatus.Active)
        .where('end_time', '>', now)
        .orderBy('end_time', 'asc')
        .orderBy('id', 'asc')
        .execute();
    },
    async activeOfPlanAll(planId: number): Promise<UserSubscriptionRow[]> {
      return q
        .selectFrom('user_subscriptions')
        .selectAll()
        .where('plan_id', '=', planId)
        .where('status', '=', SubscriptionStatus.Active)
        .execute();
    },
    /** Active subscriptions whose period boundary has passed. */
    async dueResets(now: number, limit: number): Promise<UserSubscriptionRow[]> {
      return q
        .selectFrom('user_subscriptions')
        .selectAll()
        .where('status', '=', SubscriptionStatus.Active)
        .where('next_reset_time', '>', 0)
        .where('next_reset_time', '<=', now)
        .limit(limit)
        .execute();
    },
    /** Active subscriptions past their end. */
    async dueExpiries(now: number, limit: number): Promise<UserSubscriptionRow[]> {
      return q
        .selectFrom('user_subscriptions')
        .selectAll()
        .where('status', '=', SubscriptionStatus.Active)
        .where('end_time', '<=', now)
        .limit(limit)
        .execute();
    },
  };
}

export type SubscriptionsRepo = ReturnType<typeof createSubscriptionsRepo>;
