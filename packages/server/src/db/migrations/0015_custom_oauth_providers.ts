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
 * Custom OAuth / OIDC sign-in providers the root adds in the settings, in the family's tables and columns
 * (new-api's model/custom_oauth_provider.go and model/user_oauth_binding.go): `custom_oauth_providers`, unique by
 * slug, and `user_oauth_bindings`, one row per (user, provider) and per (provider, provider_user_id). A family
 * database of a release with them already has both (often with more columns of its own, which stay): created only
 * if absent, so they are adopted as they are.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const time = dateTime(dialect);
  await withId(create(db, 'custom_oauth_providers', dialect).ifNotExists(), dialect)
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('slug', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('icon', 'varchar(128)', (c) => c.defaultTo(''))
    .addColumn('enabled', 'integer', (c) => c.defaultTo(0))
    .addColumn('client_id', 'varchar(256)')
    .addColumn('client_secret', 'varchar(512)')
    .addColumn('authorization_endpoint', 'varchar(512)')
    .addColumn('token_endpoint', 'varchar(512)')
    .addColumn('user_info_endpoint', 'varchar(512)')
    .addColumn('scopes', 'varchar(256)', (c) => c.defaultTo('openid profile email'))
    .addColumn('user_id_field', 'varchar(128)', (c) => c.defaultTo('sub'))
    .addColumn('username_field', 'varchar(128)', (c) => c.defaultTo('preferred_username'))
    .addColumn('display_name_field', 'varchar(128)', (c) => c.defaultTo('name'))
    .addColumn('email_field', 'varchar(128)', (c) => c.defaultTo('email'))
    .addColumn('well_known', 'varchar(512)')
    .addColumn('auth_style', 'integer', (c) => c.defaultTo(0))
    .addColumn('created_at', time)
    .addColumn('updated_at', time)
    .execute();
  await withId(create(db, 'user_oauth_bindings', dialect).ifNotExists(), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('provider_id', 'integer', (c) => c.notNull())
    .addColumn('provider_user_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('created_at', time)
    .execute();
  await uniqueIndexIfAbsent(db, dialect, 'ux_user_provider', 'user_oauth_bindings', ['user_id', 'provider_id']);
  await uniqueIndexIfAbsent(db, dialect, 'ux_provider_userid', 'user_oauth_bindings', [
    'provider_id',
    'provider_user_id',
  ]);
}

async function uniqueIndexIfAbsent(
  db: Kysely<unknown>,
  dialect: Dialect,
  name: string,
  table: string,
  columns: string[],
): Promise<void> {
  if (dialect === 'mysql') {
    // MySQL has no CREATE INDEX IF NOT EXISTS (MariaDB has).
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from information_schema.statistics
      where table_schema = database() and table_name = ${table} and index_name = ${name}`.execute(db);
    if (Number(rows[0]?.n ?? 0) > 0) return;
    await db.schema.createIndex(name).unique().on(table).columns(columns).execute();
    return;
  }
  await db.schema.createIndex(name).unique().ifNotExists().on(table).columns(columns).execute();
}
