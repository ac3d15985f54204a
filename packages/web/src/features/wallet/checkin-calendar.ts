import { addDays } from '@gateway/shared';

/** The month before or after a YYYY-MM month. */
export function shiftMonth(month: string, by: number): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const moved = new Date(Date.UTC(year, number - 1 + by, 1));
  return `${moved.getUTCFullYear()}-${String(moved.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * The cells of a month's calendar, weeks starting on Monday: null for the blanks before the 1st, then every date
 * (YYYY-MM-DD) of the month.
 */
export function monthDays(month: string): Array<string | null> {
  const first = `${month}-01`;
  const [year, number] = month.split('-').map(Number) as [number, number];
  // getUTCDay: 0 is Sunday; Monday-first puts Monday at 0.
  const blanks = (new Date(Date.UTC(year, number - 1, 1)).getUTCDay() + 6) % 7;
  const cells: Array<string | null> = Array.from({ length: blanks }, () => null);
  for (let day = first; day.startsWith(month); day = addDays(day, 1)) cells.push(day);
  return cells;
}

/** One cell of the calendar: a date, or a blank before the 1st or after the last day (keyed by its place). */
export interface CalendarCell {
  key: string;
  date: string | null;
}

/** The month's cells in weeks of seven (the last week padded with blanks). */
export function calendarWeeks(month: string): CalendarCell[][] {
  const cells: CalendarCell[] = monthDays(month).map((date, place) => ({ key: date ?? `before-${place}`, date }));
  while (cells.length % 7) cells.push({ key: `after-${cells.length}`, date: null });
  return Array.from({ length: cells.length / 7 }, (_, week) => cells.slice(week * 7, week * 7 + 7));
}

/** Monday to Sunday in the reader's language, narrow (M T W … / 一 二 三 …). */
export function weekdayNames(language: string): Array<{ key: string; label: string }> {
  const format = new Intl.DateTimeFormat(language, { weekday: 'narrow', timeZone: 'UTC' });
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, index) => {
    const date = new Date(Date.UTC(2024, 0, 1 + index));
    return { key: `weekday-${index}`, label: format.format(date) };
  });
}
