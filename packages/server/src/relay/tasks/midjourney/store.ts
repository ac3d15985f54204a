import type { Kysely, Updateable } from 'kysely';
import type { Db } from '../../../db/connection.js';
import type { Database, MidjourneyRow, MidjourneysTable } from '../../../db/schema.js';

/** Statuses after which a drawing task never changes again. */
export const MJ_TERMINAL = ['SUCCESS', 'FAILURE', 'CANCEL'] as const;

/**
 * The queries the drawing relay and its poller need beyond the table's repository (insert and list): lookups
 * scoped to an owner, the unfinished set, and updates that only ever move a task forward.
 */
export function midjourneyStore(db: Db) {
  const q = db.kysely;
  return {
    async findForUser(userId: number, mjId: string): Promise<MidjourneyRow | undefined> {
      if (!mjId) return undefined;
      return q
        .selectFrom('midjourneys')
        .selectAll()
        .where('user_id', '=', userId)
        .where('mj_id', '=', mjId)
        .orderBy('id', 'desc')
        .executeTakeFirst();
    },
    async findManyForUser(userId: number, mjIds: string[]): Promise<MidjourneyRow[]> {
      if (mjIds.length === 0) return [];
      return q
        .selectFrom('midjourneys')
        .selectAll()
        .where('user_id', '=', userId)
        .where('mj_id', 'in', mjIds)
        .orderBy('id', 'desc')
        .execute();
    },
    /** Any owner: the image proxy is reached by task id alone (the id is the capability, as in the family). */
    async findByMjId(mjId: string): Promise<MidjourneyRow | undefined> {
      if (!mjId) return undefined;
      return q.selectFrom('midjourneys').selectAll().where('mj_id', '=', mjId).orderBy('id', 'desc').executeTakeFirst();
    },
    async unfinished(limit: number): Promise<MidjourneyRow[]> {
      return q
        .selectFrom('midjourneys')
        .selectAll()
        .where('status', 'not in', [...MJ_TERMINAL])
        .where('mj_id', '<>', '')
        .orderBy('id', 'asc')
        .limit(limit)
        .execute();
    },
    /** Progress on a task still running; a task that reached a terminal status is left alone. */
    async advance(id: number, changes: Updateable<MidjourneysTable>): Promise<boolean> {
      const result = await q
        .updateTable('midjourneys')
        .set(changes)
        .where('id', '=', id)
        .where('status', 'not in', [...MJ_TERMINAL])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** The one transition that refunds: only the caller whose update changed the row gives the quota back. */
    markFailed(trx: Kysely<Database>, id: number, changes: Updateable<MidjourneysTable>) {
      return trx
        .updateTable('midjourneys')
        .set({ ...changes, status: 'FAILURE', progress: '100%' })
        .where('id', '=', id)
        .where('status', 'not in', [...MJ_TERMINAL])
        .executeTakeFirst()
        .then((result) => Number(result.numUpdatedRows) > 0);
    },
  };
}

export type MidjourneyStore = ReturnType<typeof midjourneyStore>;
