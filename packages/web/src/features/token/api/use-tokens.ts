import type { Page } from '@gateway/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Token, TokenListQuery } from '../types';

export const tokensQueryKey = ['tokens'] as const;

/** One page of the caller's tokens; a keyword or token filter switches to the search endpoint. */
export function useTokens(query: TokenListQuery) {
  const keyword = query.keyword.trim();
  const token = query.token.trim();
  return useQuery({
    queryKey: [...tokensQueryKey, 'list', { ...query, keyword, token }],
    queryFn: ({ signal }) =>
      keyword || token
        ? api.get<Page<Token>>('/api/token/search', {
            query: { keyword, token, p: query.page, size: query.pageSize, shape: 'page' },
            signal,
          })
        : api.get<Page<Token>>('/api/token/', {
            // This console reads page objects even where the server answers the family's old bare arrays.
            query: { p: query.page, size: query.pageSize, shape: 'page' },
            signal,
          }),
    // Paging keeps the old rows on screen (with a spinner) instead of flashing a skeleton.
    placeholderData: keepPreviousData,
  });
}
