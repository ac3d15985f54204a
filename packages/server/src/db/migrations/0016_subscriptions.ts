import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';
import { create, withId } from './0001_initial.js';

/**
 * Subscription plans with the family's tables and columns (new-api's `subscription_plans`, `subscription_orders`,
 * `user_subscriptions`), created "if not exists": a family database of a release with subscriptions keeps its
 * tables and rows (db/family/plan.ts checks their columns before adopting them). Booleans are integers here, as
 * booleans are booleans as gorm makes them (0/1 in SQLite).
 */
const int0 = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await withId(create(db, 'subscription_plans', dialect).ifNotExists(), dialect)
    .addColumn('title', 'varchar(128)', (c) => c.notNull())
    .addColumn('subtitle', 'varchar(255)', (c) => c.defaultTo(''))
    .addColumn('price_amount', 'double precision', int0)
    .addColumn('currency', 'varchar(8)', (c) => c.notNull().defaultTo('USD'))
    .addColumn('duration_unit', 'varchar(16)', (c) => c.notNull().defaultTo('month'))
    .addColumn('duration_value', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('custom_seconds', 'bigint', int0)
    .addColumn('enabled', 'boolean', (c) => c.defaultTo(true))
    .addColumn('sort_order', 'integer', (c) => c.defaultTo(0))
    .addColumn('stripe_price_id', 'varchar(128)', (c) => c.defaultTo(''))
    .addColumn('creem_product_id', 'varchar(128)', (c) => c.defaultTo(''))
    .addColumn('max_purchase_per_user', 'integer', (c) => c.defaultTo(0))
    .addColumn('upgrade_group', 'varchar(64)', (c) => c.defaultTo(''))
    .addColumn('total_amount', 'bigint', int0)
    .addColumn('quota_reset_period', 'varchar(16)', (c) => c.defaultTo('never'))
    .addColumn('quota_reset_custom_seconds', 'bigint', (c) => c.defaultTo(0))
    .addColumn('allow_balance_pay', 'boolean', (c) => c.defaultTo(true))
    .addColumn('created_at', 'bigint')
    .addColumn('updated_at', 'bigint')
    .execute();

  await withId(create(db, 'subscription_orders', dialect).ifNotExists(), dialect)
    .addColumn('user_id', 'integer')
    .addColumn('plan_id', 'integer')
    .addColumn('money', 'double precision')
    .addColumn('trade_no', 'varchar(255)', (c) => c.unique())
    .addColumn('payment_method', 'varchar(50)')
    .addColumn('status', 'varchar(32)')
    .addColumn('create_time', 'bigint')
    .addColumn('complete_time', 'bigint')
    .addColumn('provider_payload', 'text')
    .execute();

  await withId(create(db, 'user_subscriptions', dialect).ifNotExists(), dialect)
    .addColumn('user_id', 'integer')
    .addColumn('plan_id', 'integer')
    .addColumn('amount_total', 'bigint', int0)
    .addColumn('amount_used', 'bigint', int0)
    .addColumn('start_time', 'bigint')
    .addColumn('end_time', 'bigint')
    .addColumn('status', 'varchar(32)')
    .addColumn('source', 'varchar(32)', (c) => c.defaultTo('order'))
    .addColumn('last_reset_time', 'bigint', (c) => c.defaultTo(0))
    .addColumn('next_reset_time', 'bigint', (c) => c.defaultTo(0))
    .addColumn('upgrade_group', 'varchar(64)', (c) => c.defaultTo(''))
    .addColumn('prev_user_group', 'varchar(64)', (c) => c.defaultTo(''))
    .addColumn('created_at', 'bigint')
    .addColumn('updated_at', 'bigint')
    .execute();

  await index(db, dialect, 'idx_user_sub_active', 'user_subscriptions', ['user_id', 'status', 'end_time']);
  await index(db, dialect, 'idx_user_subscriptions_next_reset_time', 'user_subscriptions', ['next_reset_time']);
  await index(db, dialect, 'idx_subscription_orders_user_id', 'subscription_orders', ['user_id']);
}

/** An index the family database may already have under the same name (MySQL has no CREATE INDEX IF NOT EXISTS). */
async function index(db: Kysely<unknown>, dialect: Dialect, name: string, table: string, columns: string[]) {
  if (dialect === 'mysql') {
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from information_schema.statistics
      where table_schema = database() and table_name = ${table} and index_name = ${name}`.execute(db);
    if (Number(rows[0]?.n ?? 0) > 0) return;
    await db.schema.createIndex(name).on(table).columns(columns).execute();
    return;
  }
  await db.schema.createIndex(name).ifNotExists().on(table).columns(columns).execute();
}
