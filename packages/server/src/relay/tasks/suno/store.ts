import type { Kysely, Updateable } from 'kysely';
import type { Db } from '../../../db/connection.js';
import type { Database, TaskRow, TasksTable } from '../../../db/schema.js';

export const TASK_TERMINAL = ['SUCCESS', 'FAILURE'] as const;

/** Owner-scoped lookups and forward-only updates of async tasks, beyond the table's repository. */
export function asyncTaskStore(db: Db) {
  const q = db.kysely;
  return {
    async findForUser(userId: number, platform: string, taskId: string): Promise<TaskRow | undefined> {
      if (!taskId) return undefined;
      return q
        .selectFrom('tasks')
        .selectAll()
        .where('user_id', '=', userId)
        .where('platform', '=', platform)
        .where('task_id', '=', taskId)
        .orderBy('id', 'desc')
        .executeTakeFirst();
    },
    async findManyForUser(userId: number, platform: string, taskIds: string[]): Promise<TaskRow[]> {
      if (taskIds.length === 0) return [];
      return q
        .selectFrom('tasks')
        .selectAll()
        .where('user_id', '=', userId)
        .where('platform', '=', platform)
        .where('task_id', 'in', taskIds)
        .orderBy('id', 'desc')
        .execute();
    },
    async unfinished(platform: string, limit: number): Promise<TaskRow[]> {
      return q
        .selectFrom('tasks')
        .selectAll()
        .where('platform', '=', platform)
        .where('status', 'not in', [...TASK_TERMINAL])
        .orderBy('id', 'asc')
        .limit(limit)
        .execute();
    },
    async advance(id: number, changes: Updateable<TasksTable>): Promise<boolean> {
      const result = await q
        .updateTable('tasks')
        .set(changes)
        .where('id', '=', id)
        .where('status', 'not in', [...TASK_TERMINAL])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** The refunding transition: true only for the update that actually ended the task. */
    async markFailed(trx: Kysely<Database>, id: number, changes: Updateable<TasksTable>): Promise<boolean> {
      const result = await trx
        .updateTable('tasks')
        .set({ ...changes, status: 'FAILURE', progress: '100%' })
        .where('id', '=', id)
        .where('status', 'not in', [...TASK_TERMINAL])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type AsyncTaskStore = ReturnType<typeof asyncTaskStore>;
