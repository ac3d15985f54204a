import { describe, expect, it } from 'vitest';
import { calendarWeeks, monthDays, shiftMonth, weekdayNames } from './checkin-calendar';

describe('the check-in calendar', () => {
  it('lays a month out in Monday-first weeks', () => {
    // 1 February 2026 is a Sunday: six blanks, then 28 days.
    const february = monthDays('2026-02');
    expect(february.slice(0, 7)).toEqual([null, null, null, null, null, null, '2026-02-01']);
    expect(february.filter(Boolean)).toHaveLength(28);
    expect(monthDays('2024-02').filter(Boolean).at(-1)).toBe('2024-02-29');
    // 1 June 2026 is a Monday: no blanks.
    expect(monthDays('2026-06')[0]).toBe('2026-06-01');
  });

  it('cuts the month into full weeks', () => {
    const weeks = calendarWeeks('2026-02');
    expect(weeks).toHaveLength(5);
    expect(weeks.every((week) => week.length === 7)).toBe(true);
    expect(weeks[4]!.map((cell) => cell.date).filter(Boolean)).toEqual([
      '2026-02-23',
      '2026-02-24',
      '2026-02-25',
      '2026-02-26',
      '2026-02-27',
      '2026-02-28',
    ]);
  });

  it('pages months across years', () => {
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2025-12', 1)).toBe('2026-01');
  });

  it('names the weekdays from Monday in the reader’s language', () => {
    expect(weekdayNames('en').map((day) => day.label)).toEqual(['M', 'T', 'W', 'T', 'F', 'S', 'S']);
    expect(weekdayNames('zh')[0]!.label).toBe('一');
  });
});
