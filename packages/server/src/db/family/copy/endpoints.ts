import { existsSync } from 'node:fs';
import { Kysely, SqliteDialect } from 'kysely';
import { type Db, openDatabase, withUnitOfWork } from '../../connection.js';
import { type DatabaseTarget, parseDatabaseTarget, redact } from '../../dsn.js';
import type { Database } from '../../schema.js';
import { withFamilyReadings } from '../adopt.js';

/**
 * `--from` / `--to`: a DSN in the family's SQL_DSN forms (postgres://…, mysql://…, user:pass@tcp(host)/db), or
 * else the path of a SQLite file (SQLITE_PATH's form, a Go driver query after `?` is ignored).
 */
export function parseEndpoint(value: string): DatabaseTarget {
  const text = value.trim();
  if (text === '') throw new Error('a database is required: a DSN or the path of a SQLite file');
  const isDsn = /^(postgres(ql)?|mysql):\/\//i.test(text) || /@tcp\(/.test(text);
  return isDsn ? parseDatabaseTarget(text, '') : parseDatabaseTarget('', text);
}

export function describeEndpoint(target: DatabaseTarget): string {
  if (target.dialect === 'sqlite') return `SQLite ${target.path}`;
  return `${target.dialect === 'postgres' ? 'PostgreSQL' : 'MySQL'} ${redact(
    target.dialect === 'postgres' ? target.connectionString : target.uri,
  )}`;
}

export function sameEndpoint(a: DatabaseTarget, b: DatabaseTarget): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Opens a database only to read it, through the family readings as the server would. A SQLite file is opened
 * read-only: the server's own opening switches the file to WAL, which a dry run or a source must not do.
 * A SQLite file that does not exist is null (nothing to read), never created.
 */
export async function openForReading(target: DatabaseTarget): Promise<Db | null> {
  if (target.dialect !== 'sqlite') return openDatabase(target);
  if (!existsSync(target.path)) return null;
  const { default: SQLite } = await import('better-sqlite3');
  const database = new SQLite(target.path, { readonly: true, fileMustExist: true });
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return withUnitOfWork(
    await withFamilyReadings({ kysely, dialect: 'sqlite', sqlite: database, close: () => kysely.destroy() }),
  );
}
