import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import type { DatabaseTarget } from '../../src/db/dsn.js';

export type DialectName = DatabaseTarget['dialect'];

const PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const IN_CI = process.env.CI === 'true';

/** A database made for one test file and dropped after it, so runs never see each other's rows. */
export interface TestDatabase {
  dialect: DialectName;
  /** The SQL_DSN / SQLITE_PATH pair that points the server at it. */
  env: { SQL_DSN: string; SQLITE_PATH: string };
  drop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-test-'));
    return {
      dialect,
      env: { SQL_DSN: '', SQLITE_PATH: join(dir, 'test.db') },
      async drop() {
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (dialect === 'postgres') {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    return {
      dialect,
      env: { SQL_DSN: withDatabase(PG_URL, name), SQLITE_PATH: '' },
      async drop() {
        const client = new pg.Client({ connectionString: PG_URL });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      },
    };
  }
  const admin = await createConnection(MYSQL_URL);
  await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  return {
    dialect,
    env: { SQL_DSN: withDatabase(MYSQL_URL, name), SQLITE_PATH: '' },
    async drop() {
      const connection = await createConnection(MYSQL_URL);
      await connection.query(`DROP DATABASE IF EXISTS ${name}`);
      await connection.end();
    },
  };
}

async function reachable(dialect: DialectName): Promise<boolean> {
  try {
    if (dialect === 'postgres') {
      const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
      await client.connect();
      await client.end();
    } else if (dialect === 'mysql') {
      const connection = await createConnection({ uri: MYSQL_URL, connectTimeout: 2000 });
      await connection.end();
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * The dialects this run tests. SQLite always; PostgreSQL and MariaDB when reachable. Inside CI an unreachable
 * server is a failure, not a skip: CI must prove all three.
 */
export async function availableDialects(): Promise<DialectName[]> {
  const dialects: DialectName[] = ['sqlite'];
  for (const dialect of ['postgres', 'mysql'] as const) {
    if (await reachable(dialect)) dialects.push(dialect);
    else if (IN_CI) throw new Error(`${dialect} is not reachable but CI=true requires it`);
    else console.warn(`[skip] ${dialect} is not reachable on this machine: its tests are skipped (they run in CI)`);
  }
  return dialects;
}

/** The LOG_SQL_DSN / LOG_SQLITE_PATH that point a server's usage logs at `database` (a separate log database). */
export function logDatabaseEnv(database: TestDatabase): { LOG_SQL_DSN: string; LOG_SQLITE_PATH: string } {
  if (database.dialect === 'sqlite') return { LOG_SQL_DSN: 'local', LOG_SQLITE_PATH: database.env.SQLITE_PATH };
  return { LOG_SQL_DSN: database.env.SQL_DSN, LOG_SQLITE_PATH: '' };
}
