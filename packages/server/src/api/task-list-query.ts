import { queryNumber, queryString, readPaging } from '../http/paging.js';

export interface TaskListQuery {
  offset: number;
  limit: number;
  channelId?: number;
  id?: string;
  start?: number;
  end?: number;
}

/**
 * The shared filters of the drawing and task lists (spec 001 §7): page, the task's id under `idName`, a time range,
 * and the channel, which only admins may filter by (ignored for users: they never see channels).
 */
export function readTaskListQuery(query: Record<string, unknown>, idName: string, admin: boolean): TaskListQuery {
  const { offset, pageSize } = readPaging(query);
  return {
    offset,
    limit: pageSize,
    channelId: admin ? queryNumber(query, 'channel_id') : undefined,
    id: queryString(query, idName) || undefined,
    start: queryNumber(query, 'start_timestamp'),
    end: queryNumber(query, 'end_timestamp'),
  };
}
