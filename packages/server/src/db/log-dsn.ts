import { type DatabaseTarget, parseDatabaseTarget, redact } from './dsn.js';

/**
 * LOG_SQL_DSN, read with SQL_DSN's rules (the family's): the usage-log table then lives in that database instead of
 * the main one. Returns null when the logs stay in the main database: the variable is empty, or it names the main
 * database itself (the family then simply opens a second pool on the same tables; moving logs from a table into
 * itself would duplicate them). `local` means SQLite as for SQL_DSN; the family then uses SQLITE_PATH, the main
 * file, so LOG_SQLITE_PATH (ours) names a separate file.
 */
export function parseLogDatabaseTarget(
  logDsn: string,
  logSqlitePath: string,
  main: DatabaseTarget,
  sqlitePathEnv: string,
): DatabaseTarget | null {
  const value = logDsn.trim();
  if (value === '') return null;
  // The family also accepts ClickHouse for its logs; our log queries and the mover's transactions are written for
  // the three relational engines only, so this is refused at start rather than failing on the first write.
  if (/^(clickhouse|tcp|https?):\/\//i.test(value)) {
    throw new Error(
      `LOG_SQL_DSN "${redact(value)}" is a ClickHouse address; ClickHouse is not supported for usage logs here: use SQLite (local), PostgreSQL or MySQL/MariaDB, or leave LOG_SQL_DSN empty`,
    );
  }
  let target: DatabaseTarget;
  try {
    target = parseDatabaseTarget(value, logSqlitePath.trim() || sqlitePathEnv);
  } catch (error) {
    throw new Error(String((error as Error).message).replace(/^SQL_DSN/, 'LOG_SQL_DSN'));
  }
  return sameDatabase(target, main) ? null : target;
}

function sameDatabase(a: DatabaseTarget, b: DatabaseTarget): boolean {
  if (a.dialect === 'sqlite' && b.dialect === 'sqlite') return a.path === b.path;
  if (a.dialect === 'postgres' && b.dialect === 'postgres') return a.connectionString === b.connectionString;
  if (a.dialect === 'mysql' && b.dialect === 'mysql') return a.uri === b.uri;
  return false;
}
