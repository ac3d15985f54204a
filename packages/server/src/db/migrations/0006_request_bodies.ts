import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';
import { create, withId } from './0001_initial.js';

// Request and response bodies of relay calls, kept only for channels or groups that ask for it (off by default).
// Linked to their usage log row by the request id (X-Oneapi-Request-Id), which both carry; removed by time together
// with the usage logs, and after LogBodiesRetentionDays when that is set.

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  // MySQL's TEXT holds 64 KiB; a body may be kept up to 1 MiB (LogBodiesMaxBytes) plus the cut marker.
  const body = dialect === 'mysql' ? sql`mediumtext` : 'text';
  await withId(create(db, 'request_bodies', dialect), dialect)
    .addColumn('request_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('request_body', body, (c) => c.notNull())
    .addColumn('response_body', body, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('request_bodies_request_id').on('request_bodies').column('request_id').execute();
  await db.schema.createIndex('request_bodies_created_at').on('request_bodies').column('created_at').execute();
}
