import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

/** One column as the database reports it: enough to tell numbers, times and text apart, and what an INSERT needs. */
export interface ColumnShape {
  dataType: string;
  notNull: boolean;
  hasDefault: boolean;
  autoIncrement: boolean;
}

/** Every table of the connected schema with its columns, and every index name (names are schema-wide on PostgreSQL). */
export interface DatabaseShape {
  tables: Map<string, Map<string, ColumnShape>>;
  indexes: Set<string>;
}

// biome-ignore lint/suspicious/noExplicitAny: the shape is read before (and independently of) our own table types.
type AnyDb = Kysely<any>;

/** Reads the schema through Kysely's introspection (the current schema only on PostgreSQL and MySQL). */
export async function readShape(db: AnyDb, dialect: Dialect): Promise<DatabaseShape> {
  const tables = new Map<string, Map<string, ColumnShape>>();
  const schema = dialect === 'postgres' ? await currentSchema(db) : undefined;
  for (const table of await db.introspection.getTables({ withInternalKyselyTables: true })) {
    if (schema !== undefined && table.schema !== schema) continue;
    const columns = new Map<string, ColumnShape>();
    for (const column of table.columns) {
      columns.set(column.name, {
        dataType: column.dataType.toLowerCase(),
        notNull: !column.isNullable,
        hasDefault: column.hasDefaultValue,
        autoIncrement: column.isAutoIncrementing,
      });
    }
    tables.set(table.name, columns);
  }
  return { tables, indexes: await indexNames(db, dialect) };
}

async function currentSchema(db: AnyDb): Promise<string> {
  const { rows } = await sql<{ name: string }>`select current_schema() as name`.execute(db);
  return rows[0]?.name ?? 'public';
}

async function indexNames(db: AnyDb, dialect: Dialect): Promise<Set<string>> {
  const query =
    dialect === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master where type = 'index'`
      : dialect === 'postgres'
        ? sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema()`
        : sql<{ name: string }>`select distinct index_name as name from information_schema.statistics
            where table_schema = database()`;
  const { rows } = await query.execute(db);
  return new Set(rows.map((row) => row.name));
}

/** Integer, decimal and boolean columns: what our code reads and writes as a number. */
export function isNumeric(column: ColumnShape): boolean {
  return /int|serial|numeric|decimal|real|double|float|bool|bit/.test(column.dataType);
}

/** Date and time columns (gorm's soft-delete `deleted_at` is one on every dialect). */
export function isDateTime(column: ColumnShape): boolean {
  return /date|time/.test(column.dataType);
}
