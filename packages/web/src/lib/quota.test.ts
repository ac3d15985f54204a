import { describe, expect, it } from 'vitest';
import { formatQuotaForStatus, quotaDisplayFrom } from './quota';

describe('quota display', () => {
  it('shows dollars by the status quota unit when currency display is on', () => {
    expect(formatQuotaForStatus(1_000_000, { quota_per_unit: 500000, display_in_currency: true })).toBe('$2.00');
    expect(formatQuotaForStatus(250, { quota_per_unit: 500, display_in_currency: true })).toBe('$0.50');
  });

  it('abbreviates raw quota when currency display is off', () => {
    expect(formatQuotaForStatus(1_500_000, { quota_per_unit: 500000, display_in_currency: false })).toBe('1.5M');
    expect(formatQuotaForStatus(999, { display_in_currency: false })).toBe('999');
  });

  it('falls back to the family defaults before the status is known', () => {
    expect(quotaDisplayFrom(null)).toEqual({ quotaPerUnit: 500000, displayInCurrency: true });
    expect(quotaDisplayFrom({ quota_per_unit: 0 }).quotaPerUnit).toBe(500000);
  });
});
