import { type Insertable, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Dialect } from './connection.js';
import type { Database } from './schema.js';

type TableWithId = {
  [K in keyof Database]: Database[K] extends { id: unknown } ? K : never;
}[keyof Database];

/** Inserts one row and returns its id on all three dialects (MySQL has no RETURNING). */
export async function insertReturningId<T extends TableWithId>(
  db: Kysely<Database>,
  dialect: Dialect,
  table: T,
  values: Insertable<Database[T]>,
): Promise<number> {
  // biome-ignore lint/suspicious/noExplicitAny: Kysely cannot narrow a generic table name to its column set.
  const query = db.insertInto(table).values(values as any);
  if (dialect === 'postgres') {
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const row = await (query as any).returning('id').executeTakeFirstOrThrow();
    return Number(row.id);
  }
  const result = await query.executeTakeFirstOrThrow();
  return Number(result.insertId);
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * `column LIKE %text%` with the user's wildcards escaped, so a search for "50%" finds "50%", not everything.
 * '!' is the escape character because a backslash means different things in the three dialects' string literals.
 */
export function containsText(column: string, text: string): RawBuilder<SqlBool> {
  const pattern = `%${text.replace(/[!%_]/g, (ch) => `!${ch}`)}%`;
  return sql<SqlBool>`${sql.ref(column)} LIKE ${pattern} ESCAPE '!'`;
}
