import { ChannelStatus, RedemptionStatus } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/db/connection.js';
import { parseDatabaseTarget } from '../src/db/dsn.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { fillLogValues, LOG_COLUMNS } from '../src/db/repos/logs.js';
import { createRepositories, type Repositories } from '../src/db/repositories.js';
import { availableDialects, createTestDatabase, type TestDatabase } from './helpers/databases.js';

const dialects = await availableDialects();

describe('usage-log values for the SQLite insert', () => {
  it('lists every column in LOG_COLUMNS order and fills the defaults of missing ones', () => {
    const row = Object.fromEntries(LOG_COLUMNS.map((column, index) => [column, `value ${index}`]));
    const values: unknown[] = [];
    fillLogValues(row as never, values);
    expect(values).toEqual(LOG_COLUMNS.map((_, index) => `value ${index}`));
    fillLogValues({ created_at: 7, model_name: 'gpt-4o' }, values);
    expect(Object.fromEntries(LOG_COLUMNS.map((column, index) => [column, values[index]]))).toMatchObject({
      created_at: 7,
      model_name: 'gpt-4o',
      user_id: 0,
      content: '',
      group: '',
      other: '',
    });
  });
});

describe.each(dialects)('migrations and repositories on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let repos: Repositories;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = await openDatabase(parseDatabaseTarget(database.env.SQL_DSN, database.env.SQLITE_PATH));
    await migrateToLatest(db);
    repos = createRepositories(db);
  });

  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it('migrates once and is a no-op the second time', async () => {
    expect(await migrateToLatest(db)).toEqual([]);
  });

  it.runIf(dialect === 'sqlite')(
    'opens SQLite in WAL mode with a 2 MiB page cache, not the driver build default of 16',
    () => {
      const pragma = (name: string) => db.sqlite?.pragma(name, { simple: true });
      expect(pragma('journal_mode')).toBe('wal');
      expect(pragma('synchronous')).toBe(1);
      expect(pragma('cache_size')).toBe(-2000);
    },
  );

  it('stores users with family defaults and finds them by username or e-mail', async () => {
    const id = await repos.users.insert({
      username: 'alice',
      password: 'hash',
      email: 'alice@example.com',
      display_name: '爱丽丝',
    });
    const user = await repos.users.findById(id);
    expect(user).toMatchObject({
      username: 'alice',
      role: 1,
      status: 1,
      group: 'default',
      quota: 0,
      display_name: '爱丽丝',
    });
    expect((await repos.users.findForLogin('alice@example.com'))?.id).toBe(id);
    expect(await repos.users.findForLogin('')).toBeUndefined();
    await repos.users.addQuota(id, 1_500_000_000_000);
    await repos.users.addQuota(id, -500_000_000_000);
    expect((await repos.users.findById(id))?.quota).toBe(1_000_000_000_000);
    await expect(repos.users.insert({ username: 'alice' })).rejects.toThrow();
  });

  it('upserts options', async () => {
    await repos.options.upsert('RetryTimes', '2');
    await repos.options.upsert('RetryTimes', '3');
    expect(await repos.options.all()).toContainEqual({ key: 'RetryTimes', value: '3' });
  });

  it('keeps sessions until they expire or are destroyed', async () => {
    await repos.sessions.insert('s1', 7, 60);
    await repos.sessions.insert('s2', 7, -1);
    expect(await repos.sessions.findUserId('s1')).toBe(7);
    expect(await repos.sessions.findUserId('s2')).toBeUndefined();
    expect(await repos.sessions.deleteExpired()).toBe(1);
    await repos.sessions.deleteForUser(7);
    expect(await repos.sessions.findUserId('s1')).toBeUndefined();
  });

  it('never lets one user touch another user’s token', async () => {
    const id = await repos.tokens.insert({ user_id: 1, key: 'k'.repeat(48), name: 'mine', remain_quota: 100 });
    expect(await repos.tokens.findOwned(2, id)).toBeUndefined();
    expect(await repos.tokens.updateOwned(2, id, { name: 'stolen' })).toBe(false);
    expect(await repos.tokens.deleteOwned(2, [id])).toBe(0);
    expect((await repos.tokens.findOwned(1, id))?.name).toBe('mine');
    await repos.tokens.consume(id, 30);
    expect(await repos.tokens.findOwned(1, id)).toMatchObject({ remain_quota: 70, used_quota: 30, expired_time: -1 });
    expect((await repos.tokens.listOwned(1, 0, 10)).total).toBe(1);
    expect(await repos.tokens.deleteOwned(1, [id])).toBe(1);
    expect(await repos.tokens.findByKey('k'.repeat(48))).toBeUndefined();
  });

  it('rebuilds abilities in step with a channel inside a transaction', async () => {
    const id = await db.inTransaction((trx) =>
      repos.channels.insertIn(trx, {
        key: 'sk-upstream',
        name: 'c1',
        models: 'gpt-4o,gpt-4o-mini',
        group: 'default,vip',
        priority: 5,
        weight: 3,
      }),
    );
    const channel = (await repos.channels.findById(id))!;
    const count = await db.inTransaction((trx) => repos.abilities.replaceForChannel(trx, channel));
    expect(count).toBe(4);
    const rows = await repos.abilities.forChannel(id);
    expect(rows.map((row) => `${row.group}/${row.model}`)).toEqual([
      'default/gpt-4o',
      'default/gpt-4o-mini',
      'vip/gpt-4o',
      'vip/gpt-4o-mini',
    ]);
    expect(rows.every((row) => row.enabled === 1 && row.priority === 5 && row.weight === 3)).toBe(true);
    const disabled = { ...channel, status: ChannelStatus.AutoDisabled, models: 'gpt-4o' };
    await db.inTransaction((trx) => repos.abilities.replaceForChannel(trx, disabled));
    expect(await repos.abilities.forChannel(id)).toHaveLength(2);
    expect((await repos.abilities.forChannel(id)).every((row) => row.enabled === 0)).toBe(true);
  });

  it('claims a redemption code exactly once under concurrency', async () => {
    const id = await repos.redemptions.insert({ key: 'r'.repeat(32), name: 'gift', quota: 1000 });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, index) => db.inTransaction((trx) => repos.redemptions.claim(trx, id, index + 1))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await repos.redemptions.findById(id))?.status).toBe(RedemptionStatus.Used);
  });

  it('inserts logs in batches, filters them and deletes old ones', async () => {
    const rows = Array.from({ length: 450 }, (_, index) => ({
      user_id: index % 2 === 0 ? 1 : 2,
      created_at: 1_000 + index,
      type: 2,
      model_name: index % 3 === 0 ? 'gpt-4o' : 'gpt-4o-mini',
      quota: 10,
      content: '日志',
    }));
    await repos.logs.insertMany(rows);
    const page = await repos.logs.list({ userId: 1, modelName: 'gpt-4o' }, 0, 10);
    expect(page.total).toBe(75);
    expect(page.items[0]!.created_at).toBeGreaterThan(page.items[1]!.created_at);
    expect(await repos.logs.deleteBefore(1_100)).toBe(100);
    expect((await repos.logs.list({}, 0, 1)).total).toBe(350);
  });

  it('increments quota_data buckets instead of duplicating them', async () => {
    const bucket = {
      userId: 1,
      username: 'alice',
      modelName: 'gpt-4o',
      hour: 3600,
      count: 1,
      quota: 100,
      tokenUsed: 20,
    };
    await repos.quotaData.increment(bucket);
    await repos.quotaData.increment({ ...bucket, count: 2, quota: 50, tokenUsed: 5 });
    const rows = await repos.quotaData.range(0, 7200);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ count: 3, quota: 150, token_used: 25 });
  });

  it("lets the family's server add its own row for an hour, and sums a bucket's rows", async () => {
    const hour = 7 * 3600;
    const bucket = { userId: 2, username: 'bob', modelName: 'gpt-4o', hour, count: 1, quota: 10, tokenUsed: 4 };
    await repos.quotaData.increment(bucket);
    // What the family's server does on its next flush of the hour: a plain INSERT, which a unique index refused.
    await db.kysely
      .insertInto('quota_data')
      .values({
        user_id: 2,
        username: 'bob',
        model_name: 'gpt-4o',
        created_at: hour,
        count: 2,
        quota: 20,
        token_used: 8,
      })
      .execute();
    await repos.quotaData.increment({ ...bucket, count: 4, quota: 40, tokenUsed: 16 });
    const stored = await db.kysely.selectFrom('quota_data').selectAll().where('created_at', '=', hour).execute();
    expect(stored.map((row) => Number(row.count)).sort()).toEqual([2, 5]);
    const rows = await repos.quotaData.range(hour, hour);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: 2, username: 'bob', count: 7, quota: 70, token_used: 28 });
  });

  it('completes a pending top-up only once', async () => {
    await repos.topUps.insert({ user_id: 1, amount: 10, money: 73, trade_no: 'USR1NOabc123' });
    const first = await db.inTransaction((trx) => repos.topUps.completePending(trx, 'USR1NOabc123'));
    const replay = await db.inTransaction((trx) => repos.topUps.completePending(trx, 'USR1NOabc123'));
    expect([first, replay]).toEqual([true, false]);
    expect((await repos.topUps.findByTradeNo('USR1NOabc123'))?.status).toBe('success');
  });

  it('lists drawing and generic tasks by owner', async () => {
    await repos.midjourneys.insert({
      user_id: 1,
      mj_id: 'mj-1',
      action: 'IMAGINE',
      submit_time: 1_700_000_000_000,
      prompt: '猫',
    });
    await repos.midjourneys.insert({ user_id: 2, mj_id: 'mj-2', action: 'UPSCALE', submit_time: 1_700_000_000_500 });
    expect((await repos.midjourneys.list({ userId: 1 }, 0, 10)).map((row) => row.mj_id)).toEqual(['mj-1']);
    expect(await repos.midjourneys.list({ startMs: 1_700_000_000_100 }, 0, 10)).toHaveLength(1);
    await repos.tasks.insert({ task_id: 'task-1', user_id: 1, platform: 'suno', action: 'MUSIC', submit_time: 100 });
    expect(await repos.tasks.list({ userId: 2 }, 0, 10)).toHaveLength(0);
    expect((await repos.tasks.list({ taskId: 'task-1' }, 0, 10))[0]?.platform).toBe('suno');
  });
});
