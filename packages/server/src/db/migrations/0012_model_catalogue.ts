import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';
import { create, withId } from './0001_initial.js';

/**
 * The model catalogue, in the family's tables (new-api's `vendors` and `models`, 2026): what a model is and who
 * makes it. Prices stay in the ratio options. A family database of a release that has these tables keeps them as
 * they are (created "if not exists"; db/family/plan.ts checks their columns before adopting), soft-deleted rows
 * included: the repository reads only rows whose `deleted_at` is empty. Only the columns this server reads are
 * declared; the family's other columns (max_output_tokens, modalities, …) are left alone.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await withId(create(db, 'vendors', dialect).ifNotExists(), dialect)
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('icon', 'varchar(128)')
    .addColumn('status', 'bigint', (c) => c.defaultTo(1))
    .addColumn('created_time', 'bigint')
    .addColumn('updated_time', 'bigint')
    .addColumn('deleted_at', 'bigint')
    .execute();
  await withId(create(db, 'models', dialect).ifNotExists(), dialect)
    .addColumn('model_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('icon', 'varchar(128)')
    .addColumn('tags', 'varchar(255)')
    .addColumn('vendor_id', 'bigint')
    .addColumn('endpoints', 'text')
    .addColumn('context_length', 'bigint', (c) => c.defaultTo(0))
    .addColumn('status', 'bigint', (c) => c.defaultTo(1))
    .addColumn('sync_official', 'bigint', (c) => c.defaultTo(1))
    .addColumn('name_rule', 'bigint', (c) => c.defaultTo(0))
    .addColumn('created_time', 'bigint')
    .addColumn('updated_time', 'bigint')
    .addColumn('deleted_at', 'bigint')
    .execute();
  // The family's unique indexes (name, deleted_at); the services also refuse a duplicate name among live rows.
  await uniqueIndex(db, dialect, 'vendors', 'uk_vendor_name_delete_at', ['name', 'deleted_at']);
  await uniqueIndex(db, dialect, 'models', 'uk_model_name_delete_at', ['model_name', 'deleted_at']);
  await plainIndex(db, dialect, 'models', 'idx_models_vendor_id', ['vendor_id']);
}

async function indexExists(db: Kysely<unknown>, table: string, name: string): Promise<boolean> {
  // MySQL has no CREATE INDEX IF NOT EXISTS (MariaDB has).
  const { rows } = await sql<{ n: number }>`
    select count(*) as n from information_schema.statistics
    where table_schema = database() and table_name = ${table} and index_name = ${name}`.execute(db);
  return Number(rows[0]?.n ?? 0) > 0;
}

async function uniqueIndex(db: Kysely<unknown>, dialect: Dialect, table: string, name: string, columns: string[]) {
  if (dialect === 'mysql') {
    if (await indexExists(db, table, name)) return;
    await db.schema.createIndex(name).on(table).columns(columns).unique().execute();
    return;
  }
  await db.schema.createIndex(name).ifNotExists().on(table).columns(columns).unique().execute();
}

async function plainIndex(db: Kysely<unknown>, dialect: Dialect, table: string, name: string, columns: string[]) {
  if (dialect === 'mysql') {
    if (await indexExists(db, table, name)) return;
    await db.schema.createIndex(name).on(table).columns(columns).execute();
    return;
  }
  await db.schema.createIndex(name).ifNotExists().on(table).columns(columns).execute();
}
