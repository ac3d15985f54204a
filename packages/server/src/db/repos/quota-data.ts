import { sql } from 'kysely';
import type { Db } from '../connection.js';
import type { QuotaDataRow } from '../schema.js';

export interface QuotaBucket {
  userId: number;
  username: string;
  modelName: string;
  /** Start of the hour, unix seconds. */
  hour: number;
  count: number;
  quota: number;
  tokenUsed: number;
}

export function createQuotaDataRepo(db: Db) {
  const q = db.kysely;
  return {
    /**
     * Adds aggregated counters to a row of their (user, model, hour), creating one when there is none. Two nodes
     * adding the first row of an hour at once may both insert: readers sum a bucket's rows, as the family's do.
     */
    async increment(bucket: QuotaBucket): Promise<void> {
      // The oldest row where an hour has several (written by the family's server); the exporter is not hot, so
      // a lookup and a write are two plain statements that read the same on every engine.
      const row = await q
        .selectFrom('quota_data')
        .select('id')
        .where('user_id', '=', bucket.userId)
        .where('model_name', '=', bucket.modelName)
        .where('created_at', '=', bucket.hour)
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (row) {
        await q
          .updateTable('quota_data')
          .set({
            count: sql<number>`count + ${bucket.count}`,
            quota: sql<number>`quota + ${bucket.quota}`,
            token_used: sql<number>`token_used + ${bucket.tokenUsed}`,
          })
          .where('id', '=', row.id)
          .execute();
        return;
      }
      await q
        .insertInto('quota_data')
        .values({
          user_id: bucket.userId,
          username: bucket.username,
          model_name: bucket.modelName,
          created_at: bucket.hour,
          count: bucket.count,
          quota: bucket.quota,
          token_used: bucket.tokenUsed,
        })
        .execute();
    },
    /** Rows of hours starting within [start, end], optionally of one user (by id, or by name for the admin filter). */
    async range(start: number, end: number, userId?: number, username?: string): Promise<QuotaDataRow[]> {
      // A bucket may have several rows (the family writes one per flush): each comes back once, summed.
      let query = q
        .selectFrom('quota_data')
        .select(({ fn }) => [
          fn.min('id').as('id'),
          'user_id',
          fn.max('username').as('username'),
          'model_name',
          'created_at',
          fn.sum<number>('token_used').as('token_used'),
          fn.sum<number>('count').as('count'),
          fn.sum<number>('quota').as('quota'),
        ])
        .where('created_at', '>=', start)
        .where('created_at', '<=', end);
      if (userId !== undefined) query = query.where('user_id', '=', userId);
      if (username) query = query.where('username', '=', username);
      const rows = await query.groupBy(['user_id', 'model_name', 'created_at']).orderBy('created_at').execute();
      // Sums come back as strings from PostgreSQL and MySQL.
      return rows.map((row) => ({
        ...row,
        id: Number(row.id),
        username: String(row.username ?? ''),
        token_used: Number(row.token_used),
        count: Number(row.count),
        quota: Number(row.quota),
      }));
    },
  };
}

export type QuotaDataRepo = ReturnType<typeof createQuotaDataRepo>;
