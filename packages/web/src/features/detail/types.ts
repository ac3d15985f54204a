/** The dashboard's time buckets; the operator's `DataExportDefaultTime` picks the initial one. */
export type Granularity = 'hour' | 'day' | 'week';

export const GRANULARITIES: readonly Granularity[] = ['hour', 'day', 'week'];

export function isGranularity(value: unknown): value is Granularity {
  return value === 'hour' || value === 'day' || value === 'week';
}

/** One `quota_data` row of `GET /api/data/` (admin) or `/api/data/self`: a user's use of a model in one hour. */
export interface QuotaDataRow {
  id: number;
  user_id: number;
  username: string;
  model_name: string;
  /** Start of the hour, unix seconds. */
  created_at: number;
  count: number;
  quota: number;
  token_used: number;
}

export interface DetailQuery {
  start: number;
  end: number;
  /** Admins only: one user's rows; empty means everyone. */
  username: string;
}
