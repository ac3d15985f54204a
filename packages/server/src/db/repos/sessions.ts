import type { Db } from '../connection.js';
import { nowSeconds } from '../sql-helpers.js';

/** Server-side sessions for the console cookie; the cookie carries only the signed id. */
export function createSessionsRepo(db: Db) {
  const q = db.kysely;
  return {
    async insert(id: string, userId: number, ttlSeconds: number): Promise<void> {
      const now = nowSeconds();
      await q
        .insertInto('sessions')
        .values({ id, user_id: userId, created_at: now, expires_at: now + ttlSeconds })
        .execute();
    },

    async findUserId(id: string): Promise<number | undefined> {
      const row = await q
        .selectFrom('sessions')
        .select('user_id')
        .where('id', '=', id)
        .where('expires_at', '>', nowSeconds())
        .executeTakeFirst();
      return row?.user_id;
    },

    async delete(id: string): Promise<void> {
      await q.deleteFrom('sessions').where('id', '=', id).execute();
    },

    async deleteForUser(userId: number): Promise<void> {
      await q.deleteFrom('sessions').where('user_id', '=', userId).execute();
    },

    async deleteExpired(): Promise<number> {
      const result = await q.deleteFrom('sessions').where('expires_at', '<=', nowSeconds()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type SessionsRepo = ReturnType<typeof createSessionsRepo>;
