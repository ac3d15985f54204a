import type { Updateable } from 'kysely';
import type { Db } from '../connection.js';
import type { NewTask, TaskRow, TasksTable } from '../schema.js';
import { insertReturningId } from '../sql-helpers.js';
import { sqlOf, type Trx } from '../unit-of-work.js';

export interface TaskFilter {
  userId?: number;
  channelId?: number;
  taskId?: string;
  startTimestamp?: number;
  endTimestamp?: number;
}

/** Statuses after which an async task (Suno, video) never changes again. */
export const TASK_TERMINAL = ['SUCCESS', 'FAILURE'] as const;

export type TaskChanges = Updateable<TasksTable>;

/**
 * The `tasks` table (the family's: Suno and video tasks): inserts, the console's list, lookups scoped to their
 * owner, the unfinished set the poller walks, and updates that only ever move a task forward, so two pollers (or a
 * poller and a reader refreshing a task) racing on one task change it once.
 */
export function createTasksRepo(db: Db) {
  const q = db.kysely;
  return {
    async insert(row: NewTask): Promise<number> {
      return insertReturningId(q, db.dialect, 'tasks', row);
    },
    async list(filter: TaskFilter, offset: number, limit: number): Promise<TaskRow[]> {
      let query = q.selectFrom('tasks').selectAll();
      if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
      if (filter.channelId) query = query.where('channel_id', '=', filter.channelId);
      if (filter.taskId) query = query.where('task_id', '=', filter.taskId);
      if (filter.startTimestamp) query = query.where('submit_time', '>=', filter.startTimestamp);
      if (filter.endTimestamp) query = query.where('submit_time', '<=', filter.endTimestamp);
      return query.orderBy('id', 'desc').offset(offset).limit(limit).execute();
    },
    /** The owner's task by its id on one of `platforms`; undefined for anyone else's. */
    async findForUser(userId: number, platforms: readonly string[], taskId: string): Promise<TaskRow | undefined> {
      if (!taskId || platforms.length === 0) return undefined;
      return q
        .selectFrom('tasks')
        .selectAll()
        .where('user_id', '=', userId)
        .where('platform', 'in', [...platforms])
        .where('task_id', '=', taskId)
        .orderBy('id', 'desc')
        .executeTakeFirst();
    },
    async findManyForUser(userId: number, platforms: readonly string[], taskIds: string[]): Promise<TaskRow[]> {
      if (taskIds.length === 0 || platforms.length === 0) return [];
      return q
        .selectFrom('tasks')
        .selectAll()
        .where('user_id', '=', userId)
        .where('platform', 'in', [...platforms])
        .where('task_id', 'in', taskIds)
        .orderBy('id', 'desc')
        .execute();
    },
    /** The owner's tasks on `platforms`, newest first, after the task `afterId` (a cursor page). */
    async pageForUser(
      userId: number,
      platforms: readonly string[],
      page: { afterRowId: number | null; limit: number; order: 'asc' | 'desc' },
    ): Promise<TaskRow[]> {
      if (platforms.length === 0) return [];
      let query = q
        .selectFrom('tasks')
        .selectAll()
        .where('user_id', '=', userId)
        .where('platform', 'in', [...platforms]);
      if (page.afterRowId !== null) query = query.where('id', page.order === 'desc' ? '<' : '>', page.afterRowId);
      return query.orderBy('id', page.order).limit(page.limit).execute();
    },
    async findById(id: number): Promise<TaskRow | undefined> {
      return q.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async unfinished(platforms: readonly string[], limit: number): Promise<TaskRow[]> {
      if (platforms.length === 0) return [];
      return q
        .selectFrom('tasks')
        .selectAll()
        .where('platform', 'in', [...platforms])
        .where('status', 'not in', [...TASK_TERMINAL])
        .orderBy('id', 'asc')
        .limit(limit)
        .execute();
    },
    /** Progress on a task still running; a task that reached a terminal status is left alone. */
    async advance(id: number, changes: TaskChanges, trx?: Trx): Promise<boolean> {
      const result = await sqlOf(trx, q)
        .updateTable('tasks')
        .set(changes)
        .where('id', '=', id)
        .where('status', 'not in', [...TASK_TERMINAL])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** Changes to a task whatever its status (a finished video's deletion mark). */
    async update(id: number, changes: TaskChanges): Promise<void> {
      await q.updateTable('tasks').set(changes).where('id', '=', id).execute();
    },
    /** The refunding transition: true only for the update that actually ended the task. */
    async markFailed(trx: Trx, id: number, changes: TaskChanges): Promise<boolean> {
      const result = await sqlOf(trx)
        .updateTable('tasks')
        .set({ ...changes, status: 'FAILURE', progress: '100%' })
        .where('id', '=', id)
        .where('status', 'not in', [...TASK_TERMINAL])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type TasksRepo = ReturnType<typeof createTasksRepo>;
