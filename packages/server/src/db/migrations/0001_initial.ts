import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// One migration creates every table the product needs. Column types are the lowest common denominator of
// SQLite, PostgreSQL and MariaDB: integers for booleans, bigint for quota, text for JSON.

type AnyDb = Kysely<unknown>;
type Builder<T extends string> = CreateTableBuilder<T, never>;

/** MariaDB's default charset may be latin1 on a bare install; the console stores Chinese text. */
export function create<T extends string>(db: AnyDb, name: T, dialect: Dialect): Builder<T> {
  const table = db.schema.createTable(name) as Builder<T>;
  return dialect === 'mysql' ? table.modifyEnd(sql`DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`) : table;
}

export function withId<T extends string>(table: Builder<T>, dialect: Dialect): Builder<T> {
  if (dialect === 'postgres') return table.addColumn('id', 'serial', (c) => c.primaryKey());
  return table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

const int0 = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
const str0 = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await withId(create(db, 'users', dialect), dialect)
    .addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('password', 'varchar(255)', str0)
    .addColumn('display_name', 'varchar(64)', str0)
    .addColumn('role', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('email', 'varchar(255)', str0)
    .addColumn('github_id', 'varchar(64)', str0)
    .addColumn('oidc_id', 'varchar(255)', str0)
    .addColumn('wechat_id', 'varchar(64)', str0)
    .addColumn('telegram_id', 'varchar(64)', str0)
    .addColumn('linux_do_id', 'varchar(64)', str0)
    .addColumn('access_token', 'varchar(64)', (c) => c.unique())
    .addColumn('quota', 'bigint', int0)
    .addColumn('used_quota', 'bigint', int0)
    .addColumn('request_count', 'integer', int0)
    .addColumn('group', 'varchar(64)', (c) => c.notNull().defaultTo('default'))
    .addColumn('aff_code', 'varchar(32)', (c) => c.unique())
    .addColumn('aff_count', 'integer', int0)
    .addColumn('aff_quota', 'bigint', int0)
    .addColumn('aff_history_quota', 'bigint', int0)
    .addColumn('inviter_id', 'integer', int0)
    .addColumn('setting', 'text')
    .addColumn('remark', 'varchar(255)', str0)
    .addColumn('created_at', 'bigint', int0)
    .addColumn('last_login_at', 'bigint', int0)
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('users_email').on('users').column('email').execute();
  await db.schema.createIndex('users_group').on('users').column('group').execute();

  await withId(create(db, 'tokens', dialect), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('name', 'varchar(64)', str0)
    .addColumn('created_time', 'bigint', int0)
    .addColumn('accessed_time', 'bigint', int0)
    .addColumn('expired_time', 'bigint', (c) => c.notNull().defaultTo(-1))
    .addColumn('remain_quota', 'bigint', int0)
    .addColumn('unlimited_quota', 'integer', int0)
    .addColumn('model_limits_enabled', 'integer', int0)
    .addColumn('model_limits', 'text')
    .addColumn('allow_ips', 'text')
    .addColumn('used_quota', 'bigint', int0)
    .addColumn('group', 'varchar(64)', str0)
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('tokens_user_id').on('tokens').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('tokens_name').on('tokens').column('name').execute();

  await withId(create(db, 'channels', dialect), dialect)
    .addColumn('type', 'integer', int0)
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('openai_organization', 'varchar(255)')
    .addColumn('test_model', 'varchar(255)')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('name', 'varchar(128)', str0)
    .addColumn('weight', 'integer', int0)
    .addColumn('created_time', 'bigint', int0)
    .addColumn('test_time', 'bigint', int0)
    .addColumn('response_time', 'integer', int0)
    .addColumn('base_url', 'varchar(512)')
    .addColumn('other', 'text')
    .addColumn('balance', 'double precision', int0)
    .addColumn('balance_updated_time', 'bigint', int0)
    .addColumn('models', 'text')
    .addColumn('group', 'varchar(255)', (c) => c.notNull().defaultTo('default'))
    .addColumn('used_quota', 'bigint', int0)
    .addColumn('model_mapping', 'text')
    .addColumn('status_code_mapping', 'text')
    .addColumn('priority', 'bigint', int0)
    .addColumn('auto_ban', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('other_info', 'text')
    .addColumn('tag', 'varchar(128)')
    .addColumn('setting', 'text')
    .addColumn('param_override', 'text')
    .addColumn('header_override', 'text')
    .addColumn('remark', 'varchar(255)')
    .addColumn('max_input_tokens', 'integer', int0)
    .execute();
  await db.schema.createIndex('channels_tag').on('channels').column('tag').execute();
  await db.schema.createIndex('channels_name').on('channels').column('name').execute();

  await create(db, 'abilities', dialect)
    .addColumn('group', 'varchar(64)', (c) => c.notNull())
    .addColumn('model', 'varchar(255)', (c) => c.notNull())
    .addColumn('channel_id', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('priority', 'bigint', int0)
    .addColumn('weight', 'integer', int0)
    .addColumn('tag', 'varchar(128)')
    .addPrimaryKeyConstraint('abilities_pk', ['group', 'model', 'channel_id'])
    .execute();
  await db.schema.createIndex('abilities_channel_id').on('abilities').column('channel_id').execute();

  await withId(create(db, 'redemptions', dialect), dialect)
    .addColumn('user_id', 'integer', int0)
    .addColumn('key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('name', 'varchar(128)', str0)
    .addColumn('quota', 'bigint', (c) => c.notNull().defaultTo(100))
    .addColumn('created_time', 'bigint', int0)
    .addColumn('redeemed_time', 'bigint', int0)
    .addColumn('used_user_id', 'integer', int0)
    .addColumn('expired_time', 'bigint', int0)
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('redemptions_name').on('redemptions').column('name').execute();

  await createLogsTable(db, dialect);

  await create(db, 'options', dialect)
    .addColumn('key', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('value', 'text')
    .execute();

  await withId(create(db, 'midjourneys', dialect), dialect)
    .addColumn('code', 'integer', int0)
    .addColumn('user_id', 'integer', int0)
    .addColumn('action', 'varchar(40)', str0)
    .addColumn('mj_id', 'varchar(191)', str0)
    .addColumn('prompt', 'text')
    .addColumn('prompt_en', 'text')
    .addColumn('description', 'text')
    .addColumn('state', 'text')
    .addColumn('submit_time', 'bigint', int0)
    .addColumn('start_time', 'bigint', int0)
    .addColumn('finish_time', 'bigint', int0)
    .addColumn('image_url', 'text')
    .addColumn('video_url', 'text')
    .addColumn('video_urls', 'text')
    .addColumn('status', 'varchar(20)', str0)
    .addColumn('progress', 'varchar(30)', str0)
    .addColumn('fail_reason', 'text')
    .addColumn('channel_id', 'integer', int0)
    .addColumn('quota', 'bigint', int0)
    .addColumn('buttons', 'text')
    .addColumn('properties', 'text')
    .addColumn('created_at', 'bigint', int0)
    .execute();
  await db.schema
    .createIndex('midjourneys_user_submit')
    .on('midjourneys')
    .columns(['user_id', 'submit_time'])
    .execute();
  await db.schema.createIndex('midjourneys_mj_id').on('midjourneys').column('mj_id').execute();
  await db.schema.createIndex('midjourneys_submit').on('midjourneys').column('submit_time').execute();

  await withId(create(db, 'tasks', dialect), dialect)
    .addColumn('created_at', 'bigint', int0)
    .addColumn('updated_at', 'bigint', int0)
    .addColumn('task_id', 'varchar(191)', (c) => c.notNull())
    .addColumn('platform', 'varchar(30)', str0)
    .addColumn('user_id', 'integer', int0)
    .addColumn('group', 'varchar(64)', str0)
    .addColumn('channel_id', 'integer', int0)
    .addColumn('quota', 'bigint', int0)
    .addColumn('action', 'varchar(40)', str0)
    .addColumn('status', 'varchar(20)', str0)
    .addColumn('fail_reason', 'text')
    .addColumn('submit_time', 'bigint', int0)
    .addColumn('start_time', 'bigint', int0)
    .addColumn('finish_time', 'bigint', int0)
    .addColumn('progress', 'varchar(20)', str0)
    .addColumn('properties', 'text')
    .addColumn('private_data', 'text')
    .addColumn('data', 'text')
    .execute();
  await db.schema.createIndex('tasks_task_id').on('tasks').column('task_id').execute();
  await db.schema.createIndex('tasks_user_submit').on('tasks').columns(['user_id', 'submit_time']).execute();
  await db.schema.createIndex('tasks_submit').on('tasks').column('submit_time').execute();

  await withId(create(db, 'top_ups', dialect), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('amount', 'bigint', int0)
    .addColumn('money', 'double precision', int0)
    .addColumn('trade_no', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('payment_method', 'varchar(50)', str0)
    .addColumn('create_time', 'bigint', int0)
    .addColumn('complete_time', 'bigint', int0)
    .addColumn('status', 'varchar(32)', (c) => c.notNull().defaultTo('pending'))
    .execute();
  await db.schema.createIndex('top_ups_user').on('top_ups').columns(['user_id', 'create_time']).execute();

  await withId(create(db, 'quota_data', dialect), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('username', 'varchar(64)', str0)
    .addColumn('model_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('token_used', 'bigint', int0)
    .addColumn('count', 'integer', int0)
    .addColumn('quota', 'bigint', int0)
    .execute();
  // The exporter finds its (user, model, hour) row here. Not unique: the family's own server inserts a row per node
  // and flush, and must keep running on a database this server has used (migration 0007 says more).
  await db.schema
    .createIndex('quota_data_bucket')
    .on('quota_data')
    .columns(['user_id', 'model_name', 'created_at'])
    .execute();
  await db.schema.createIndex('quota_data_created').on('quota_data').column('created_at').execute();

  await create(db, 'sessions', dialect)
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await withId(create(db, 'setups', dialect), dialect)
    .addColumn('version', 'varchar(64)', (c) => c.notNull())
    .addColumn('initialized_at', 'bigint', (c) => c.notNull())
    .execute();
}

/** The usage-log table and its indexes; also the whole schema of a separate log database (db/log-migrate.ts). */
export async function createLogsTable(db: AnyDb, dialect: Dialect): Promise<void> {
  await withId(create(db, 'logs', dialect), dialect)
    .addColumn('user_id', 'integer', int0)
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('type', 'integer', int0)
    .addColumn('content', 'text')
    .addColumn('username', 'varchar(64)', str0)
    .addColumn('token_name', 'varchar(64)', str0)
    .addColumn('token_id', 'integer', int0)
    .addColumn('model_name', 'varchar(255)', str0)
    .addColumn('quota', 'bigint', int0)
    .addColumn('prompt_tokens', 'integer', int0)
    .addColumn('completion_tokens', 'integer', int0)
    .addColumn('use_time', 'integer', int0)
    .addColumn('is_stream', 'integer', int0)
    .addColumn('channel_id', 'integer', int0)
    .addColumn('channel_name', 'varchar(128)', str0)
    .addColumn('group', 'varchar(64)', str0)
    .addColumn('ip', 'varchar(64)', str0)
    .addColumn('request_id', 'varchar(64)', str0)
    .addColumn('other', 'text')
    .execute();
  // The log page filters by any of these, always within a time range and newest first.
  const logIndexes: Array<[string, string[]]> = [
    ['logs_created_at', ['created_at', 'id']],
    ['logs_user_created', ['user_id', 'created_at']],
    ['logs_type_created', ['type', 'created_at']],
    ['logs_token_name', ['token_name', 'created_at']],
    ['logs_model_name', ['model_name', 'created_at']],
    ['logs_channel', ['channel_id', 'created_at']],
    ['logs_group', ['group', 'created_at']],
    ['logs_username', ['username', 'created_at']],
  ];
  for (const [name, columns] of logIndexes) {
    await db.schema.createIndex(name).on('logs').columns(columns).execute();
  }
}
