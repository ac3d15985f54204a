import { ApiFailure } from '../http/envelope.js';
import { queryString, readPaging } from '../http/paging.js';

export interface TaskListQuery {
  offset: number;
  limit: number;
  channelId?: number;
  id?: string;
  start?: number;
  end?: number;
}

/** A non-negative integer filter, or undefined when absent/empty; anything else is refused, not ignored. */
function optionalInt(query: Record<string, unknown>, name: string): number | undefined {
  const raw = queryString(query, name);
  if (raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) throw new ApiFailure('invalid_params');
  return value || undefined;
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
    channelId: admin ? optionalInt(query, 'channel_id') : undefined,
    id: queryString(query, idName) || undefined,
    start: optionalInt(query, 'start_timestamp'),
    end: optionalInt(query, 'end_timestamp'),
  };
}
