import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * Whether a column exists, for a migration that adds a column a family database of a later release may already
 * have. When the statements are only recorded (adopting a family database compares them with what is there,
 * db/family/recorded-schema.ts), the query answers no rows: that reads as "present", so the recording holds no
 * column addition that would clash with a family table which already has the column.
 */
export async function hasColumn(
  db: Kysely<unknown>,
  dialect: Dialect,
  table: string,
  column: string,
): Promise<boolean> {
  const query =
    dialect === 'sqlite'
      ? sql<{ n: number }>`select count(*) as n from pragma_table_info(${table}) where name = ${column}`
      : dialect === 'mysql'
        ? sql<{ n: number }>`select count(*) as n from information_schema.columns
            where table_schema = database() and table_name = ${table} and column_name = ${column}`
        : sql<{ n: number }>`select count(*) as n from information_schema.columns
            where table_schema = current_schema() and table_name = ${table} and column_name = ${column}`;
  const { rows } = await query.execute(db);
  return rows.length === 0 || Number(rows[0]?.n ?? 0) > 0;
}
