import { useMemo, useState } from 'react';

export const PAGE_SIZES = [10, 20, 50, 100];

/** Search text and paging shared by the two model tables; a new search goes back to page one. */
export function useModelTableState<T>(items: readonly T[], nameOf: (item: T) => string) {
  const [search, setSearchText] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const filtered = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return needle ? items.filter((item) => nameOf(item).toLowerCase().includes(needle)) : [...items];
  }, [items, search, nameOf]);
  const setSearch = (text: string) => {
    setSearchText(text);
    setPage(1);
  };
  const pagination = {
    current: page,
    pageSize,
    pageSizeOptions: PAGE_SIZES,
    showSizeChanger: true,
    total: filtered.length,
    onChange: (next: number, size: number) => {
      setPage(size === pageSize ? next : 1);
      setPageSize(size);
    },
  };
  return { search, setSearch, filtered, pagination };
}
