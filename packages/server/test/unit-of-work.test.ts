import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/db/connection.js';
import { parseDatabaseTarget } from '../src/db/dsn.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createRepositories, type Repositories } from '../src/db/repositories.js';
import { availableDialects, createTestDatabase, type TestDatabase } from './helpers/databases.js';

const dialects = await availableDialects();

describe.each(dialects)('unit of work (db.inTransaction) on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let repos: Repositories;
  let userId: number;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = await openDatabase(parseDatabaseTarget(database.env.SQL_DSN, database.env.SQLITE_PATH));
    await migrateToLatest(db);
    repos = createRepositories(db);
    userId = await repos.users.insert({ username: 'uow', password: 'x', quota: 100 });
  });

  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  const quota = async () => (await repos.users.findById(userId))!.quota;

  it('commits every call together and hands back what the work returned', async () => {
    const result = await db.inTransaction(async (trx) => {
      await repos.users.addQuotaIn(trx, userId, 5);
      await repos.tokens.insertMany(trx, [{ user_id: userId, key: 'a'.repeat(48), name: 'committed' }]);
      return 'done';
    });
    expect(result).toBe('done');
    expect(await quota()).toBe(105);
    expect(await repos.tokens.findByKey('a'.repeat(48))).toMatchObject({ name: 'committed' });
  });

  it('rolls every call back when the work throws, and passes the error on', async () => {
    const failure = new Error('decided against it');
    await expect(
      db.inTransaction(async (trx) => {
        await repos.users.addQuotaIn(trx, userId, 1_000);
        await repos.tokens.insertMany(trx, [{ user_id: userId, key: 'b'.repeat(48), name: 'rolled back' }]);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await quota()).toBe(105);
    expect(await repos.tokens.findByKey('b'.repeat(48))).toBeUndefined();
  });

  it('rolls back when a statement fails halfway (a unique key taken)', async () => {
    await expect(
      db.inTransaction(async (trx) => {
        await repos.users.addQuotaIn(trx, userId, 7);
        await repos.tokens.insertMany(trx, [{ user_id: userId, key: 'a'.repeat(48), name: 'duplicate key' }]);
      }),
    ).rejects.toThrow();
    expect(await quota()).toBe(105);
  });

  it('answers a ping', async () => {
    await expect(db.ping()).resolves.toBeUndefined();
  });
});
