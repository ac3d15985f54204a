import { RedemptionStatus } from '@gateway/shared';
import type { Kysely } from 'kysely';
import type { Db } from '../connection.js';
import type { Database, NewRedemption, RedemptionRow } from '../schema.js';
import { insertReturningId, nowSeconds } from '../sql-helpers.js';

export function createRedemptionsRepo(db: Db) {
  const q = db.kysely;
  return {
    async insert(redemption: NewRedemption): Promise<number> {
      return insertReturningId(q, db.dialect, 'redemptions', { created_time: nowSeconds(), ...redemption });
    },
    async findById(id: number): Promise<RedemptionRow | undefined> {
      return q
        .selectFrom('redemptions')
        .selectAll()
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },
    async findByKey(key: string): Promise<RedemptionRow | undefined> {
      return q
        .selectFrom('redemptions')
        .selectAll()
        .where('key', '=', key)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },
    /**
     * Marks an unused code used by one user. The status condition makes it a compare-and-set: of many concurrent
     * redeemers exactly one sees a changed row, so a code credits once.
     */
    async claim(trx: Kysely<Database>, id: number, userId: number): Promise<boolean> {
      const result = await trx
        .updateTable('redemptions')
        .set({ status: RedemptionStatus.Used, used_user_id: userId, redeemed_time: nowSeconds() })
        .where('id', '=', id)
        .where('status', '=', RedemptionStatus.Unused)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type RedemptionsRepo = ReturnType<typeof createRedemptionsRepo>;
