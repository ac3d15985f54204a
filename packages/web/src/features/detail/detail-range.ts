import type { Dayjs } from 'dayjs';

export type QuickRange = 'today' | '7d' | '30d';

/** The quick ranges end now; "today" starts at midnight, the others that many days back at the same hour. */
export function quickRange(range: QuickRange, now: Dayjs): [Dayjs, Dayjs] {
  if (range === 'today') return [now.startOf('day'), now];
  const days = range === '7d' ? 7 : 30;
  return [now.subtract(days, 'day').startOf('hour'), now];
}

/**
 * The server keeps hour buckets stamped with the hour's start: asking from the start of the first hour keeps the
 * bucket the range begins in.
 */
export function queryStart(start: Dayjs): number {
  return start.startOf('hour').unix();
}
