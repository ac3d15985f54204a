import type { Db } from '../connection.js';
import type { MidjourneyRow, NewMidjourney } from '../schema.js';
import { insertReturningId } from '../sql-helpers.js';

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
  };
}

export type MidjourneysRepo = ReturnType<typeof createMidjourneysRepo>;
