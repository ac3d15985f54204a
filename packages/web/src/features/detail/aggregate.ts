import dayjs from 'dayjs';
import type { Granularity, QuotaDataRow } from './types';

/** Start of the bucket (unix seconds, local time) that a time falls in; weeks start on Monday. */
export function bucketStart(seconds: number, granularity: Granularity): number {
  const time = dayjs.unix(seconds);
  if (granularity === 'hour') return time.startOf('hour').unix();
  const day = time.startOf('day');
  if (granularity === 'day') return day.unix();
  // dayjs' day(): 0 = Sunday. Monday-based weeks, as the calendars of both languages show them.
  const sinceMonday = (day.day() + 6) % 7;
  return day.subtract(sinceMonday, 'day').unix();
}

function nextBucket(start: number, granularity: Granularity): number {
  const unit = granularity === 'hour' ? 'hour' : granularity === 'day' ? 'day' : 'week';
  return dayjs.unix(start).add(1, unit).unix();
}

/** More buckets than this would make an unreadable chart (and a slow one): a long range is drawn coarser. */
export const MAX_BUCKETS = 2000;

const BUCKET_SECONDS: Record<Granularity, number> = { hour: 3600, day: 86_400, week: 7 * 86_400 };

/** The chosen granularity, or the next coarser one that keeps the range within MAX_BUCKETS. */
export function fitGranularity(wanted: Granularity, start: number, end: number): Granularity {
  const order: Granularity[] = ['hour', 'day', 'week'];
  for (const granularity of order.slice(order.indexOf(wanted))) {
    if ((end - start) / BUCKET_SECONDS[granularity] < MAX_BUCKETS) return granularity;
  }
  return 'week';
}

/** Every bucket from the range's start to its end, so quiet hours show as gaps instead of vanishing. */
export function bucketsBetween(start: number, end: number, granularity: Granularity, limit = MAX_BUCKETS): number[] {
  const buckets: number[] = [];
  for (let at = bucketStart(start, granularity); at <= end && buckets.length < limit; at = nextBucket(at, granularity))
    buckets.push(at);
  return buckets;
}

export function bucketLabel(start: number, granularity: Granularity): string {
  return dayjs.unix(start).format(granularity === 'hour' ? 'MM-DD HH:00' : 'YYYY-MM-DD');
}

/** A bucket's time in exported files: always with the year, since a spreadsheet outlives the page's range. */
export function exportedBucketTime(start: number, granularity: Granularity): string {
  return dayjs.unix(start).format(granularity === 'hour' ? 'YYYY-MM-DD HH:00' : 'YYYY-MM-DD');
}

export interface Totals {
  quota: number;
  count: number;
  tokens: number;
  /** Average requests and tokens per minute over the chosen range. */
  rpm: number;
  tpm: number;
}

export function totalsOf(rows: QuotaDataRow[], start: number, end: number): Totals {
  let quota = 0;
  let count = 0;
  let tokens = 0;
  for (const row of rows) {
    quota += row.quota;
    count += row.count;
    tokens += row.token_used;
  }
  const minutes = Math.max(1, (end - start) / 60);
  const perMinute = (value: number) => Math.round((value / minutes) * 100) / 100;
  return { quota, count, tokens, rpm: perMinute(count), tpm: perMinute(tokens) };
}

export interface ModelSeries {
  model: string;
  /** Per bucket, in the order of `buckets`. */
  quota: number[];
  count: number[];
}

export interface ChartData {
  buckets: number[];
  /** Models by total quota, largest first (the legend and the stacks follow this order). */
  series: ModelSeries[];
  /** Each model's totals, largest quota first. */
  models: Array<{ model: string; quota: number; count: number; tokens: number }>;
}

/** Rows regrouped by the chosen granularity, one series per model. */
export function chartData(rows: QuotaDataRow[], start: number, end: number, granularity: Granularity): ChartData {
  const buckets = bucketsBetween(start, end, granularity);
  const index = new Map(buckets.map((bucket, position) => [bucket, position]));
  const byModel = new Map<string, ModelSeries & { tokens: number }>();
  for (const row of rows) {
    let series = byModel.get(row.model_name);
    if (!series) {
      series = {
        model: row.model_name,
        quota: buckets.map(() => 0),
        count: buckets.map(() => 0),
        tokens: 0,
      };
      byModel.set(row.model_name, series);
    }
    series.tokens += row.token_used;
    const position = index.get(bucketStart(row.created_at, granularity));
    if (position === undefined) continue;
    series.quota[position]! += row.quota;
    series.count[position]! += row.count;
  }
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const all = [...byModel.values()].map((series) => ({
    ...series,
    totalQuota: sum(series.quota),
    totalCount: sum(series.count),
  }));
  all.sort((a, b) => b.totalQuota - a.totalQuota || b.totalCount - a.totalCount || a.model.localeCompare(b.model));
  return {
    buckets,
    series: all.map(({ model, quota, count }) => ({ model, quota, count })),
    models: all.map((series) => ({
      model: series.model,
      quota: series.totalQuota,
      count: series.totalCount,
      tokens: series.tokens,
    })),
  };
}

export interface TableRow {
  key: string;
  bucket: number;
  username: string;
  model: string;
  count: number;
  quota: number;
  tokens: number;
}

/** The table: one line per bucket, user (admins see everyone's) and model, newest first. */
export function tableRows(rows: QuotaDataRow[], granularity: Granularity): TableRow[] {
  const lines = new Map<string, TableRow>();
  for (const row of rows) {
    const bucket = bucketStart(row.created_at, granularity);
    const key = `${bucket}\u0000${row.username}\u0000${row.model_name}`;
    const line = lines.get(key);
    if (line) {
      line.count += row.count;
      line.quota += row.quota;
      line.tokens += row.token_used;
    } else {
      lines.set(key, {
        key,
        bucket,
        username: row.username,
        model: row.model_name,
        count: row.count,
        quota: row.quota,
        tokens: row.token_used,
      });
    }
  }
  return [...lines.values()].sort(
    (a, b) => b.bucket - a.bucket || b.quota - a.quota || a.username.localeCompare(b.username),
  );
}

/** One CSV field: quoted when it holds a separator, a quote or a line break; formula starters are defused. */
function csvField(value: string | number): string {
  let text = String(value);
  // A spreadsheet would run a cell starting with = + - @ as a formula; model names come from callers.
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], lines: Array<Array<string | number>>): string {
  return [header, ...lines].map((line) => line.map(csvField).join(',')).join('\r\n');
}
