import type {
  CompiledQuery,
  DatabaseConnection,
  Driver,
  Dialect as KyselyDialect,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import type { Dialect } from './connection.js';
import { markedUnavailable } from './outage.js';

type Compile = QueryCompiler['compileQuery'];

/**
 * A Kysely dialect whose driver marks the errors that mean a database outage (db/outage.ts) on their way out, so
 * the error handlers answer 503 for them whatever query, transaction or pool checkout ran into it.
 */
export function watchedDialect(dialect: KyselyDialect, name: Dialect): KyselyDialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => new WatchedDriver(dialect.createDriver(), name),
  };
}

class WatchedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly dialect: Dialect,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await this.inner.executeQuery<R>(query);
    } catch (error) {
      throw markedUnavailable(error, this.dialect);
    }
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(query, chunkSize);
    } catch (error) {
      throw markedUnavailable(error, this.dialect);
    }
  }
}

/**
 * Delegates everything. The inner driver gets back the very connection it handed out: pg's and mysql2's drivers
 * release a connection through private state on that object.
 */
class WatchedDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly dialect: Dialect,
  ) {}

  private async guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw markedUnavailable(error, this.dialect);
    }
  }

  private unwrap(connection: DatabaseConnection): DatabaseConnection {
    return connection instanceof WatchedConnection ? connection.inner : connection;
  }

  init(): Promise<void> {
    return this.guarded(() => this.inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new WatchedConnection(await this.guarded(() => this.inner.acquireConnection()), this.dialect);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.guarded(() => this.inner.beginTransaction(this.unwrap(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.guarded(() => this.inner.commitTransaction(this.unwrap(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.guarded(() => this.inner.rollbackTransaction(this.unwrap(connection)));
  }

  savepoint(connection: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    return this.guarded(() => this.savepoints('savepoint')(this.unwrap(connection), name, compile));
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    return this.guarded(() => this.savepoints('rollbackToSavepoint')(this.unwrap(connection), name, compile));
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    return this.guarded(() => this.savepoints('releaseSavepoint')(this.unwrap(connection), name, compile));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(this.unwrap(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  /** The three drivers in use all have savepoints; Kysely's own words if one ever does not. */
  private savepoints(method: 'savepoint' | 'rollbackToSavepoint' | 'releaseSavepoint') {
    const call = this.inner[method];
    if (!call) throw new Error('The `savepoint` method is not supported by this driver');
    return call.bind(this.inner);
  }
}
