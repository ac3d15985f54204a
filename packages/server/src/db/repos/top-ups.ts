import { TopUpStatus } from '@gateway/shared';
import type { Db } from '../connection.js';
import type { NewTopUp, TopUpRow } from '../schema.js';
import { insertReturningId, nowSeconds } from '../sql-helpers.js';
import { sqlOf, type Trx } from '../unit-of-work.js';

export function createTopUpsRepo(db: Db) {
  const q = db.kysely;
  return {
    async insert(row: NewTopUp): Promise<number> {
      return insertReturningId(q, db.dialect, 'top_ups', { create_time: nowSeconds(), ...row });
    },
    /** A record written together with the credit it documents (a redeemed code), inside that transaction. */
    async insertIn(trx: Trx, row: NewTopUp): Promise<void> {
      await sqlOf(trx).insertInto('top_ups').values(row).execute();
    },
    async findByTradeNo(tradeNo: string): Promise<TopUpRow | undefined> {
      return q.selectFrom('top_ups').selectAll().where('trade_no', '=', tradeNo).executeTakeFirst();
    },
    /** One user's orders and redemptions, newest first. */
    async listForUser(userId: number, offset: number, limit: number): Promise<{ items: TopUpRow[]; total: number }> {
      const mine = () => q.selectFrom('top_ups').where('user_id', '=', userId);
      const [items, total] = await Promise.all([
        mine().selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute(),
        mine()
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(total.n) };
    },
    /** pending → success exactly once: a replayed payment notification changes no row and credits nothing. */
    async completePending(trx: Trx, tradeNo: string): Promise<boolean> {
      const result = await sqlOf(trx)
        .updateTable('top_ups')
        .set({ status: TopUpStatus.Success, complete_time: nowSeconds() })
        .where('trade_no', '=', tradeNo)
        .where('status', '=', TopUpStatus.Pending)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /** pending → expired (the provider's checkout lapsed unpaid); a completed order is never touched. */
    async expirePending(tradeNo: string, provider: string): Promise<boolean> {
      const result = await q
        .updateTable('top_ups')
        .set({ status: TopUpStatus.Expired })
        .where('trade_no', '=', tradeNo)
        .where('payment_provider', '=', provider)
        .where('status', '=', TopUpStatus.Pending)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /** An order whose checkout could not be created: it will never be paid. */
    async markFailed(tradeNo: string): Promise<void> {
      await q
        .updateTable('top_ups')
        .set({ status: TopUpStatus.Failed })
        .where('trade_no', '=', tradeNo)
        .where('status', '=', TopUpStatus.Pending)
        .execute();
    },
  };
}

export type TopUpsRepo = ReturnType<typeof createTopUpsRepo>;
