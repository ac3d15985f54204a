import type { CacheUsageView } from '@gateway/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { DetailQuery } from '../types';

/** Prompt-cache hits per key and model over the dashboard's range (everyone's for admins, optionally one user). */
export function useCacheUsage(query: DetailQuery, admin: boolean, enabled: boolean) {
  return useQuery({
    queryKey: ['cache-usage', admin, query],
    queryFn: ({ signal }) =>
      api.get<CacheUsageView[]>(admin ? '/api/log/cache_usage' : '/api/log/self/cache_usage', {
        query: {
          start_timestamp: query.start,
          end_timestamp: query.end,
          ...(admin && query.username ? { username: query.username } : {}),
        },
        signal,
      }),
    enabled,
    placeholderData: keepPreviousData,
  });
}
