import type { Db } from '../connection.js';
import type { NewRequestBody } from '../schema.js';

/** Bodies of logged relay calls (migration 0006), read through the usage log row they belong to. */
export function createRequestBodiesRepo(db: Db) {
  const q = db.kysely;
  return {
    async insertMany(rows: NewRequestBody[]): Promise<void> {
      if (rows.length > 0) await q.insertInto('request_bodies').values(rows).execute();
    },
    /** The bodies of the usage log row `logId`, or undefined when none were kept (or the row has no request id). */
    async forLog(logId: number) {
      return q
        .selectFrom('logs')
        .innerJoin('request_bodies', 'request_bodies.request_id', 'logs.request_id')
        .where('logs.id', '=', logId)
        .where('logs.request_id', '!=', '')
        .select(['request_bodies.request_body', 'request_bodies.response_body', 'request_bodies.created_at'])
        .orderBy('request_bodies.id', 'desc')
        .executeTakeFirst();
    },
    async deleteBefore(timestamp: number): Promise<number> {
      const result = await q.deleteFrom('request_bodies').where('created_at', '<', timestamp).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type RequestBodiesRepo = ReturnType<typeof createRequestBodiesRepo>;
