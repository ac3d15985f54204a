import { Checkbox } from 'antd';
import type { Key, ReactNode } from 'react';

interface CardCheckboxProps<Row extends { id: number }> {
  row: Row;
  /** The rows on this page, handed back with the keys as the wide table's selection does. */
  rows: Row[];
  selectedKeys: Key[];
  onSelect: (keys: Key[], rows: Row[]) => void;
  children: ReactNode;
}

/** A phone card's select box, feeding the same selection as the wide table's checkbox column. */
export function CardCheckbox<Row extends { id: number }>({
  row,
  rows,
  selectedKeys,
  onSelect,
  children,
}: CardCheckboxProps<Row>) {
  return (
    <Checkbox
      checked={selectedKeys.includes(row.id)}
      onChange={(event) =>
        onSelect(event.target.checked ? [...selectedKeys, row.id] : selectedKeys.filter((key) => key !== row.id), rows)
      }
    >
      {children}
    </Checkbox>
  );
}
