import { isAdmin, type Page } from '@gateway/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { channelsQueryKey } from '../../../lib/query-keys';
import { useSessionUser } from '../../../lib/session';

/**
 * How many channels exist, for an admin's first steps (a key is useless before a channel); `undefined` for everyone
 * else, and while it loads. Under the channels key, so adding a channel refreshes it.
 */
export function useChannelCount(): number | undefined {
  const admin = isAdmin(useSessionUser()?.role);
  const count = useQuery({
    queryKey: [...channelsQueryKey, 'count'],
    queryFn: ({ signal }) =>
      api.get<Page<unknown>>('/api/channel/', { query: { p: 1, page_size: 1, shape: 'page' }, signal }),
    enabled: admin,
    meta: { silentError: true },
    select: (page) => page.total,
  });
  return admin ? count.data : undefined;
}
