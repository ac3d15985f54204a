import { Card } from 'antd';
import type { TablePaginationConfig } from 'antd/es/table';
import type { ReactNode } from 'react';
import { CardList } from './card-list';
import { ChannelTag } from './record-cells';

interface RecordCardListProps<T extends { id: number }> {
  items: T[];
  loading: boolean;
  pagination: TablePaginationConfig;
  empty: ReactNode;
  /** The wide table's test id, so tests find the list at any width. */
  testId: string;
  /** The top of a card: the record's tags and its progress (or picture). */
  head: (item: T) => ReactNode;
  /** The `<dt>`/`<dd>` pairs below the head. */
  facts: (item: T) => ReactNode;
}

/**
 * Async tasks and drawings on a phone: one tagged card per record, a head above its facts. The two logs list
 * different fields, so each page supplies what goes in the card and this keeps the cards alike.
 */
export function RecordCardList<T extends { id: number }>({ items, head, facts, ...list }: RecordCardListProps<T>) {
  return (
    <CardList
      {...list}
      items={items}
      // The pager follows the rows loaded so far (see usePagedList), so it shows only beside some rows.
      showPager={items.length > 0}
    >
      {(item) => (
        <Card key={item.id} size="small" className="list-card list-card-tagged task-card">
          {head(item)}
          <dl className="list-card-facts">{facts(item)}</dl>
        </Card>
      )}
    </CardList>
  );
}

/** Admins' channel line on a card (the wide tables show it as a column). */
export function ChannelFact({ id, label }: { id: number | undefined; label: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <ChannelTag id={id} />
      </dd>
    </>
  );
}
