import type { BudgetPeriod } from './fields.js';

export interface PeriodBounds {
  /** Unix milliseconds of the period's first instant. */
  start: number;
  /** Unix milliseconds of the next period's first instant. */
  end: number;
}

/**
 * The calendar period holding `now`, in the server's local time zone (the `TZ` environment variable): a day from
 * midnight, a week from Monday midnight (ISO weeks), a month from the 1st. Built with local-date arithmetic, so
 * days around a daylight-saving change are 23 or 25 hours long, as on a wall clock.
 */
export function periodBounds(period: BudgetPeriod, now: number): PeriodBounds {
  const date = new Date(now);
  const year = date.getFullYear();
  const month = date.getMonth();
  const day = date.getDate();
  if (period === 'month')
    return { start: new Date(year, month, 1).getTime(), end: new Date(year, month + 1, 1).getTime() };
  if (period === 'week') {
    // getDay: 0 is Sunday; an ISO week starts on Monday.
    const sinceMonday = (date.getDay() + 6) % 7;
    return {
      start: new Date(year, month, day - sinceMonday).getTime(),
      end: new Date(year, month, day - sinceMonday + 7).getTime(),
    };
  }
  return { start: new Date(year, month, day).getTime(), end: new Date(year, month, day + 1).getTime() };
}
