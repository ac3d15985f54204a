import dayjs from 'dayjs';
import type { QueryValue } from '../../lib/api';
import type { ListFilters } from './types';

/** Tag colour and label key of each async-task status (spec 001 §4); '' means still submitting. */
export const TASK_STATUSES: Record<string, { color: string; labelKey: string }> = {
  NOT_START: { color: 'default', labelKey: 'task.status_not_start' },
  SUBMITTED: { color: 'blue', labelKey: 'task.status_submitted' },
  QUEUED: { color: 'geekblue', labelKey: 'task.status_queued' },
  IN_PROGRESS: { color: 'processing', labelKey: 'task.status_in_progress' },
  SUCCESS: { color: 'success', labelKey: 'task.status_success' },
  FAILURE: { color: 'error', labelKey: 'task.status_failure' },
  UNKNOWN: { color: 'default', labelKey: 'task.status_unknown' },
  '': { color: 'default', labelKey: 'task.status_submitting' },
};

export function taskStatusInfo(status: string) {
  return TASK_STATUSES[status] ?? TASK_STATUSES.UNKNOWN!;
}

/** "45%" → 45; anything that is not a percentage → null (shown as raw text). */
export function progressPercent(progress: string | null | undefined): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(progress ?? '');
  if (!match) return null;
  return Math.min(100, Math.max(0, Number(match[1])));
}

/** Whole seconds between two instants in the same unit, or null when either is missing. */
export function elapsedSeconds(start: number, end: number, unit: 'ms' | 's'): number | null {
  if (!start || !end || end < start) return null;
  return unit === 'ms' ? Math.round((end - start) / 1000) : end - start;
}

export function formatTime(value: number, unit: 'ms' | 's'): string {
  if (!value) return '';
  return (unit === 'ms' ? dayjs(value) : dayjs.unix(value)).format('YYYY-MM-DD HH:mm:ss');
}

/** Spec 001 §9: the task log starts at the start of today; the end stays an hour ahead so new tasks show. */
export function defaultTaskFilters(now = dayjs()): ListFilters {
  return { channel: '', id: '', start: now.startOf('day'), end: now.add(1, 'hour') };
}

/** Filters as the list endpoints take them (`idName` is mj_id or task_id; times in the list's unit). */
export function listQuery(
  filters: ListFilters,
  idName: string,
  unit: 'ms' | 's',
  admin: boolean,
): Record<string, QueryValue> {
  const time = (value: ListFilters['start']) => (value ? (unit === 'ms' ? value.valueOf() : value.unix()) : undefined);
  return {
    [idName]: filters.id.trim() || undefined,
    start_timestamp: time(filters.start),
    end_timestamp: time(filters.end),
    ...(admin ? { channel_id: filters.channel.trim() || undefined } : {}),
  };
}
