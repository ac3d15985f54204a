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

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** The server's local offset at `at` as a zone name: `UTC`, `UTC+08:00`, `UTC-05:30`. */
function zoneName(at: Date): string {
  const offset = -at.getTimezoneOffset();
  if (offset === 0) return 'UTC';
  const sign = offset > 0 ? '+' : '-';
  const minutes = Math.abs(offset);
  return `UTC${sign}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/**
 * When a period ends, as a person reads it in the server's time zone: `00:00 UTC` when that is within a day of `now`,
 * else with its date (`2026-12-01 00:00 UTC+08:00`).
 */
export function formatPeriodEnd(end: number, now: number): string {
  const at = new Date(end);
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())} ${zoneName(at)}`;
  if (end - now <= 24 * 3600 * 1000) return time;
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${time}`;
}

/** Units of a wait per language; English's abbreviations stand in for a language not listed. */
const WAIT_UNITS: Record<string, [day: string, hour: string, minute: string]> = {
  zh: [' 天', ' 小时', ' 分钟'],
  'zh-TW': [' 天', ' 小時', ' 分鐘'],
  en: [' d', ' h', ' min'],
  ja: ['日', '時間', '分'],
  fr: ['\u00a0j', '\u00a0h', '\u00a0min'],
  ru: ['\u00a0д', '\u00a0ч', '\u00a0мин'],
  vi: [' ngày', ' giờ', ' phút'],
};

/** A wait in whole minutes (at least one), largest units first: `8 h 53 min`, `2 d 3 h`; zh `8 小时 53 分钟`. */
export function formatWait(seconds: number, lang: string): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const [day, hour, minute] = WAIT_UNITS[lang] ?? [' d', ' h', ' min'];
  const parts: string[] = [];
  if (days) parts.push(`${days}${day}`);
  if (hours) parts.push(`${hours}${hour}`);
  if (rest && !days) parts.push(`${rest}${minute}`);
  return parts.join(lang === 'ja' ? '' : ' ');
}
