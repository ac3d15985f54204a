import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { DetailQuery, QuotaDataRow } from '../types';

export interface QuotaData {
  rows: QuotaDataRow[];
  /** The range these rows belong to (while a new range loads, the previous rows stay with their own range). */
  query: DetailQuery;
}

/**
 * Hourly consumption rows for the range: everyone's (`/api/data/`, optionally one username) for admins, one's own
 * (`/api/data/self`) otherwise. Only asked for while data export is on. The page shows failures itself.
 */
export function useQuotaData(query: DetailQuery, admin: boolean, enabled: boolean) {
  return useQuery({
    queryKey: ['quota-data', admin, query],
    queryFn: async ({ signal }): Promise<QuotaData> => {
      const rows = await api.get<QuotaDataRow[] | null>(admin ? '/api/data/' : '/api/data/self', {
        query: {
          start_timestamp: query.start,
          end_timestamp: query.end,
          ...(admin && query.username ? { username: query.username } : {}),
        },
        signal,
      });
      return { rows: rows ?? [], query };
    },
    enabled,
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });
}
