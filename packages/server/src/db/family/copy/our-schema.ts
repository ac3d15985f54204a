import { sql } from 'kysely';
import { openDatabase } from '../../connection.js';
import { migrateToLatest } from '../../migrate.js';

/** One column of our latest schema, as the copy needs it to fill, check and compare a row. */
export interface OurColumn {
  name: string;
  /** Declared type, lower case (`varchar(64)`, `bigint`, `text`…). */
  type: string;
  numeric: boolean;
  notNull: boolean;
  /** The column's default as a value (null when it has none). */
  fallback: string | number | null;
  /** `varchar(n)`: the most characters PostgreSQL and MySQL accept. */
  maxChars: number | null;
}

export interface OurTable {
  name: string;
  columns: OurColumn[];
  /** Primary key columns (`id`, or the composite key of abilities). */
  key: string[];
  /** Unique indexes other than the primary key, each a list of columns. */
  uniques: string[][];
}

let cached: Promise<Map<string, OurTable>> | undefined;

/**
 * Our latest schema as the migrations define it, read from a throw-away in-memory SQLite database migrated to
 * the latest version: one definition of the schema (the migrations), and the target is not touched to learn it
 * (a dry run must write nothing, not even our tables).
 */
export function ourSchema(): Promise<Map<string, OurTable>> {
  cached ??= readOurSchema();
  return cached;
}

interface PragmaColumn {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

async function readOurSchema(): Promise<Map<string, OurTable>> {
  const db = await openDatabase({ dialect: 'sqlite', path: ':memory:' });
  try {
    await migrateToLatest(db);
    const { rows: tables } = await sql<{ name: string }>`select name from sqlite_master
      where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'`.execute(db.kysely);
    const schema = new Map<string, OurTable>();
    for (const { name } of tables) {
      const { rows } = await sql<PragmaColumn>`select * from pragma_table_info(${name})`.execute(db.kysely);
      const key = rows
        .filter((row) => row.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((row) => row.name);
      schema.set(name, { name, columns: rows.map(ourColumn), key, uniques: await uniqueIndexes(db.kysely, name) });
    }
    return schema;
  } finally {
    await db.close();
  }
}

function ourColumn(row: PragmaColumn): OurColumn {
  const type = row.type.toLowerCase();
  const size = /^varchar\((\d+)\)$/.exec(type);
  return {
    name: row.name,
    type,
    numeric: /int|double|real|numeric|decimal/.test(type),
    notNull: row.notnull === 1 || row.pk > 0,
    fallback: literal(row.dflt_value),
    maxChars: size ? Number(size[1]) : null,
  };
}

/** A default as SQLite reports it: `0`, `-1`, `'default'`, `''`. */
function literal(text: string | null): string | number | null {
  if (text === null) return null;
  const quoted = /^'(.*)'$/s.exec(text);
  if (quoted) return quoted[1]!.replaceAll("''", "'");
  const number = Number(text);
  return Number.isNaN(number) ? null : number;
}

// biome-ignore lint/suspicious/noExplicitAny: the pragma tables are not part of our typed schema.
async function uniqueIndexes(db: import('kysely').Kysely<any>, table: string): Promise<string[][]> {
  const { rows } = await sql<{ name: string; origin: string }>`select name, origin from pragma_index_list(${table})
    where "unique" = 1`.execute(db);
  const uniques: string[][] = [];
  for (const index of rows) {
    if (index.origin === 'pk') continue;
    const { rows: columns } = await sql<{ name: string }>`select name from pragma_index_info(${index.name})
      order by seqno`.execute(db);
    uniques.push(columns.map((column) => column.name));
  }
  return uniques;
}
