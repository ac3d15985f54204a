import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';
import { create, withId } from './0001_initial.js';

// The audit trail of admin and root changes and of sign-ins. Read newest first, filtered by actor or action within
// a time range, and cleared by time together with the usage logs.

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await withId(create(db, 'audit_logs', dialect), dialect)
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('actor_username', 'varchar(64)')
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_type', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('target_id', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    // MySQL's TEXT tops out at 64 KiB; a reset of every model ratio lists thousands of prices.
    .addColumn('diff', dialect === 'mysql' ? sql`mediumtext` : 'text', (c) => c.notNull())
    .execute();
  const indexes: Array<[string, string[]]> = [
    ['audit_logs_created_at', ['created_at', 'id']],
    ['audit_logs_actor', ['actor_username', 'created_at']],
    ['audit_logs_action', ['action', 'created_at']],
    ['audit_logs_target', ['target_type', 'target_id', 'created_at']],
  ];
  for (const [name, columns] of indexes) {
    await db.schema.createIndex(name).on('audit_logs').columns(columns).execute();
  }
}
