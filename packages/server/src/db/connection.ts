import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import type { DatabaseTarget } from './dsn.js';
import type { Database } from './schema.js';

export type Dialect = DatabaseTarget['dialect'];

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

// PostgreSQL returns BIGINT (oid 20) and NUMERIC (1700) as strings to avoid precision loss; quota values fit well
// inside 2^53, and every other dialect hands back numbers, so parse them once here.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));
pg.types.setTypeParser(1700, (value) => Number.parseFloat(value));

function openSqlite(path: string): Kysely<Database> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  // WAL lets the console read while the relay's batch writer writes; busy_timeout matches the family default.
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 30000');
  database.pragma('synchronous = NORMAL');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
}

export function openDatabase(target: DatabaseTarget): Db {
  switch (target.dialect) {
    case 'sqlite': {
      const kysely = openSqlite(target.path);
      return { kysely, dialect: 'sqlite', close: () => kysely.destroy() };
    }
    case 'postgres': {
      const pool = new pg.Pool({ connectionString: target.connectionString, max: 20 });
      const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
      return { kysely, dialect: 'postgres', close: () => kysely.destroy() };
    }
    case 'mysql': {
      const pool = createPool({
        uri: target.uri,
        connectionLimit: 20,
        supportBigNumbers: true,
        bigNumberStrings: false,
        charset: 'utf8mb4',
        // Sums over BIGINT columns come back as DECIMAL; numbers are what the API returns.
        decimalNumbers: true,
      });
      const kysely = new Kysely<Database>({ dialect: new MysqlDialect({ pool }) });
      return { kysely, dialect: 'mysql', close: () => kysely.destroy() };
    }
  }
}
