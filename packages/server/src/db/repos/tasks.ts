import type { Db } from '../connection.js';
import type { NewTask, TaskRow } from '../schema.js';
import { insertReturningId } from '../sql-helpers.js';

export interface TaskFilter {
  userId?: number;
  channelId?: number;
  taskId?: string;
  startTimestamp?: number;
  endTimestamp?: number;
}

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
  };
}

export type TasksRepo = ReturnType<typeof createTasksRepo>;
