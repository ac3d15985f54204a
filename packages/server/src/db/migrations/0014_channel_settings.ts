import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import { hasColumn } from './column-exists.js';

/**
 * `channels.settings`: the family's second per-channel JSON ("other settings", beside `setting`), where its later
 * releases keep the upstream model watch (`upstream_model_update_*`, jobs/upstream-model-watch.ts). Text: MySQL
 * gives text columns no default. A family database of such a release already has it and is left as it is.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (await hasColumn(db, dialect, 'channels', 'settings')) return;
  await db.schema.alterTable('channels').addColumn('settings', 'text').execute();
}
