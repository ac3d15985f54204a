import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * `top_ups.payment_provider` (the family's column: epay, stripe, creem, …), so the order list says who took each
 * payment and a webhook of one provider can never complete another's order. A family database of a release with
 * card payments already has it and is left as it is.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (await hasColumn(db, dialect, 'top_ups', 'payment_provider')) return;
  await db.schema
    .alterTable('top_ups')
    .addColumn('payment_provider', 'varchar(50)', (c) => c.notNull().defaultTo(''))
    .execute();
  // Every online order before this column was an epay order.
  await sql`update top_ups set payment_provider = 'epay' where payment_method <> 'redemption'`.execute(db);
}

/**
 * Whether a column exists. When the statements are only recorded (adopting a family database compares them with
 * what is there, db/family/recorded-schema.ts), the query answers no rows: that reads as "present", so the
 * recording holds no column addition that would clash with a family table which already has the column.
 */
async function hasColumn(db: Kysely<unknown>, dialect: Dialect, table: string, column: string): Promise<boolean> {
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
