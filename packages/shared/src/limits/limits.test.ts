import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { budgetFieldsSchema, limitFieldsSchema, parseGroupLimitDefaults } from './fields.js';
import { periodBounds } from './period.js';

describe('periodBounds in the server time zone', () => {
  const saved = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = 'Asia/Shanghai';
  });
  afterEach(() => {
    process.env.TZ = saved;
  });
  // 2025-03-05 (a Wednesday) 01:30 in Shanghai is 2025-03-04 17:30 UTC.
  const now = Date.UTC(2025, 2, 4, 17, 30);

  it('starts a day at local midnight, not at UTC midnight', () => {
    expect(periodBounds('day', now)).toEqual({
      start: Date.UTC(2025, 2, 4, 16, 0),
      end: Date.UTC(2025, 2, 5, 16, 0),
    });
  });
  it('starts a week on Monday', () => {
    expect(periodBounds('week', now)).toEqual({
      start: Date.UTC(2025, 2, 2, 16, 0),
      end: Date.UTC(2025, 2, 9, 16, 0),
    });
  });
  it('starts a month on the 1st and ends at the next 1st, across a year end', () => {
    expect(periodBounds('month', now)).toEqual({
      start: Date.UTC(2025, 1, 28, 16, 0),
      end: Date.UTC(2025, 2, 31, 16, 0),
    });
    expect(periodBounds('month', Date.UTC(2025, 11, 31, 15, 0)).end).toBe(Date.UTC(2025, 11, 31, 16, 0));
  });
  it('keeps a wall-clock day across a daylight-saving change', () => {
    process.env.TZ = 'Europe/Berlin';
    // 2025-03-30: clocks go from 02:00 to 03:00, so the day is 23 hours long.
    const bounds = periodBounds('day', Date.UTC(2025, 2, 30, 12, 0));
    expect(bounds).toEqual({ start: Date.UTC(2025, 2, 29, 23, 0), end: Date.UTC(2025, 2, 30, 22, 0) });
  });
});

describe('limit fields', () => {
  it('leaves absent fields absent, keeps null and refuses fractions and negatives by name', () => {
    expect(limitFieldsSchema.parse({})).toEqual({});
    expect(limitFieldsSchema.parse({ rpm_limit: null, tpm_limit: 0 })).toEqual({ rpm_limit: null, tpm_limit: 0 });
    expect(limitFieldsSchema.safeParse({ rpm_limit: 1.5 }).error?.issues[0]?.message).toBe('limit_rpm_invalid');
    expect(limitFieldsSchema.safeParse({ tpm_limit: -1 }).error?.issues[0]?.message).toBe('limit_tpm_invalid');
    expect(limitFieldsSchema.safeParse({ concurrency_limit: '3' }).error?.issues[0]?.message).toBe(
      'limit_concurrency_invalid',
    );
    expect(budgetFieldsSchema.safeParse({ budget_period: 'year' }).error?.issues[0]?.message).toBe(
      'budget_period_invalid',
    );
  });

  it('reads the group defaults option strictly', () => {
    expect(parseGroupLimitDefaults({ vip: { rpm: 10, tpm: 0 }, default: {} })).toEqual({
      vip: { rpm: 10, tpm: 0 },
      default: {},
    });
    expect(parseGroupLimitDefaults({ vip: { rpm: -1 } })).toBeNull();
    expect(parseGroupLimitDefaults({ vip: { rps: 1 } })).toBeNull();
    expect(parseGroupLimitDefaults({ vip: [1, 2] })).toBeNull();
    expect(parseGroupLimitDefaults({ ' ': { rpm: 1 } })).toBeNull();
    expect(parseGroupLimitDefaults([])).toBeNull();
  });
});
