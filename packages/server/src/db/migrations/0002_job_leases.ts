import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// Background jobs (channel recovery, task polling) run once per interval across every node of a deployment: the node
// that moves a job's row forward owns that run. One row per job name, created on first use.

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  let table = db.schema
    .createTable('job_leases')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    // When the current run was claimed, in unix milliseconds.
    .addColumn('run_at', 'bigint', (c) => c.notNull().defaultTo(0));
  if (dialect === 'mysql') table = table.modifyEnd(sql`DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  await table.execute();
}
