// The answer shapes are declared once in @gateway/shared; this console keeps its own names for them.
import type { QuotaDataView as QuotaDataRow } from '@gateway/shared';

export type { QuotaDataRow };

/** The dashboard's time buckets; the operator's `DataExportDefaultTime` picks the initial one. */
export type Granularity = 'hour' | 'day' | 'week';

export const GRANULARITIES: readonly Granularity[] = ['hour', 'day', 'week'];

export function isGranularity(value: unknown): value is Granularity {
  return value === 'hour' || value === 'day' || value === 'week';
}

export interface DetailQuery {
  start: number;
  end: number;
  /** Admins only: one user's rows; empty means everyone. */
  username: string;
}
