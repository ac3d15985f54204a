import { RedemptionStatus } from '@gateway/shared';
import type { Updateable } from 'kysely';
import type { Db } from '../connection.js';
import type { NewRedemption, RedemptionRow, RedemptionsTable } from '../schema.js';
import { containsText, insertReturningId, nowSeconds } from '../sql-helpers.js';
import { sqlOf, type Trx } from '../unit-of-work.js';

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
    async list(keyword: string, offset: number, limit: number): Promise<{ items: RedemptionRow[]; total: number }> {
      const matching = () => {
        let query = q.selectFrom('redemptions').where('deleted_at', 'is', null);
        if (keyword) {
          const id = Number(keyword);
          query = query.where((eb) =>
            eb.or([containsText('name', keyword), ...(Number.isInteger(id) && id > 0 ? [eb('id', '=', id)] : [])]),
          );
        }
        return query;
      };
      const [items, total] = await Promise.all([
        matching().selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute(),
        matching()
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(total.n) };
    },
    async insertMany(trx: Trx, rows: NewRedemption[]): Promise<void> {
      const now = nowSeconds();
      await sqlOf(trx)
        .insertInto('redemptions')
        .values(rows.map((row) => ({ created_time: now, ...row })))
        .execute();
    },
    /** Changes an unused code only: the status condition makes "edit only when unused" hold under races too. */
    async updateUnused(id: number, changes: Updateable<RedemptionsTable>): Promise<boolean> {
      const result = await q
        .updateTable('redemptions')
        .set(changes)
        .where('id', '=', id)
        .where('status', '!=', RedemptionStatus.Used)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async delete(id: number): Promise<boolean> {
      const result = await q
        .updateTable('redemptions')
        .set({ deleted_at: nowSeconds() })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
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
    async claim(trx: Trx, id: number, userId: number): Promise<boolean> {
      const result = await sqlOf(trx)
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
