import type { Updateable } from 'kysely';
import type { Db } from '../connection.js';
import type { MidjourneyRow, MidjourneysTable, NewMidjourney } from '../schema.js';
import { insertReturningId } from '../sql-helpers.js';
import { sqlOf, type Trx } from '../unit-of-work.js';

/** Statuses after which a drawing task never changes again. */
export const MJ_TERMINAL = ['SUCCESS', 'FAILURE', 'CANCEL'] as const;

export type DrawingChanges = Updateable<MidjourneysTable>;

export interface DrawingFilter {
  userId?: number;
  channelId?: number;
  mjId?: string;
  /** Milliseconds, like submit_time. */
  startMs?: number;
  endMs?: number;
}

export function createMidjourneysRepo(db: Db) {
  const q = db.kysely;
  return {
    async insert(row: NewMidjourney): Promise<number> {
      return insertReturningId(q, db.dialect, 'midjourneys', row);
    },
    async list(filter: DrawingFilter, offset: number, limit: number): Promise<MidjourneyRow[]> {
      let query = q.selectFrom('midjourneys').selectAll();
      if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
      if (filter.channelId) query = query.where('channel_id', '=', filter.channelId);
      if (filter.mjId) query = query.where('mj_id', '=', filter.mjId);
      if (filter.startMs) query = query.where('submit_time', '>=', filter.startMs);
      if (filter.endMs) query = query.where('submit_time', '<=', filter.endMs);
      return query.orderBy('id', 'desc').offset(offset).limit(limit).execute();
    },
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
    async advance(id: number, changes: DrawingChanges): Promise<boolean> {
      const result = await q
        .updateTable('midjourneys')
        .set(changes)
        .where('id', '=', id)
        .where('status', 'not in', [...MJ_TERMINAL])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** The one transition that refunds: only the caller whose update changed the row gives the quota back. */
    async markFailed(trx: Trx, id: number, changes: DrawingChanges): Promise<boolean> {
      const result = await sqlOf(trx)
        .updateTable('midjourneys')
        .set({ ...changes, status: 'FAILURE', progress: '100%' })
        .where('id', '=', id)
        .where('status', 'not in', [...MJ_TERMINAL])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type MidjourneysRepo = ReturnType<typeof createMidjourneysRepo>;
