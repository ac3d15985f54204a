import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { DetailQuery, QuotaDataRow } from '../types';

/**
 * Hourly consumption rows for the range: everyone's (`/api/data/`, optionally one username) for admins, one's own
 * (`/api/data/self`) otherwise. Only asked for while data export is on.
 */
export function useQuotaData(query: DetailQuery, admin: boolean, enabled: boolean) {
  return useQuery({
    queryKey: ['quota-data', admin, query],
    queryFn: ({ signal }) =>
      api.get<QuotaDataRow[] | null>(admin ? '/api/data/' : '/api/data/self', {
        query: {
          start_timestamp: query.start,
          end_timestamp: query.end,
          ...(admin && query.username ? { username: query.username } : {}),
        },
        signal,
      }),
    select: (rows) => rows ?? [],
    enabled,
    placeholderData: keepPreviousData,
  });
}
