import type { Page } from '@gateway/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { logsQueryKey } from '../../../lib/query-keys';
import { filterQuery } from '../log-view';
import type { LogItem, LogListQuery } from '../types';

export { logsQueryKey };

/** One page of usage logs: everyone's for an admin (`/api/log/`), the caller's own otherwise. */
export function useLogs(query: LogListQuery, admin: boolean) {
  return useQuery({
    queryKey: [...logsQueryKey, 'list', admin, query],
    queryFn: ({ signal }) =>
      api.get<Page<LogItem>>(admin ? '/api/log/' : '/api/log/self/', {
        query: { p: query.page, page_size: query.pageSize, ...filterQuery(query, admin) },
        signal,
      }),
    // Paging keeps the old rows on screen (with a spinner) instead of flashing a skeleton.
    placeholderData: keepPreviousData,
  });
}
