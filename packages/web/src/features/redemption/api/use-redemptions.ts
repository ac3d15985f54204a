import type { Page } from '@gateway/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Redemption, RedemptionListQuery } from '../types';

export const redemptionsQueryKey = ['redemptions'] as const;

/** One page of redemption codes; a keyword (name or id) switches to the search endpoint. */
export function useRedemptions(query: RedemptionListQuery) {
  const keyword = query.keyword.trim();
  return useQuery({
    queryKey: [...redemptionsQueryKey, 'list', { ...query, keyword }],
    queryFn: ({ signal }) =>
      keyword
        ? api.get<Page<Redemption>>('/api/redemption/search', {
            query: { keyword, p: query.page, page_size: query.pageSize },
            signal,
          })
        : api.get<Page<Redemption>>('/api/redemption/', {
            query: { p: query.page, page_size: query.pageSize },
            signal,
          }),
    // Paging keeps the old rows on screen (with a spinner) instead of flashing a skeleton.
    placeholderData: keepPreviousData,
  });
}
