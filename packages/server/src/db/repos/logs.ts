import type { Db } from '../connection.js';
import type { LogRow, NewLog } from '../schema.js';

export interface LogFilter {
  userId?: number;
  type?: number;
  tokenName?: string;
  modelName?: string;
  username?: string;
  channelId?: number;
  group?: string;
  startTimestamp?: number;
  endTimestamp?: number;
}

export function createLogsRepo(db: Db) {
  const q = db.kysely;

  const filtered = (filter: LogFilter) => {
    let query = q.selectFrom('logs');
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
    if (filter.type) query = query.where('type', '=', filter.type);
    if (filter.tokenName) query = query.where('token_name', '=', filter.tokenName);
    if (filter.modelName) query = query.where('model_name', '=', filter.modelName);
    if (filter.username) query = query.where('username', '=', filter.username);
    if (filter.channelId) query = query.where('channel_id', '=', filter.channelId);
    if (filter.group) query = query.where('group', '=', filter.group);
    if (filter.startTimestamp) query = query.where('created_at', '>=', filter.startTimestamp);
    if (filter.endTimestamp) query = query.where('created_at', '<=', filter.endTimestamp);
    return query;
  };

  return {
    /** Batched insert: the relay's log writer hands over everything it buffered since the last flush. */
    async insertMany(rows: NewLog[]): Promise<void> {
      for (let start = 0; start < rows.length; start += 200) {
        await q
          .insertInto('logs')
          .values(rows.slice(start, start + 200))
          .execute();
      }
    },
    async list(filter: LogFilter, offset: number, limit: number): Promise<{ items: LogRow[]; total: number }> {
      const [items, total] = await Promise.all([
        filtered(filter)
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .offset(offset)
          .limit(limit)
          .execute(),
        filtered(filter)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(total.n) };
    },
    async deleteBefore(timestamp: number): Promise<number> {
      const result = await q.deleteFrom('logs').where('created_at', '<', timestamp).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type LogsRepo = ReturnType<typeof createLogsRepo>;
