import { CreateIndexNode, type Kysely, type Migration, Migrator } from 'kysely';
import type { Db, Dialect } from './connection.js';
import { runAdoption } from './family/adopt.js';
import { planAdoption } from './family/plan.js';
import type { MigrationUp } from './family/recorded-schema.js';
import { recordSchema } from './family/recorded-schema.js';
import { readShape } from './family/shape.js';
import { createLogsTable } from './migrations/0001_initial.js';

/**
 * The schema of a separate log database (LOG_SQL_DSN): the `logs` table as the main database has it, and
 * `log_transfers`, the mover's watermark. Recorded in tables of their own (`log_migration`), so a log database that
 * is also some other database's home (or a family main database lent for logs) keeps its own migration history.
 */
function logMigrations(dialect: Dialect): Record<string, Migration> {
  const logsUp: MigrationUp = (db) => createLogsTable(db, dialect);
  return {
    '0001_logs': { up: (db: Kysely<unknown>) => createOrAdoptLogs(db, dialect, logsUp) },
    '0002_log_transfers': {
      up: async (db: Kysely<unknown>) => {
        // Idempotent: a MySQL start that failed after this DDL (which commits on its own there) resumes.
        await db.schema
          .createTable('log_transfers')
          .ifNotExists()
          .addColumn('source', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('last_id', 'bigint', (c) => c.notNull().defaultTo(0))
          .execute();
      },
    },
  };
}

/**
 * A fresh database gets our `logs`; one that already has a `logs` table (the family's LOG_SQL_DSN database, or a
 * MySQL start that stopped half-way) is adopted: checked first like a family main database (plan.ts refuses a shape
 * we cannot write), then our missing columns and indexes are added. Nothing is dropped or retyped.
 */
async function createOrAdoptLogs(db: Kysely<unknown>, dialect: Dialect, logsUp: MigrationUp): Promise<void> {
  const shape = await readShape(db, dialect);
  if (!shape.tables.has('logs')) return logsUp(db);
  const plan = await planAdoption(db, shape, logsUp, []);
  // Our indexes serve the console's filters; a family table has its own under other names, which stay. Added by
  // name only when absent, so a resumed start does not fail on one made the first time.
  for (const node of await recordSchema(logsUp)) {
    if (CreateIndexNode.is(node) && !shape.indexes.has(node.name.name)) {
      plan.steps.push({ describe: `create index ${node.name.name}`, node });
    }
  }
  await runAdoption(db, dialect, plan);
}

function migratorFor(db: Db): Migrator {
  return new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => logMigrations(db.dialect) },
    migrationTableName: 'log_migration',
    migrationLockTableName: 'log_migration_lock',
  });
}

export async function migrateLogDatabase(db: Db): Promise<string[]> {
  const { error, results } = await migratorFor(db).migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(
      `log database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/** Log-database migrations not run yet (a slave node is not ready until the master ran them). */
export async function pendingLogMigrations(db: Db): Promise<string[]> {
  const known = await migratorFor(db).getMigrations();
  return known.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
}
