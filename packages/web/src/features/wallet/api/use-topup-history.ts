import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { TopUpRecord } from '../types';

export const topUpHistoryKey = ['wallet', 'topups'] as const;

/** The caller's own top-up records, newest first (`GET /api/user/topup/self`). */
export function useTopUpHistory(page: number, pageSize: number) {
  return useQuery({
    queryKey: [...topUpHistoryKey, page, pageSize],
    queryFn: ({ signal }) =>
      api.get<{ items: TopUpRecord[]; total: number }>('/api/user/topup/self', {
        query: { p: page, page_size: pageSize },
        signal,
      }),
    placeholderData: keepPreviousData,
    // The card shows the failure in place.
    meta: { silentError: true },
  });
}
