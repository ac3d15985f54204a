import { type Kysely, type Migration, Migrator } from 'kysely';
import type { Db } from './connection.js';
import * as initial from './migrations/0001_initial.js';
import * as jobLeases from './migrations/0002_job_leases.js';

/** Migrations live in code (not files read at run time) so the bundled server and the tests see the same list. */
function migrations(db: Db): Record<string, Migration> {
  return {
    '0001_initial': { up: (kysely: Kysely<unknown>) => initial.up(kysely, db.dialect) },
    '0002_job_leases': { up: (kysely: Kysely<unknown>) => jobLeases.up(kysely, db.dialect) },
  };
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations(db) },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
