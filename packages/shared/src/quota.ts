/** 500000 quota = 1 US dollar unless the operator changes QuotaPerUnit (spec 000 §9 advises against it). */
export const DEFAULT_QUOTA_PER_UNIT = 500000;

export interface QuotaDisplay {
  quotaPerUnit: number;
  displayInCurrency: boolean;
}

/** Abbreviates a raw quota number the way the console shows it when currency display is off. */
export function abbreviateNumber(value: number): string {
  const abs = Math.abs(value);
  const units: Array<[number, string]> = [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [size, suffix] of units) {
    if (abs >= size) return `${trimZeros((value / size).toFixed(2))}${suffix}`;
  }
  return String(value);
}

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/**
 * Dollars with two decimals when currency display is on (amounts under a cent keep two significant digits, so a
 * single cheap call does not read as "$0.00"), otherwise the abbreviated raw number.
 */
export function formatQuota(quota: number, display: QuotaDisplay): string {
  if (display.displayInCurrency) {
    const perUnit = display.quotaPerUnit > 0 ? display.quotaPerUnit : DEFAULT_QUOTA_PER_UNIT;
    const dollars = quota / perUnit;
    if (dollars !== 0 && Math.abs(dollars) < 0.01)
      return `${dollars < 0 ? '-' : ''}$${trimZeros(Math.abs(dollars).toPrecision(2))}`;
    return dollars < 0 ? `-$${(-dollars).toFixed(2)}` : `$${dollars.toFixed(2)}`;
  }
  return abbreviateNumber(quota);
}
