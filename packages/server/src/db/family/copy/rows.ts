import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Row } from './tables.js';

// biome-ignore lint/suspicious/noExplicitAny: copied tables are addressed by name, family and ours alike.
export type AnyDb = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: as above
type AnyEb = ExpressionBuilder<any, any>;

/**
 * A table's rows in key order, one page at a time, each page starting after the last key of the one before
 * (keyset paging: constant memory, and no page gets slower the deeper it is, unlike OFFSET on a large log).
 * A composite key (abilities) is compared as a row value, which SQLite, PostgreSQL and MySQL all understand.
 */
export async function* pages(db: AnyDb, table: string, key: string[], size: number): AsyncGenerator<Row[]> {
  let after: Row | undefined;
  for (;;) {
    let query = db.selectFrom(table).selectAll();
    if (after) {
      const last = after;
      query = query.where((eb: AnyEb) =>
        key.length === 1
          ? eb(key[0]!, '>', last[key[0]!])
          : eb(
              eb.refTuple(...(key as [string, string])),
              '>',
              eb.tuple(...(key.map((k) => last[k]) as [unknown, unknown])),
            ),
      );
    }
    for (const column of key) query = query.orderBy(column);
    const page: Row[] = await query.limit(size).execute();
    if (!page.length) return;
    yield page;
    if (page.length < size) return;
    after = page[page.length - 1];
  }
}

export function keyText(key: string[], row: Row): string {
  return key.map((column) => `${column}=${String(row[column])}`).join(', ');
}

/**
 * The target's rows whose `columns` equal those of any of `rows`: an IN list for one column, otherwise an OR of
 * ANDs. Callers pass a page at a time, well under every driver's parameter limit.
 */
export async function rowsMatching(db: AnyDb, table: string, columns: string[], rows: Row[]): Promise<Row[]> {
  const wanted = rows.filter((row) => columns.every((column) => row[column] !== null && row[column] !== undefined));
  if (!wanted.length) return [];
  const query = db.selectFrom(table).selectAll();
  if (columns.length === 1) {
    const column = columns[0]!;
    return query.where(column, 'in', [...new Set(wanted.map((row) => row[column]))]).execute();
  }
  return query
    .where((eb: AnyEb) => eb.or(wanted.map((row) => eb.and(columns.map((column) => eb(column, '=', row[column]))))))
    .execute();
}
