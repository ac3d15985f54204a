import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  bucketStart,
  bucketsBetween,
  chartData,
  exportedBucketTime,
  fitGranularity,
  tableRows,
  toCsv,
  totalsOf,
} from './aggregate';
import type { QuotaDataRow } from './types';

// Local times, so the test holds in any time zone (buckets follow the viewer's clock).
const at = (text: string) => dayjs(text).unix();
let id = 0;
const row = (time: string, model: string, quota: number, count = 1, tokens = 10, username = 'alice'): QuotaDataRow => ({
  id: ++id,
  user_id: username === 'alice' ? 2 : 3,
  username,
  model_name: model,
  created_at: at(time),
  count,
  quota,
  token_used: tokens,
});

describe('time buckets', () => {
  it('starts hours, days and Monday weeks', () => {
    const wednesday = at('2026-01-07T15:42:10');
    expect(bucketStart(wednesday, 'hour')).toBe(at('2026-01-07T15:00:00'));
    expect(bucketStart(wednesday, 'day')).toBe(at('2026-01-07T00:00:00'));
    expect(bucketStart(wednesday, 'week')).toBe(at('2026-01-05T00:00:00'));
    // A Sunday belongs to the week that began the Monday before.
    expect(bucketStart(at('2026-01-11T23:00:00'), 'week')).toBe(at('2026-01-05T00:00:00'));
    expect(bucketStart(at('2026-01-12T00:00:00'), 'week')).toBe(at('2026-01-12T00:00:00'));
  });

  it('draws a long range coarser instead of thousands of hours', () => {
    const start = at('2026-01-01T00:00:00');
    expect(fitGranularity('hour', start, start + 30 * 86_400)).toBe('hour');
    expect(fitGranularity('hour', start, start + 90 * 86_400)).toBe('day');
    expect(fitGranularity('week', start, start + 86_400)).toBe('week');
    expect(fitGranularity('day', start, start + 3000 * 86_400)).toBe('week');
  });

  it('lists every bucket of a range, quiet ones included', () => {
    expect(bucketsBetween(at('2026-01-07T10:30:00'), at('2026-01-07T13:00:00'), 'hour')).toEqual([
      at('2026-01-07T10:00:00'),
      at('2026-01-07T11:00:00'),
      at('2026-01-07T12:00:00'),
      at('2026-01-07T13:00:00'),
    ]);
    expect(bucketsBetween(at('2026-01-01T10:00:00'), at('2026-01-03T09:00:00'), 'day')).toHaveLength(3);
  });
});

describe('dashboard figures', () => {
  const rows = [
    row('2026-01-07T10:00:00', 'gpt-4o', 3750, 1, 1500),
    row('2026-01-07T11:00:00', 'gpt-4o', 7500, 2, 3000),
    row('2026-01-07T11:00:00', 'claude', 100, 4, 40),
    row('2026-01-08T09:00:00', 'gpt-4o', 50, 1, 5, 'bob'),
  ];
  const start = at('2026-01-07T10:00:00');
  const end = at('2026-01-08T10:00:00');

  it('totals consumption, requests, tokens and the average per minute over the range', () => {
    // 24 hours = 1440 minutes: 8 requests → 0.01 RPM (rounded), 4545 tokens → 3.16 TPM
    expect(totalsOf(rows, start, end)).toEqual({ quota: 11_400, count: 8, tokens: 4545, rpm: 0.01, tpm: 3.16 });
    expect(totalsOf([], start, start)).toEqual({ quota: 0, count: 0, tokens: 0, rpm: 0, tpm: 0 });
  });

  it('groups per model and bucket, largest spender first', () => {
    const daily = chartData(rows, start, end, 'day');
    expect(daily.buckets).toEqual([at('2026-01-07T00:00:00'), at('2026-01-08T00:00:00')]);
    expect(daily.series).toEqual([
      { model: 'gpt-4o', quota: [11_250, 50], count: [3, 1] },
      { model: 'claude', quota: [100, 0], count: [4, 0] },
    ]);
    expect(daily.models).toEqual([
      { model: 'gpt-4o', quota: 11_300, count: 4, tokens: 4505 },
      { model: 'claude', quota: 100, count: 4, tokens: 40 },
    ]);
    const hourly = chartData(rows, start, end, 'hour');
    expect(hourly.buckets).toHaveLength(25);
    expect(hourly.series[0]!.quota.slice(0, 3)).toEqual([3750, 7500, 0]);
  });

  it('tables one line per bucket, user and model, newest first', () => {
    const lines = tableRows(rows, 'day');
    expect(lines.map((line) => [line.username, line.model, line.count, line.quota])).toEqual([
      ['bob', 'gpt-4o', 1, 50],
      ['alice', 'gpt-4o', 3, 11_250],
      ['alice', 'claude', 4, 100],
    ]);
  });
});

describe('CSV export', () => {
  it('quotes separators and quotes, and defuses spreadsheet formulas', () => {
    expect(
      toCsv(
        ['时间', 'model'],
        [
          ['01-07 10:00', 'gpt-4o, "mini"'],
          ['x', '=HYPERLINK("evil")'],
          ['y', 12.5],
        ],
      ),
    ).toBe('时间,model\r\n01-07 10:00,"gpt-4o, ""mini"""\r\nx,"\'=HYPERLINK(""evil"")"\r\ny,12.5');
  });
});

describe('exportedBucketTime', () => {
  it('keeps the year in exported hour and day buckets', () => {
    const at = dayjs('2026-03-04T05:00:00').unix();
    expect(exportedBucketTime(at, 'hour')).toBe('2026-03-04 05:00');
    expect(exportedBucketTime(at, 'day')).toBe('2026-03-04');
  });
});
