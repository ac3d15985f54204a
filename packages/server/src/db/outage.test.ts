import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Dialect } from './connection.js';
import { isConnectionFailure, isDatabaseUnavailable, markedUnavailable } from './outage.js';

const coded = (code: string, message = code, extra: object = {}) => Object.assign(new Error(message), { code }, extra);

/** Errors as the drivers raise them: an outage or not. */
const CASES: Array<[string, Dialect, unknown, boolean]> = [
  ['pg: connection refused', 'postgres', coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), true],
  ['pg: socket reset', 'postgres', coded('ECONNRESET'), true],
  ['pg: socket ended mid-query', 'postgres', new Error('Connection terminated unexpectedly'), true],
  [
    'pg: connect timeout (cause wrapped)',
    'postgres',
    new Error('Connection terminated due to connection timeout', { cause: new Error('Connection terminated') }),
    true,
  ],
  ['pg: pool checkout timeout', 'postgres', new Error('timeout exceeded when trying to connect'), true],
  [
    'pg: client broken earlier',
    'postgres',
    new Error('Client has encountered a connection error and is not queryable'),
    true,
  ],
  ['pg: admin shutdown', 'postgres', coded('57P01', 'terminating connection due to administrator command'), true],
  ['pg: starting up', 'postgres', coded('57P03', 'the database system is starting up'), true],
  ['pg: connection failure class 08', 'postgres', coded('08006'), true],
  ['pg: too many connections', 'postgres', coded('53300'), true],
  [
    'pg: several addresses refused',
    'postgres',
    new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')], 'connect failed'),
    true,
  ],
  ['pg: unique violation', 'postgres', coded('23505', 'duplicate key value'), false],
  ['pg: syntax error', 'postgres', coded('42601', 'syntax error'), false],
  ['mysql: refused', 'mysql', coded('ECONNREFUSED', 'connect ECONNREFUSED', { fatal: true }), true],
  ['mysql: connection lost', 'mysql', coded('PROTOCOL_CONNECTION_LOST', 'Connection lost', { fatal: true }), true],
  ['mysql: too many connections', 'mysql', coded('ER_CON_COUNT_ERROR', 'Too many connections', { errno: 1040 }), true],
  ['mysql: server shutting down', 'mysql', coded('ER_SERVER_SHUTDOWN'), true],
  [
    'mysql: command on a closed connection',
    'mysql',
    Object.assign(new Error("Can't add new command when connection is in closed state"), { fatal: true }),
    true,
  ],
  ['mysql: duplicate entry', 'mysql', coded('ER_DUP_ENTRY', 'Duplicate entry', { errno: 1062 }), false],
  ['mysql: bad SQL', 'mysql', coded('ER_PARSE_ERROR', 'You have an error in your SQL syntax'), false],
  ['sqlite: busy after the timeout', 'sqlite', coded('SQLITE_BUSY', 'database is locked'), true],
  ['sqlite: stale snapshot', 'sqlite', coded('SQLITE_BUSY_SNAPSHOT'), true],
  ['sqlite: file gone', 'sqlite', coded('SQLITE_CANTOPEN'), true],
  ['sqlite: disk read failed', 'sqlite', coded('SQLITE_IOERR_SHORT_READ'), true],
  ['sqlite: disk full', 'sqlite', coded('SQLITE_FULL'), true],
  ['sqlite: constraint', 'sqlite', coded('SQLITE_CONSTRAINT_UNIQUE'), false],
  // A network code means the database only from the network drivers' mouths.
  ['sqlite: a network code is not SQLite', 'sqlite', coded('ECONNREFUSED'), false],
  ['a plain error', 'postgres', new Error('boom'), false],
  ['not an error at all', 'mysql', 'ECONNREFUSED', false],
];

/** A local port nobody listens on: connecting to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function failure(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('database outage recognition', () => {
  it.each(CASES)('%s', (_name, dialect, error, outage) => {
    expect(isConnectionFailure(error, dialect)).toBe(outage);
  });

  it('marks an outage on the error itself, keeping its message and code, and leaves other errors unmarked', () => {
    const refused = coded('ECONNREFUSED');
    expect(markedUnavailable(refused, 'postgres')).toBe(refused);
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(refused.code).toBe('ECONNREFUSED');
    const duplicate = coded('23505');
    expect(isDatabaseUnavailable(markedUnavailable(duplicate, 'postgres'))).toBe(false);
    // Unmarked, even with an outage's code: it did not come out of the database driver.
    expect(isDatabaseUnavailable(coded('ECONNREFUSED'))).toBe(false);
  });

  it('recognises what the real drivers raise when nothing listens', async () => {
    const port = await closedPort();
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'nobody', database: 'none' });
    expect(isConnectionFailure(await failure(() => client.connect()), 'postgres')).toBe(true);
    const mysql = await failure(() => createConnection({ host: '127.0.0.1', port, user: 'nobody' }));
    expect(isConnectionFailure(mysql, 'mysql')).toBe(true);
  });

  it('recognises a real SQLITE_BUSY once the busy timeout has run out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outage-'));
    const file = join(dir, 'busy.db');
    const holder = new SQLite(file);
    const waiter = new SQLite(file);
    try {
      holder.exec('CREATE TABLE t (x INTEGER)');
      waiter.pragma('busy_timeout = 0');
      holder.exec('BEGIN IMMEDIATE');
      holder.exec('INSERT INTO t VALUES (1)');
      let busy: unknown;
      try {
        waiter.exec('INSERT INTO t VALUES (2)');
      } catch (error) {
        busy = error;
      }
      expect(isConnectionFailure(busy, 'sqlite')).toBe(true);
      holder.exec('COMMIT');
    } finally {
      holder.close();
      waiter.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
