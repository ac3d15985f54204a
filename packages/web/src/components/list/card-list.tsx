import { Flex, Pagination, Spin } from 'antd';
import type { TablePaginationConfig } from 'antd/es/table';
import type { ReactNode } from 'react';
import './list.css';

interface CardListProps<T> {
  items: T[];
  loading: boolean;
  pagination: TablePaginationConfig;
  /** Shown in place of the cards when there are none (see ListEmpty). */
  empty: ReactNode;
  /** The same test id as the page's wide table, so tests find the list at any width. */
  testId: string;
  /** Whether to show the pager; by default while the list counts any row at all. */
  showPager?: boolean;
  children: (item: T) => ReactNode;
}

/**
 * A console list at phone width: one card per row (the page renders each, with its own key), the empty state in
 * their place, and a compact pager below that follows the wide table's paging.
 */
export function CardList<T>({ items, loading, pagination, empty, testId, showPager, children }: CardListProps<T>) {
  return (
    <Spin spinning={loading}>
      <Flex vertical gap={12} data-testid={testId}>
        {items.length === 0 && <div className="list-cards-empty">{empty}</div>}
        {items.map(children)}
        {(showPager ?? Boolean(pagination.total)) && (
          <Pagination
            simple
            align="center"
            current={pagination.current}
            pageSize={pagination.pageSize}
            total={pagination.total}
            onChange={pagination.onChange}
          />
        )}
      </Flex>
    </Spin>
  );
}
