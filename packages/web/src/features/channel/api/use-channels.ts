import type { Page } from '@gateway/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { channelsQueryKey } from '../../../lib/query-keys';
import type { Channel, ChannelListQuery } from '../types';

export { channelsQueryKey };

/** One page of channels (in tag mode a page of rows); any filter switches to the search endpoint. */
export function useChannels(query: ChannelListQuery) {
  const keyword = query.keyword.trim();
  const group = query.group.trim();
  const model = query.model.trim();
  // `shape: 'page'`: this console reads page objects even where the server answers the family's old bare arrays.
  const common = {
    p: query.page,
    page_size: query.pageSize,
    id_sort: query.idSort,
    tag_mode: query.tagMode,
    shape: 'page',
  };
  return useQuery({
    queryKey: [...channelsQueryKey, 'list', { ...query, keyword, group, model }],
    queryFn: ({ signal }) =>
      keyword || group || model
        ? api.get<Page<Channel>>('/api/channel/search', { query: { ...common, keyword, group, model }, signal })
        : api.get<Page<Channel>>('/api/channel/', { query: common, signal }),
    placeholderData: keepPreviousData,
  });
}
