import dayjs, { type Dayjs } from 'dayjs';
import type { QueryValue } from '../../lib/api';

/** The filters the drawing and task logs share (spec 001 §2); the channel only for admins. */
export interface ListFilters {
  channel: string;
  id: string;
  start: Dayjs | null;
  end: Dayjs | null;
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
