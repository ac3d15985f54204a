import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { filterQuery } from '../log-view';
import type { LogFilters, LogStat } from '../types';

/** Quota used, RPM and TPM for the same filters as the list. */
export function useLogStat(filters: LogFilters, admin: boolean) {
  return useQuery({
    queryKey: ['logs', 'stat', admin, filters],
    queryFn: ({ signal }) =>
      api.get<LogStat>(admin ? '/api/log/stat' : '/api/log/self/stat', { query: filterQuery(filters, admin), signal }),
    placeholderData: keepPreviousData,
  });
}
