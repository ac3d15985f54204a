import type { Db } from '../connection.js';
import type { NewRequestBody } from '../schema.js';

/** Bodies of logged relay calls (migration 0006), read through the usage log row they belong to. */
export function createRequestBodiesRepo(db: Db) {
  const q = db.kysely;
  return {
    async insertMany(rows: NewRequestBody[]): Promise<void> {
      if (rows.length > 0) await q.insertInto('request_bodies').values(rows).execute();
    },
    /**
     * The bodies kept for a usage log row's request id, or undefined when none were kept. Looked up by the id the
     * caller read from the row: the row may live in a separate log database (LOG_SQL_DSN), out of a join's reach.
     */
    async forRequest(requestId: string) {
      if (!requestId) return undefined;
      return q
        .selectFrom('request_bodies')
        .where('request_id', '=', requestId)
        .select(['request_body', 'response_body', 'created_at'])
        .orderBy('id', 'desc')
        .executeTakeFirst();
    },
    async deleteBefore(timestamp: number): Promise<number> {
      const result = await q.deleteFrom('request_bodies').where('created_at', '<', timestamp).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type RequestBodiesRepo = ReturnType<typeof createRequestBodiesRepo>;
