import type { Page } from '@gateway/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { AdminUser, UserListQuery } from '../types';

export const usersQueryKey = ['users'] as const;
export const userListQueryKey = [...usersQueryKey, 'list'] as const;

/** One page of users; a keyword or a group switches to the search endpoint. */
export function useUsers(query: UserListQuery) {
  const keyword = query.keyword.trim();
  const group = query.group;
  return useQuery({
    queryKey: [...userListQueryKey, { ...query, keyword }],
    queryFn: ({ signal }) =>
      keyword || group
        ? api.get<Page<AdminUser>>('/api/user/search', {
            query: { keyword, group, p: query.page, page_size: query.pageSize },
            signal,
          })
        : api.get<Page<AdminUser>>('/api/user/', { query: { p: query.page, page_size: query.pageSize }, signal }),
    placeholderData: keepPreviousData,
  });
}
