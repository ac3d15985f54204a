import type { Db } from '../connection.js';
import type { AuditLogRow, NewAuditLog } from '../schema.js';

export interface AuditFilter {
  action?: string;
  actorUsername?: string;
  targetType?: string;
  targetId?: string;
  startTimestamp?: number;
  endTimestamp?: number;
  /** Target types left out (option rows for admins below root). */
  excludeTargetTypes?: string[];
}

export function createAuditLogsRepo(db: Db) {
  const q = db.kysely;

  const filtered = (filter: AuditFilter) => {
    let query = q.selectFrom('audit_logs');
    if (filter.action) query = query.where('action', '=', filter.action);
    if (filter.actorUsername) query = query.where('actor_username', '=', filter.actorUsername);
    if (filter.targetType) query = query.where('target_type', '=', filter.targetType);
    if (filter.targetId) query = query.where('target_id', '=', filter.targetId);
    if (filter.startTimestamp) query = query.where('created_at', '>=', filter.startTimestamp);
    if (filter.endTimestamp) query = query.where('created_at', '<=', filter.endTimestamp);
    if (filter.excludeTargetTypes?.length) query = query.where('target_type', 'not in', filter.excludeTargetTypes);
    return query;
  };

  return {
    /** One statement for a whole batch (a tag edit touches many channels), so the rows land together or not at all. */
    async insertMany(rows: NewAuditLog[]): Promise<void> {
      // MySQL and SQLite cap bound parameters per statement; 9 columns x 500 rows stays under both.
      for (let start = 0; start < rows.length; start += 500) {
        await q
          .insertInto('audit_logs')
          .values(rows.slice(start, start + 500))
          .execute();
      }
    },
    async list(filter: AuditFilter, offset: number, limit: number): Promise<{ items: AuditLogRow[]; total: number }> {
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
      const result = await q.deleteFrom('audit_logs').where('created_at', '<', timestamp).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type AuditLogsRepo = ReturnType<typeof createAuditLogsRepo>;
