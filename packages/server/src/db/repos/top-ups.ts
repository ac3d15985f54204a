import { TopUpStatus } from '@gateway/shared';
import type { Kysely } from 'kysely';
import type { Db } from '../connection.js';
import type { Database, NewTopUp, TopUpRow } from '../schema.js';
import { insertReturningId, nowSeconds } from '../sql-helpers.js';

export function createTopUpsRepo(db: Db) {
  const q = db.kysely;
  return {
    async insert(row: NewTopUp): Promise<number> {
      return insertReturningId(q, db.dialect, 'top_ups', { create_time: nowSeconds(), ...row });
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
    async completePending(trx: Kysely<Database>, tradeNo: string): Promise<boolean> {
      const result = await trx
        .updateTable('top_ups')
        .set({ status: TopUpStatus.Success, complete_time: nowSeconds() })
        .where('trade_no', '=', tradeNo)
        .where('status', '=', TopUpStatus.Pending)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type TopUpsRepo = ReturnType<typeof createTopUpsRepo>;
