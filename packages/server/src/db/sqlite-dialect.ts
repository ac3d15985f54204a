import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  type TransactionSettings,
} from 'kysely';

const BEGIN_WRITE = CompiledQuery.raw('begin immediate');
const BEGIN_READ = CompiledQuery.raw('begin');

/**
 * Kysely's SQLite driver begins every transaction with a plain (deferred) `begin`: the transaction starts as a
 * reader and asks for the write lock at its first write. When another process holds that lock then, SQLite answers
 * SQLITE_BUSY at once instead of waiting out the busy timeout (waiting could deadlock two upgrading readers), so a
 * channel edit (read, then update) failed with "database is locked" while a second process wrote the same file.
 * `begin immediate` takes the write lock up front, where SQLite does wait on the busy timeout; a transaction can
 * then never be refused halfway. Only a transaction declared read-only stays deferred: it never asks for the lock.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection, settings?: TransactionSettings): Promise<void> {
    await connection.executeQuery(settings?.accessMode === 'read only' ? BEGIN_READ : BEGIN_WRITE);
  }
}

/** Kysely's SQLite dialect with transactions that begin as writers (see ImmediateSqliteDriver). */
export class ImmediateSqliteDialect extends SqliteDialect {
  // The parent keeps its config private; the driver needs it.
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}
