import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';
import { create, withId } from './0001_initial.js';

/**
 * Daily check-in, with the family's table, columns and unique index (new-api's `checkins`): one row per user and
 * day (`checkin_date` is YYYY-MM-DD in the server's time zone), the unique index being what lets only one of any
 * number of concurrent check-ins of a day commit. A family database of a release with check-in already has both:
 * they are kept as they are (db/family/plan.ts checks the table's columns before adopting it).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await withId(create(db, 'checkins', dialect).ifNotExists(), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('checkin_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('quota_awarded', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint')
    .execute();
  if (dialect === 'mysql') {
    // MySQL has no CREATE INDEX IF NOT EXISTS (MariaDB has).
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from information_schema.statistics
      where table_schema = database() and table_name = 'checkins' and index_name = 'idx_user_checkin_date'`.execute(db);
    if (Number(rows[0]?.n ?? 0) > 0) return;
    await db.schema
      .createIndex('idx_user_checkin_date')
      .on('checkins')
      .columns(['user_id', 'checkin_date'])
      .unique()
      .execute();
    return;
  }
  await db.schema
    .createIndex('idx_user_checkin_date')
    .ifNotExists()
    .on('checkins')
    .columns(['user_id', 'checkin_date'])
    .unique()
    .execute();
}
