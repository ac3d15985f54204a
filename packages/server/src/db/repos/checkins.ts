import type { Db } from '../connection.js';
import type { CheckinsTable } from '../schema.js';
import { sqlOf, type Trx } from '../unit-of-work.js';

export interface CheckinRecord {
  checkin_date: string;
  quota_awarded: number;
}

/** The family's `checkins`: one row per user and day, under the unique index on (user_id, checkin_date). */
export function createCheckinsRepo(db: Db) {
  const q = db.kysely;
  return {
    /**
     * The day's row, only if the user has none for that day yet: a conditional insert under the unique index, so of
     * any number of concurrent check-ins (any node, any database) one inserts and the others insert nothing. True
     * when this one inserted.
     */
    async insertOnce(trx: Trx, row: Omit<CheckinsTable, 'id'>): Promise<boolean> {
      const insert = sqlOf(trx).insertInto('checkins').values(row);
      const result =
        db.dialect === 'mysql'
          ? await insert.ignore().executeTakeFirst()
          : await insert.onConflict((oc) => oc.columns(['user_id', 'checkin_date']).doNothing()).executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    async has(userId: number, date: string): Promise<boolean> {
      const row = await q
        .selectFrom('checkins')
        .select('id')
        .where('user_id', '=', userId)
        .where('checkin_date', '=', date)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The user's check-ins between two dates (inclusive, YYYY-MM-DD), newest first. */
    async between(userId: number, from: string, to: string): Promise<CheckinRecord[]> {
      const rows = await q
        .selectFrom('checkins')
        .select(['checkin_date', 'quota_awarded'])
        .where('user_id', '=', userId)
        .where('checkin_date', '>=', from)
        .where('checkin_date', '<=', to)
        .orderBy('checkin_date', 'desc')
        .execute();
      return rows.map((row) => ({ checkin_date: row.checkin_date, quota_awarded: Number(row.quota_awarded) }));
    },

    /** How many check-ins the user ever made, and the quota they brought. */
    async totals(userId: number): Promise<{ count: number; quota: number }> {
      const row = await q
        .selectFrom('checkins')
        .select((eb) => [eb.fn.countAll().as('n'), eb.fn.coalesce(eb.fn.sum('quota_awarded'), eb.lit(0)).as('quota')])
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return { count: Number(row.n), quota: Number(row.quota) };
    },
  };
}

export type CheckinsRepo = ReturnType<typeof createCheckinsRepo>;
