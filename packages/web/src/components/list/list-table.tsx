import { Table, type TableProps } from 'antd';
import type { ReactNode } from 'react';

type ListTableProps<T> = Omit<TableProps<T>, 'locale' | 'scroll'> & {
  /** Shown in the table body when there are no rows (see ListEmpty). */
  empty: ReactNode;
  /** The same test id as the page's phone cards, so tests find the list at any width. */
  testId: string;
};

/**
 * A console list at desktop width: rows keyed by id unless told otherwise, columns scroll sideways instead of being
 * squeezed, and the list's empty state stands in the body.
 */
export function ListTable<T extends object>({ empty, testId, rowKey = 'id', ...props }: ListTableProps<T>) {
  return (
    <Table<T>
      data-testid={testId}
      rowKey={rowKey}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: empty }}
      {...props}
    />
  );
}
