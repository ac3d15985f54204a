/**
 * Starting on a database written by new-api or one-api, in place.
 *
 * Recognised: the family's core tables (users, tokens, channels) are there and our migration 0001 has not run
 * (no `kysely_migration` row for it). The database is then adopted instead of created:
 * - checked first, changing nothing: every column we use must exist with a compatible kind of value (numbers as
 *   numbers; `deleted_at` as a number or gorm's datetime) or be addable (nullable or with a default); a column we
 *   need that is missing and cannot be added means an older release than we understand; a family column that is
 *   NOT NULL without a default (our INSERTs would fail), a table or column a later migration of ours would create,
 *   or duplicate usage buckets under the unique index we upsert on, mean a shape we do not understand. Either way
 *   the start stops with a message naming what was found;
 * - then changed only additively, in one transaction where the dialect allows DDL in one (PostgreSQL, SQLite;
 *   on MySQL each step is idempotent and a failed start resumes): tables the family lacks are created as 0001 would
 *   (with their indexes), columns it lacks are added with 0001's type and default, the unique index behind the
 *   usage export's upsert is added to an existing `quota_data`; nothing is dropped, renamed or retyped, and the
 *   family's own indexes, `deleted_at` columns and unknown tables stay. one-api's token `models` and `subnet` are
 *   copied once into the `model_limits` and `allow_ips` columns added for them;
 * - migration 0001 is then recorded as done, and the later migrations run as on any database.
 * How the family's values are read where the representation differs is in readings.ts.
 */
import { createQueryId, type Kysely, sql } from 'kysely';
import type { Db, Dialect } from '../connection.js';
import { columnAliases, dateTimeDeletedAt, hasFamilyTables } from './family.js';
import { type AdoptionPlan, planAdoption } from './plan.js';
import { familyReadingsPlugin } from './readings.js';
import type { MigrationUp } from './recorded-schema.js';
import { type DatabaseShape, readShape } from './shape.js';

export { FamilyDatabaseRefused } from './plan.js';

/** The adoption to run instead of migration 0001, or null when the database is ours (or empty). Throws when refused. */
export async function familyAdoption(db: Db, initial: MigrationUp, later: MigrationUp[]): Promise<AdoptionPlan | null> {
  const shape = await readShape(db.kysely, db.dialect);
  if (!hasFamilyTables(shape) || (await initialMigrationRan(db.kysely, shape))) return null;
  return planAdoption(db.kysely, shape, initial, later);
}

// biome-ignore lint/suspicious/noExplicitAny: kysely_migration is Kysely's table, not part of our schema.
async function initialMigrationRan(db: Kysely<any>, shape: DatabaseShape): Promise<boolean> {
  if (!shape.tables.has('kysely_migration')) return false;
  const row = await db
    .selectFrom('kysely_migration')
    .select('name')
    .where('name', '=', '0001_initial')
    .executeTakeFirst();
  return row !== undefined;
}

/** Runs the plan's steps; on SQLite (where Kysely runs migrations outside a transaction) inside one of its own. */
export async function runAdoption(db: Kysely<unknown>, dialect: Dialect, plan: AdoptionPlan): Promise<void> {
  const own = dialect === 'sqlite';
  // Immediate: the write lock is taken (waiting on the busy timeout) before the first step, never refused midway.
  if (own) await sql`begin immediate`.execute(db);
  try {
    for (const step of plan.steps) {
      await db.executeQuery(db.getExecutor().compileQuery(step.node, createQueryId()));
    }
    if (own) await sql`commit`.execute(db);
  } catch (error) {
    if (own) await sql`rollback`.execute(db);
    throw error;
  }
}

/**
 * A handle on a family database reads and writes through the translations of readings.ts; any other database is
 * returned as it is. Decided from the shape at open, which adoption does not change for the translated columns.
 */
export async function withFamilyReadings<T extends Pick<Db, 'kysely' | 'dialect'>>(db: T): Promise<T> {
  const shape = await readShape(db.kysely, db.dialect);
  if (!hasFamilyTables(shape)) return db;
  const aliases = columnAliases(shape);
  const deletedAt = dateTimeDeletedAt(shape);
  const booleans = db.dialect === 'postgres' && hasBooleanColumn(shape);
  if (!aliases.size && !deletedAt.size && !booleans) return db;
  const plugin = familyReadingsPlugin({ dialect: db.dialect, aliases, dateTimeDeletedAt: deletedAt });
  return { ...db, kysely: db.kysely.withPlugin(plugin) };
}

/**
 * A separate log database written by the family (LOG_SQL_DSN) holds `logs` without the core tables; on PostgreSQL
 * its `is_stream` is a boolean, read back as 1/0 like everywhere else. Writes need nothing: pg sends 0/1 as text,
 * which PostgreSQL accepts for a boolean.
 */
export async function withLogReadings<T extends Pick<Db, 'kysely' | 'dialect'>>(db: T): Promise<T> {
  if (db.dialect !== 'postgres' || !hasBooleanColumn(await readShape(db.kysely, db.dialect))) return db;
  const plugin = familyReadingsPlugin({ dialect: db.dialect, aliases: new Map(), dateTimeDeletedAt: new Set() });
  return { ...db, kysely: db.kysely.withPlugin(plugin) };
}

function hasBooleanColumn(shape: DatabaseShape): boolean {
  for (const columns of shape.tables.values()) {
    for (const column of columns.values()) if (column.dataType.startsWith('bool')) return true;
  }
  return false;
}
