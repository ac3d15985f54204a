import { describe, expect, it } from 'vitest';
import { addDays, CHECKIN_MONTH, checkinRewardRange, checkinStreak, localDate } from './checkin.js';

describe('check-in days', () => {
  it('writes the local date and moves by calendar days across months, years and leap days', () => {
    expect(localDate(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
  });

  it('counts the streak back from today, or from yesterday while today is still open', () => {
    const dates = ['2026-02-27', '2026-02-28', '2026-03-01', '2026-02-25'];
    expect(checkinStreak(dates, '2026-03-01')).toBe(3);
    expect(checkinStreak(dates, '2026-03-02')).toBe(3);
    expect(checkinStreak(dates, '2026-03-03')).toBe(0);
    expect(checkinStreak([], '2026-03-03')).toBe(0);
  });

  it('reads the reward range like the family: negatives are 0, an inverted range is swapped', () => {
    expect(checkinRewardRange(1000, 10000)).toEqual({ min: 1000, max: 10000 });
    expect(checkinRewardRange(5000, 100)).toEqual({ min: 100, max: 5000 });
    expect(checkinRewardRange(-5, 7)).toEqual({ min: 0, max: 7 });
    expect(checkinRewardRange(1, 2 ** 60)).toEqual({ min: 1, max: 1_000_000_000_000 });
  });

  it('accepts months written YYYY-MM only', () => {
    expect(['2026-01', '1999-12'].every((month) => CHECKIN_MONTH.test(month))).toBe(true);
    expect(['2026-13', '2026-1', '2026-00', '26-01', '2026-01-01', ''].some((m) => CHECKIN_MONTH.test(m))).toBe(false);
  });
});
