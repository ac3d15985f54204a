import type { Db } from '../connection.js';
import { nowSeconds } from '../sql-helpers.js';

export function createSetupsRepo(db: Db) {
  const q = db.kysely;
  return {
    async isDone(): Promise<boolean> {
      const row = await q.selectFrom('setups').select('id').limit(1).executeTakeFirst();
      return row !== undefined;
    },
    async record(version: string): Promise<void> {
      await q.insertInto('setups').values({ version, initialized_at: nowSeconds() }).execute();
    },
  };
}

export type SetupsRepo = ReturnType<typeof createSetupsRepo>;
