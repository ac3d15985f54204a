import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';
import { create, withId } from './0001_initial.js';

/** gorm's time.Time column on each dialect, so our rows and the family's read the same. */
function dateTime(dialect: Dialect) {
  if (dialect === 'postgres') return sql`timestamptz`;
  if (dialect === 'mysql') return sql`datetime(3)`;
  return sql`datetime`;
}

/**
 * Two-factor sign-in, in the family's tables and columns (new-api's model/twofa.go): `two_fas`, one row per user
 * (unique user_id), and `two_fa_backup_codes`. Its datetimes are the family's too. A family database of a release
 * with 2FA already has both: created only if absent, so they are adopted as they are (db/family/plan.ts checks
 * their columns first).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const time = dateTime(dialect);
  await withId(create(db, 'two_fas', dialect).ifNotExists(), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().unique())
    .addColumn('secret', 'varchar(255)', (c) => c.notNull())
    .addColumn('is_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', time)
    .addColumn('last_used_at', time)
    .addColumn('created_at', time)
    .addColumn('updated_at', time)
    .addColumn('deleted_at', time)
    .execute();
  await withId(create(db, 'two_fa_backup_codes', dialect).ifNotExists(), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('is_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_at', time)
    .addColumn('created_at', time)
    .addColumn('deleted_at', time)
    .execute();
  await createIndexIfAbsent(db, dialect, 'idx_two_fa_backup_codes_user_id', 'two_fa_backup_codes', 'user_id');
}

async function createIndexIfAbsent(
  db: Kysely<unknown>,
  dialect: Dialect,
  name: string,
  table: string,
  column: string,
): Promise<void> {
  if (dialect === 'mysql') {
    // MySQL has no CREATE INDEX IF NOT EXISTS (MariaDB has).
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from information_schema.statistics
      where table_schema = database() and table_name = ${table} and index_name = ${name}`.execute(db);
    if (Number(rows[0]?.n ?? 0) > 0) return;
    await db.schema.createIndex(name).on(table).column(column).execute();
    return;
  }
  await db.schema.createIndex(name).ifNotExists().on(table).column(column).execute();
}
