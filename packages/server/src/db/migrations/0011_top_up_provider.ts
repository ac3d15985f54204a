import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';
import { hasColumn } from './column-exists.js';

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
