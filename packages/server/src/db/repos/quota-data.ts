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
    /** Adds aggregated counters to their (user, model, hour) row, creating it on first use. */
    async increment(bucket: QuotaBucket): Promise<void> {
      const values = {
        user_id: bucket.userId,
        username: bucket.username,
        model_name: bucket.modelName,
        created_at: bucket.hour,
        count: bucket.count,
        quota: bucket.quota,
        token_used: bucket.tokenUsed,
      };
      const add = {
        count: sql<number>`quota_data.count + ${bucket.count}`,
        quota: sql<number>`quota_data.quota + ${bucket.quota}`,
        token_used: sql<number>`quota_data.token_used + ${bucket.tokenUsed}`,
      };
      const insert = q.insertInto('quota_data').values(values);
      if (db.dialect === 'mysql') {
        await insert.onDuplicateKeyUpdate(add).execute();
      } else {
        await insert.onConflict((oc) => oc.columns(['user_id', 'model_name', 'created_at']).doUpdateSet(add)).execute();
      }
    },
    /** Rows of hours starting within [start, end], optionally of one user (by id, or by name for the admin filter). */
    async range(start: number, end: number, userId?: number, username?: string): Promise<QuotaDataRow[]> {
      let query = q
        .selectFrom('quota_data')
        .selectAll()
        .where('created_at', '>=', start)
        .where('created_at', '<=', end);
      if (userId !== undefined) query = query.where('user_id', '=', userId);
      if (username) query = query.where('username', '=', username);
      return query.orderBy('created_at').execute();
    },
  };
}

export type QuotaDataRepo = ReturnType<typeof createQuotaDataRepo>;
