import { type Kysely, sql } from 'kysely';
import { type Db, openDatabase } from '../../src/db/connection.js';
import { parseDatabaseTarget } from '../../src/db/dsn.js';
import { dateTimeText } from '../../src/db/family/readings.js';
import { createTableSql, type Table } from '../fixtures/family/gorm-ddl.js';
import type { Release } from '../fixtures/family/releases.js';
import type { Row } from '../fixtures/family/seed.js';
import { createTestDatabase, type DialectName, type TestDatabase } from './databases.js';

// biome-ignore lint/suspicious/noExplicitAny: the family's tables are not our typed schema.
type AnyDb = Kysely<any>;

export async function openTestDatabase(database: TestDatabase): Promise<Db> {
  return openDatabase(parseDatabaseTarget(database.env.SQL_DSN, database.env.SQLITE_PATH));
}

/** A value as the family's driver stores it in a column of this kind on this dialect. */
function stored(dialect: DialectName, kind: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (kind === 'bool') return dialect === 'postgres' ? Boolean(value) : value ? 1 : 0;
  if (kind === 'time') return dateTimeText(Number(value), dialect);
  return value;
}

/** A fresh test database laid out as the release's server leaves it, with the seed rows its tables can hold. */
export async function createFamilyDatabase(
  dialect: DialectName,
  release: Release,
  rows: Record<string, Row[]>,
  extraStatements: string[] = [],
): Promise<TestDatabase> {
  const database = await createTestDatabase(dialect);
  const db = await openTestDatabase(database);
  try {
    const kysely = db.kysely as AnyDb;
    for (const table of release.tables) {
      for (const statement of createTableSql(dialect, table)) await sql.raw(statement).execute(kysely);
      const seeded = (rows[table.name] ?? []).map((row) => storedRow(dialect, table, row));
      if (seeded.length) await kysely.insertInto(table.name).values(seeded).execute();
      // PostgreSQL's sequences do not see explicit ids; the family's next insert would collide without this.
      if (dialect === 'postgres' && table.columns.some((column) => column.kind === 'id') && seeded.length) {
        await sql
          .raw(`SELECT setval(pg_get_serial_sequence('"${table.name}"', 'id'), (SELECT max(id) FROM "${table.name}"))`)
          .execute(kysely);
      }
    }
    for (const statement of extraStatements) await sql.raw(statement).execute(kysely);
  } finally {
    await db.close();
  }
  return database;
}

function storedRow(dialect: DialectName, table: Table, row: Row): Row {
  const out: Row = {};
  for (const column of table.columns) {
    if (column.name in row) out[column.name] = stored(dialect, column.kind, row[column.name]);
  }
  return out;
}

/** Every column of the release's tables as the database reports it now, and every row (ordered). */
export async function familySnapshot(database: TestDatabase, release: Release) {
  const db = await openTestDatabase(database);
  try {
    const kysely = db.kysely as AnyDb;
    const tables = await kysely.introspection.getTables();
    const columns: Record<string, string[]> = {};
    const rows: Record<string, Row[]> = {};
    for (const table of release.tables) {
      const found = tables.find((meta) => meta.name === table.name);
      columns[table.name] = (found?.columns ?? []).map((column) => `${column.name}:${column.dataType}`).sort();
      const names = table.columns.map((column) => column.name);
      const order = table.primaryKey ?? ['id'];
      // Select through sql.ref so the readings' renames apply the same way before and after adoption.
      let query = kysely.selectFrom(table.name).select(names.map((name) => sql.ref(name).as(name)));
      for (const key of order) query = query.orderBy(key);
      rows[table.name] = await query.execute();
    }
    return { columns, rows };
  } finally {
    await db.close();
  }
}
