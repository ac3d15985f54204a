import type { Db } from '../connection.js';
import { nowSeconds } from '../sql-helpers.js';
import { sqlOf, type Trx } from '../unit-of-work.js';

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
    /**
     * The first-run record under its fixed primary key (1): of two concurrent setups (even on two nodes) the second
     * insert fails, so its transaction cannot commit and setup never runs twice.
     */
    async recordFirst(trx: Trx, version: string, at: number): Promise<void> {
      await sqlOf(trx)
        .insertInto('setups')
        .values({ id: 1, version, initialized_at: at } as never)
        .execute();
    },
  };
}

export type SetupsRepo = ReturnType<typeof createSetupsRepo>;
