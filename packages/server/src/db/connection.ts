import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, MysqlDialect, PostgresDialect } from 'kysely';
import type { DatabaseTarget } from './dsn.js';
import { withFamilyReadings, withLogReadings } from './family/adopt.js';
import type { Database } from './schema.js';
import { ImmediateSqliteDialect } from './sqlite-dialect.js';
import { ping, runInTransaction, type Trx } from './unit-of-work.js';
import { watchedDialect } from './watched-driver.js';

export type Dialect = DatabaseTarget['dialect'];

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /**
   * The SQLite handle under Kysely, for the one write that runs all the time (the usage-log batch): a cached
   * prepared statement avoids re-parsing a multi-row INSERT on every flush, which blocked the event loop for
   * 15–28 ms each second under load. Undefined on the client-server databases.
   */
  sqlite?: BetterSqlite3.Database;
  /** The connection pool's state, for /metrics; absent on SQLite (one in-process handle, no pool). */
  pool?(): PoolStats;
  close(): Promise<void>;
  /** Runs several repository calls as one transaction (db/unit-of-work.ts); rolled back if `work` throws. */
  inTransaction<T>(work: (trx: Trx) => Promise<T>): Promise<T>;
  /** One trivial query: resolves when the database answers. */
  ping(): Promise<void>;
}

/** A connection as opened, before the unit of work is attached over its final Kysely instance. */
export type Connection = Omit<Db, 'inTransaction' | 'ping'>;

/** Attaches the unit of work and the ping over the connection's Kysely instance (plugins included). */
export function withUnitOfWork(connection: Connection): Db {
  const { kysely } = connection;
  return {
    ...connection,
    inTransaction: (work) => runInTransaction(kysely, work),
    ping: () => ping(kysely),
  };
}

export interface PoolStats {
  /** Open connections, idle ones included. */
  total: number;
  idle: number;
  /** Queries waiting for a free connection. */
  waiting: number;
}

/** mysql2 keeps its pool's queues in fields without typings (`_allConnections`…): read them only if they are there. */
function mysqlPoolStats(pool: object): PoolStats {
  const lengthOf = (field: string) => {
    const queue = (pool as Record<string, { length?: unknown } | undefined>)[field];
    return typeof queue?.length === 'number' ? queue.length : Number.NaN;
  };
  return {
    total: lengthOf('_allConnections'),
    idle: lengthOf('_freeConnections'),
    waiting: lengthOf('_connectionQueue'),
  };
}

// Only the driver of the configured dialect is loaded: each one costs 6–17 MiB of memory at import.

async function openSqlite(path: string): Promise<{ kysely: Kysely<Database>; database: BetterSqlite3.Database }> {
  const { default: SQLite } = await import('better-sqlite3');
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  // WAL lets the console read while the relay's batch writer writes; busy_timeout matches the family default.
  database.pragma('journal_mode = WAL');
  // Writes wait up to 30 s for another process's write lock; transactions take the lock at their start so that the
  // wait applies to them too (sqlite-dialect.ts).
  database.pragma('busy_timeout = 30000');
  database.pragma('synchronous = NORMAL');
  // SQLite's own default page cache (2 MiB). better-sqlite3 builds with 16 MiB, which the usage-log inserts fill
  // within minutes: 14 MiB of resident memory that bought no measurable speed (the OS caches the file anyway;
  // inserting a log row cost the same 12 µs of CPU with either size).
  database.pragma('cache_size = -2000');
  return {
    kysely: new Kysely<Database>({ dialect: watchedDialect(new ImmediateSqliteDialect({ database }), 'sqlite') }),
    database,
  };
}

export async function openDatabase(target: DatabaseTarget): Promise<Db> {
  // A database written by new-api or one-api is read through a few translations (family/readings.ts); the unit of
  // work is attached after them so its transactions read through the same translations.
  return withUnitOfWork(await withFamilyReadings(await openConnection(target)));
}

/**
 * A separate log database (LOG_SQL_DSN). Its shape is read after the migrations (a family table may be adopted
 * then), so the caller migrates through `raw` first and then reads and writes through `withReadings()`.
 */
export async function openLogDatabase(target: DatabaseTarget): Promise<{ raw: Db; withReadings(): Promise<Db> }> {
  const connection = await openConnection(target);
  return {
    raw: withUnitOfWork(connection),
    withReadings: async () => withUnitOfWork(await withLogReadings(connection)),
  };
}

async function openConnection(target: DatabaseTarget): Promise<Connection> {
  switch (target.dialect) {
    case 'sqlite': {
      const { kysely, database } = await openSqlite(target.path);
      return { kysely, dialect: 'sqlite', sqlite: database, close: () => kysely.destroy() };
    }
    case 'postgres': {
      const { default: pg } = await import('pg');
      // PostgreSQL returns BIGINT (oid 20) and NUMERIC (1700) as strings to avoid precision loss; quota values fit
      // well inside 2^53, and the other dialects hand back numbers, so parse them once here.
      pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));
      pg.types.setTypeParser(1700, (value) => Number.parseFloat(value));
      // The family's gorm `type:json` columns (tasks, channel_info) are text to us, as on the other dialects.
      pg.types.setTypeParser(114, (value) => value);
      pg.types.setTypeParser(3802, (value) => value);
      // A server that drops packets instead of refusing them would otherwise hold each request until the OS gives up
      // on the connect (minutes); after 10 s the request is answered 503 (db/outage.ts). The same bound applies to
      // waiting for a free connection while all 20 are busy.
      const pool = new pg.Pool({ connectionString: target.connectionString, max: 20, connectionTimeoutMillis: 10_000 });
      // An idle pooled connection that the server drops (a restart, a failover, an admin's terminate) is reported
      // here; unheard, it would end the process. The pool replaces it on the next query.
      pool.on('error', (error) => {
        console.error(
          JSON.stringify({ level: 40, time: Date.now(), msg: 'idle database connection lost', err: String(error) }),
        );
      });
      // A connection that drops while checked out (mid-query, or held by a transaction between two statements)
      // reports 'error' on its client, which pg-pool listens to only while the client is idle: unheard, it ended the
      // process. The query in progress, or the next one, fails with the same cause and is answered 503
      // (db/outage.ts); the pool discards the client when it is released.
      pool.on('connect', (client) => client.on('error', () => {}));
      const kysely = new Kysely<Database>({ dialect: watchedDialect(new PostgresDialect({ pool }), 'postgres') });
      const stats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
      return { kysely, dialect: 'postgres', pool: stats, close: () => kysely.destroy() };
    }
    case 'mysql': {
      const { createPool } = await import('mysql2');
      const pool = createPool({
        uri: target.uri,
        connectionLimit: 20,
        supportBigNumbers: true,
        bigNumberStrings: false,
        charset: 'utf8mb4',
        // Sums over BIGINT columns come back as DECIMAL; numbers are what the API returns.
        decimalNumbers: true,
        // MySQL's JSON columns (the family's gorm `type:json`) are text to us, as on MariaDB.
        jsonStrings: true,
      });
      const kysely = new Kysely<Database>({ dialect: watchedDialect(new MysqlDialect({ pool }), 'mysql') });
      return { kysely, dialect: 'mysql', pool: () => mysqlPoolStats(pool), close: () => kysely.destroy() };
    }
  }
}
