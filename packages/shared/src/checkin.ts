// Daily check-in days: dates are YYYY-MM-DD strings of the server's time zone (the family's `checkin_date`).

const pad = (value: number) => String(value).padStart(2, '0');

/** The local calendar date of `at` (the process's time zone, `TZ`), as YYYY-MM-DD. */
export function localDate(at: Date): string {
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** The date `days` after (or before, when negative) a YYYY-MM-DD date, by the calendar. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const moved = new Date(Date.UTC(year, month - 1, day + days));
  return `${moved.getUTCFullYear()}-${pad(moved.getUTCMonth() + 1)}-${pad(moved.getUTCDate())}`;
}

/** A month written YYYY-MM (01–12). */
export const CHECKIN_MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * Days in a row with a check-in, counted back from today; while today has none yet the run up to yesterday still
 * counts (it is not broken before the day is over).
 */
export function checkinStreak(dates: Iterable<string>, today: string): number {
  const days = new Set(dates);
  let day = days.has(today) ? today : addDays(today, -1);
  let streak = 0;
  while (days.has(day)) {
    streak += 1;
    day = addDays(day, -1);
  }
  return streak;
}

/** The largest reward a check-in draws (a uniform draw needs a range below 2^48; the options allow no more). */
export const CHECKIN_QUOTA_MAX = 1_000_000_000_000;

/**
 * The reward range as the family reads its two options: negative values count as 0 and a minimum above the
 * maximum is swapped, so saving the two options one after the other never breaks check-in. Values beyond
 * CHECKIN_QUOTA_MAX (an old database's) count as that.
 */
export function checkinRewardRange(min: number, max: number): { min: number; max: number } {
  const bound = (value: number) => Math.min(CHECKIN_QUOTA_MAX, Math.max(0, Math.trunc(value) || 0));
  const low = bound(min);
  const high = bound(max);
  return low <= high ? { min: low, max: high } : { min: high, max: low };
}
