import { type QueryKey, useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';

// The server asks upstreams about unfinished tasks every 15 s; refreshing faster would show nothing new.
const REFRESH_MS = 15_000;

/**
 * The drawing and task lists answer plain lists, page by page (spec 001 §4 "data paging"): the next page is
 * requested when the user reaches the last page loaded so far, and the pager offers one more page while the
 * server may have more.
 */
export function usePagedList<T>(
  key: QueryKey,
  pageSize: number,
  fetchPage: (page: number, signal: AbortSignal) => Promise<T[]>,
  /** While any loaded row is still running, the list refreshes itself as often as the server polls upstreams. */
  running?: (item: T) => boolean,
) {
  const [page, setPage] = useState(1);
  const query = useInfiniteQuery({
    queryKey: [...key, pageSize],
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (last.length >= pageSize ? all.length + 1 : undefined),
    refetchInterval: (current) =>
      running && current.state.data?.pages.some((page) => page.some(running)) ? REFRESH_MS : false,
  });
  const items = useMemo(() => query.data?.pages.flat() ?? [], [query.data]);
  const loadedPages = Math.max(1, Math.ceil(items.length / pageSize));

  // New filters or a new page size start again at page 1.
  const keyText = JSON.stringify(key);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the query identity changes
  useEffect(() => setPage(1), [keyText, pageSize]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (page >= loadedPages && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [page, loadedPages, hasNextPage, isFetchingNextPage, fetchNextPage]);

  return {
    query,
    items,
    page,
    setPage,
    pageItems: items.slice((page - 1) * pageSize, page * pageSize),
    /** What the pager counts: the loaded rows, plus a page's worth while more may follow. */
    total: items.length + (hasNextPage ? pageSize : 0),
  };
}
