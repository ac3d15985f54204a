import { describe, expect, it } from 'vitest';
import { abbreviateNumber, formatQuota } from './quota.js';

const usd = { quotaPerUnit: 500000, displayInCurrency: true };

describe('formatQuota', () => {
  it.each([
    [500000, '$1.00'],
    [1_000_000, '$2.00'],
    [0, '$0.00'],
    [3750, '$0.0075'],
    [24, '$0.000048'],
    [-250_000, '-$0.50'],
    [-24, '-$0.000048'],
  ])('%i quota → %s', (quota, text) => {
    expect(formatQuota(quota, usd)).toBe(text);
  });

  it('abbreviates raw numbers when currency display is off (spec 000 §9)', () => {
    expect(formatQuota(1_500_000, { ...usd, displayInCurrency: false })).toBe('1.5M');
    expect(abbreviateNumber(999)).toBe('999');
    expect(abbreviateNumber(12_345)).toBe('12.35k');
    expect(abbreviateNumber(2_000_000_000)).toBe('2B');
  });
});
