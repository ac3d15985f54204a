import type { Db } from '../connection.js';

export function createOptionsRepo(db: Db) {
  const q = db.kysely;
  return {
    async all(): Promise<Array<{ key: string; value: string }>> {
      const rows = await q.selectFrom('options').select(['key', 'value']).execute();
      return rows.map((row) => ({ key: row.key, value: row.value ?? '' }));
    },

    async upsert(key: string, value: string): Promise<void> {
      const insert = q.insertInto('options').values({ key, value });
      if (db.dialect === 'mysql') {
        await insert.onDuplicateKeyUpdate({ value }).execute();
      } else {
        await insert.onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
      }
    },
  };
}

export type OptionsRepo = ReturnType<typeof createOptionsRepo>;
