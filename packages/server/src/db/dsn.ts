import { resolve } from 'node:path';

export type DatabaseTarget =
  | { dialect: 'sqlite'; path: string }
  | { dialect: 'postgres'; connectionString: string }
  | { dialect: 'mysql'; uri: string };

const DEFAULT_SQLITE_PATH = 'data/one-api.db';

/** Strips the Go-driver query (`?_busy_timeout=…`) that family configs append to SQLITE_PATH. */
function sqlitePath(raw: string): string {
  const path = raw.trim().split('?')[0] || DEFAULT_SQLITE_PATH;
  return path === ':memory:' ? path : resolve(path);
}

/**
 * Reads SQL_DSN with the family's rules: empty or `local…` → SQLite; `postgres://`/`postgresql://` → PostgreSQL;
 * `mysql://…` or the Go form `user:pass@tcp(host:port)/db?params` → MySQL/MariaDB. Anything else is refused.
 */
export function parseDatabaseTarget(dsn: string, sqlitePathEnv: string): DatabaseTarget {
  const value = dsn.trim();
  if (value === '' || value.startsWith('local')) return { dialect: 'sqlite', path: sqlitePath(sqlitePathEnv) };
  if (/^postgres(ql)?:\/\//i.test(value)) return { dialect: 'postgres', connectionString: value };
  if (/^mysql:\/\//i.test(value)) return { dialect: 'mysql', uri: value };
  const goForm = /^([^:@/]*)(?::(.*))?@tcp\(([^)]+)\)\/([^?]*)(?:\?(.*))?$/.exec(value);
  if (goForm) {
    const [, user = '', password = '', hostPort = '', database = ''] = goForm;
    const auth = password ? `${encodeURIComponent(user)}:${encodeURIComponent(password)}` : encodeURIComponent(user);
    return { dialect: 'mysql', uri: `mysql://${auth}@${hostPort}/${database}` };
  }
  throw new Error(
    `SQL_DSN is not understood: expected empty (SQLite), postgres://…, mysql://… or user:pass@tcp(host:port)/db; got "${redact(value)}"`,
  );
}

/** Never print a password from a DSN. */
export function redact(dsn: string): string {
  return dsn.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@').replace(/^([^:@/]+:)[^@]*@tcp/, '$1***@tcp');
}
