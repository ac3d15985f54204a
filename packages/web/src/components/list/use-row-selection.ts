import { type Key, useMemo, useState } from 'react';

/**
 * A selection of rows by id that survives paging: the table only hands back the rows of the current page, so rows
 * picked on earlier pages are kept from before.
 */
export function useRowSelection<Row extends { id: number }>() {
  const [selected, setSelected] = useState<Map<number, Row>>(new Map());
  const keys = useMemo(() => [...selected.keys()], [selected]);

  const onSelect = (next: Key[], rows: Row[]) => {
    setSelected((previous) => {
      const map = new Map<number, Row>();
      for (const key of next) {
        const id = Number(key);
        const row = rows.find((candidate) => candidate?.id === id) ?? previous.get(id);
        if (row) map.set(id, row);
      }
      return map;
    });
  };

  /** Drops one row (it was deleted). */
  const forget = (id: number) =>
    setSelected((previous) => {
      const next = new Map(previous);
      next.delete(id);
      return next;
    });

  return {
    keys,
    rows: () => [...selected.values()],
    size: selected.size,
    onSelect,
    forget,
    clear: () => setSelected(new Map()),
  };
}
