/**
 * Which driver errors mean "the database cannot be reached or cannot take the work now" (answered 503 with
 * Retry-After, http/database-unavailable.ts) rather than "this query is wrong" (a 500 to look into). The errors are
 * recognised where they leave the driver (db/watched-driver.ts) and marked there, so an ECONNREFUSED from an
 * upstream, a mail server or an OAuth provider is never mistaken for a database outage.
 */
import type { Dialect } from './connection.js';

/** How long a caller is asked to wait: pools reconnect on the next query, so shortly is honest. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const UNAVAILABLE = Symbol('gateway.databaseUnavailable');

// Socket-level failures, as Node reports them from net and dns (pg and mysql2 pass them through).
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// SQLSTATE: 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now (starting, in recovery), 53300
// too many connections; the whole class 08 (connection exception) is matched by prefix.
const POSTGRES_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
// pg's own words when its socket ends or a connect or pool checkout times out; they carry no code.
const POSTGRES_MESSAGES = /^Connection terminated|timeout exceeded when trying to connect|is not queryable/;

const MYSQL_CODES = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_TOO_MANY_USER_CONNECTIONS',
  'ER_SERVER_SHUTDOWN',
  'ER_SERVER_GONE_ERROR',
  'ER_SERVER_LOST',
]);

// better-sqlite3 reports extended codes (SQLITE_BUSY_SNAPSHOT, SQLITE_IOERR_SHORT_READ…): matched by family. BUSY
// only reaches here once the busy timeout has run out; FULL is a full disk, which clears without a code change.
const SQLITE_FAMILIES = /^SQLITE_(BUSY|CANTOPEN|IOERR|FULL)(_|$)/;

function codeOf(error: object): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : '';
}

/** Whether a driver error means an unreachable or overwhelmed database, for the driver of `dialect`. */
export function isConnectionFailure(error: unknown, dialect: Dialect, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : '';
  if (dialect === 'sqlite') return SQLITE_FAMILIES.test(code);
  if (NETWORK_CODES.has(code)) return true;
  if (dialect === 'postgres' && (code.startsWith('08') || POSTGRES_CODES.has(code) || POSTGRES_MESSAGES.test(message)))
    return true;
  // mysql2 marks every error that ends a connection `fatal` (lost socket, closed-state command, failed handshake).
  if (dialect === 'mysql' && (MYSQL_CODES.has(code) || (error as { fatal?: unknown }).fatal === true)) return true;
  // A connect over several addresses fails with an AggregateError; pg wraps its connect timeout's cause.
  const inner = [...(error instanceof AggregateError ? error.errors : []), (error as { cause?: unknown }).cause];
  return inner.some((cause) => isConnectionFailure(cause, dialect, depth + 1));
}

/** Marks the error (kept as it is, for the log and for callers that read its code) as a database outage. */
export function markedUnavailable<T>(error: T, dialect: Dialect): T {
  if (
    typeof error === 'object' &&
    error !== null &&
    Object.isExtensible(error) &&
    isConnectionFailure(error, dialect)
  ) {
    Object.defineProperty(error, UNAVAILABLE, { value: true });
  }
  return error;
}

/** Whether the error came out of the database driver as an outage (see markedUnavailable). */
export function isDatabaseUnavailable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && UNAVAILABLE in error;
}
