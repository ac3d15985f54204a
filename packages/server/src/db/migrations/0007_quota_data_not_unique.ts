import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * Until this migration `quota_data_bucket` was UNIQUE, for an upsert. The family's server writes a new row for a
 * (user, model, hour) whenever its in-memory bucket is flushed, so after this server had run on a family database the
 * family's own inserts failed there on a second node or a second flush of the hour. The index stays, not unique: the
 * exporter updates the row it finds or adds one, and the dashboard sums the rows of each bucket, as the family's does.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'mysql') {
    // MySQL has no DROP INDEX IF EXISTS (MariaDB has); an adopted family database may not have the index at all.
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from information_schema.statistics
      where table_schema = database() and table_name = 'quota_data' and index_name = 'quota_data_bucket'`.execute(db);
    if (Number(rows[0]?.n ?? 0) > 0) await db.schema.dropIndex('quota_data_bucket').on('quota_data').execute();
  } else {
    await db.schema.dropIndex('quota_data_bucket').ifExists().execute();
  }
  await db.schema
    .createIndex('quota_data_bucket')
    .on('quota_data')
    .columns(['user_id', 'model_name', 'created_at'])
    .execute();
}
