import { LogType } from '@gateway/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import type { Db } from '../src/db/connection.js';
import { copyFamilyDatabase } from '../src/db/family/copy/copy.js';
import { parseEndpoint } from '../src/db/family/copy/endpoints.js';
import { LogTransfer } from '../src/db/log-transfer.js';
import type { NewLog } from '../src/db/schema.js';
import { NEW_API_0_3_0 } from './fixtures/family/releases.js';
import { seedRows } from './fixtures/family/seed.js';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import {
  availableDialects,
  createTestDatabase,
  type DialectName,
  logDatabaseEnv,
  type TestDatabase,
} from './helpers/databases.js';
import { createFamilyDatabase } from './helpers/family-database.js';
import { addChannel, addToken, flushBilling, openaiClient } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const dialects = await availableDialects();

// Each engine on each side at least once, as far as the machine has them.
const PAIRS: Array<[DialectName, DialectName]> = (
  [
    ['sqlite', 'postgres'],
    ['postgres', 'mysql'],
    ['mysql', 'sqlite'],
  ] as Array<[DialectName, DialectName]>
).filter(([main, logs]) => dialects.includes(main) && dialects.includes(logs));

interface LogPage {
  items: Array<Record<string, unknown>>;
  total: number;
}

async function countRows(db: Db, content?: string): Promise<number> {
  let query = db.kysely.selectFrom('logs').select((eb) => eb.fn.countAll<number>().as('n'));
  if (content !== undefined) query = query.where('content', '=', content);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** Outbox rows not yet copied: everything above the log database's watermark for this main database. */
async function uncopied(server: TestServer): Promise<number> {
  const transfer = new LogTransfer(server.ctx.db, server.ctx.logDb!);
  const watermark = await transfer.watermark(await transfer.identity());
  const row = await server.ctx.db.kysely
    .selectFrom('logs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('id', '>', watermark)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function outboxRows(marker: string, count: number): NewLog[] {
  const now = Math.floor(Date.now() / 1000);
  return Array.from({ length: count }, (_, i) => ({
    created_at: now,
    type: LogType.System,
    content: marker,
    quota: i,
    username: 'root',
  }));
}

describe('LOG_SQL_DSN configuration', () => {
  const base = { SESSION_SECRET: 'x'.repeat(32), SQLITE_PATH: '/tmp/main.db' };
  it('refuses ClickHouse with a clear reason', () => {
    for (const dsn of ['clickhouse://h:9000/logs', 'tcp://h:9000', 'http://h:8123', 'https://h:8443']) {
      expect(() => loadConfig({ ...base, LOG_SQL_DSN: dsn })).toThrow(/ClickHouse is not supported/);
    }
  });
  it('keeps the logs in the main database when LOG_SQL_DSN names it or is empty', () => {
    expect(loadConfig(base).logDatabase).toBeNull();
    expect(loadConfig({ ...base, LOG_SQL_DSN: 'local' }).logDatabase).toBeNull();
    expect(loadConfig({ ...base, LOG_SQL_DSN: 'local', LOG_SQLITE_PATH: '/tmp/logs.db' }).logDatabase).toEqual({
      dialect: 'sqlite',
      path: '/tmp/logs.db',
    });
    expect(loadConfig({ ...base, LOG_SQL_DSN: 'u:p@tcp(db:3306)/logs' }).logDatabase).toEqual({
      dialect: 'mysql',
      uri: 'mysql://u:p@db:3306/logs',
    });
  });
});

describe.each(PAIRS)('usage logs in a separate database: main on %s, logs on %s', (mainDialect, logDialect) => {
  let server: TestServer;
  let logDatabase: TestDatabase;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;

  beforeAll(async () => {
    mock = await startMockUpstream();
    logDatabase = await createTestDatabase(logDialect);
    server = await startTestServer(mainDialect, logDatabaseEnv(logDatabase));
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: 'sk-upstream', base_url: mock.baseUrl, models: 'gpt-4o' });
    key = await addToken(root, { remain_quota: 10_000_000 });
  });
  afterAll(async () => {
    await server?.close();
    await logDatabase?.drop();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('moves relay calls to the log database in call order, leaving nothing uncopied in the main one', async () => {
    expect(server.ctx.logDb?.dialect).toBe(logDialect);
    const client = openaiClient(server, key);
    for (const prompt of [100, 200, 300]) {
      mock.enqueue('openai.chat', { kind: 'ok', text: 'hi', usage: { prompt, completion: 1 } });
      await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    }
    await flushBilling(server);
    const rows = await server.ctx
      .logDb!.kysely.selectFrom('logs')
      .select(['id', 'prompt_tokens'])
      .where('type', '=', LogType.Consume)
      .orderBy('id')
      .execute();
    expect(rows.map((row) => row.prompt_tokens)).toEqual([100, 200, 300]);
    expect(await uncopied(server)).toBe(0);
    // At most the newest copied row stays behind as the id anchor (log-transfer.ts `deleteCopied`).
    expect(await countRows(server.ctx.db)).toBeLessThanOrEqual(1);
  });

  it('is ready only with both databases migrated', async () => {
    const ready = await fetch(`${server.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ checks: { database: 'ok', migrations: 'ok' } });
  });

  it('serves the log list, the stats and the self views from the log database', async () => {
    const page = await root.get<LogPage>('/api/log/?type=2&p=1&page_size=10');
    expect(page.data.total).toBe(3);
    expect(page.data.items.map((row) => row.prompt_tokens)).toEqual([300, 200, 100]);
    const self = await root.get<LogPage>('/api/log/self/?type=2');
    expect(self.data.total).toBe(3);
    const stat = await root.get<{ quota: number; rpm: number }>('/api/log/stat?type=2');
    const quotas = await server.ctx
      .logDb!.kysely.selectFrom('logs')
      .select('quota')
      .where('type', '=', LogType.Consume)
      .execute();
    expect(stat.data.quota).toBe(quotas.reduce((sum, row) => sum + Number(row.quota), 0));
    expect(stat.data.rpm).toBe(3);
    expect((await root.get<{ quota: number }>('/api/log/self/stat?type=2')).data.quota).toBe(stat.data.quota);
  });

  it('copies a row once when the process dies between the copy and the outbox delete', async () => {
    // The server's own mover would race this test's steps: stopped (it moves what is there), restarted after.
    await server.ctx.logTransfer!.stop();
    try {
      const marker = `crash-${logDialect}`;
      await server.ctx.db.kysely.insertInto('logs').values(outboxRows(marker, 5)).execute();
      const crashed = new LogTransfer(server.ctx.db, server.ctx.logDb!);
      const source = await crashed.identity();
      const from = await crashed.watermark(source);
      const rows = await crashed.settledRows(from);
      expect(rows).toHaveLength(5);
      expect(await crashed.copy(source, from, rows[rows.length - 1]!.id, rows)).toBe(true);
      // "Killed" here: the copied rows are still in the outbox. A mover that read the old watermark copies nothing.
      expect(await crashed.copy(source, from, rows[rows.length - 1]!.id, rows)).toBe(false);
      await new LogTransfer(server.ctx.db, server.ctx.logDb!).run();
      expect(await countRows(server.ctx.logDb!, marker)).toBe(5);
      expect(await uncopied(server)).toBe(0);
      // Ids keep the main order.
      const copied = await server.ctx
        .logDb!.kysely.selectFrom('logs')
        .select('quota')
        .where('content', '=', marker)
        .orderBy('id')
        .execute();
      expect(copied.map((row) => row.quota)).toEqual([0, 1, 2, 3, 4]);
    } finally {
      server.ctx.logTransfer!.start(server.ctx.config.batchUpdateIntervalMs);
    }
  });

  it('copies each row once when several movers (nodes) run at the same time', async () => {
    const marker = `race-${logDialect}`;
    await server.ctx.db.kysely.insertInto('logs').values(outboxRows(marker, 300)).execute();
    const movers = [0, 1, 2].map(() => new LogTransfer(server.ctx.db, server.ctx.logDb!, undefined, 40));
    await Promise.all([...movers.map((mover) => mover.run()), server.ctx.logTransfer!.run()]);
    expect(await countRows(server.ctx.logDb!, marker)).toBe(300);
    expect(await uncopied(server)).toBe(0);
  });

  it('clears old logs in the log database', async () => {
    const answer = await root.delete<number>(`/api/log/?target_timestamp=${Math.floor(Date.now() / 1000) + 10}`);
    expect(answer.success).toBe(true);
    expect(await countRows(server.ctx.logDb!)).toBeLessThanOrEqual(1);
    expect((await root.get<LogPage>('/api/log/?type=2')).data.total).toBe(0);
  });
});

describe.each(dialects)('a family log database on %s is adopted', (logDialect) => {
  let server: TestServer;
  let logDatabase: TestDatabase;

  beforeAll(async () => {
    const logsOnly = { ...NEW_API_0_3_0, tables: NEW_API_0_3_0.tables.filter((table) => table.name === 'logs') };
    logDatabase = await createFamilyDatabase(logDialect, logsOnly, {
      logs: [
        { id: 41, user_id: 1, created_at: 1_700_000_000, type: 2, content: 'family row', quota: 7, is_stream: true },
      ],
    });
    server = await startTestServer('sqlite', logDatabaseEnv(logDatabase));
  });
  afterAll(async () => {
    await server?.close();
    await logDatabase?.drop();
  });

  it('keeps the family rows, adds our columns and writes after them', async () => {
    const root = await setupAndLogin(server.baseUrl);
    await server.ctx.db.kysely
      .insertInto('logs')
      .values({ ...outboxRows('ours', 1)[0]!, request_id: 'req-1', group: 'default' })
      .execute();
    const page = await root.get<LogPage>('/api/log/?p=1&page_size=50');
    const family = page.data.items.find((row) => row.content === 'family row');
    expect(family).toMatchObject({ quota: 7, is_stream: true, id: 41 });
    const ours = await server.ctx
      .logDb!.kysely.selectFrom('logs')
      .selectAll()
      .where('content', '=', 'ours')
      .executeTakeFirstOrThrow();
    expect(ours.id).toBeGreaterThan(41);
    expect(ours).toMatchObject({ request_id: 'req-1', group: 'default' });
  });
});

describe.each(PAIRS)(
  'copy-family with log databases: family logs on %s, ours on %s',
  (familyLogDialect, ourLogDialect) => {
    const endpointOf = (database: TestDatabase) => parseEndpoint(database.env.SQL_DSN || database.env.SQLITE_PATH);
    const made: TestDatabase[] = [];
    afterAll(async () => {
      for (const database of made) await database.drop();
    });

    it("carries the family's log database into ours, ids kept, and a second run copies nothing new", async () => {
      const seeded = await seedRows('http://127.0.0.1:9');
      const withoutLogs = { ...NEW_API_0_3_0, tables: NEW_API_0_3_0.tables.filter((table) => table.name !== 'logs') };
      const logsOnly = { ...NEW_API_0_3_0, tables: NEW_API_0_3_0.tables.filter((table) => table.name === 'logs') };
      const familyMain = await createFamilyDatabase('sqlite', withoutLogs, seeded);
      made.push(familyMain);
      const familyLogs = await createFamilyDatabase(familyLogDialect, logsOnly, { logs: seeded.logs! });
      made.push(familyLogs);
      const ourMain = await createTestDatabase('sqlite');
      made.push(ourMain);
      const ourLogs = await createTestDatabase(ourLogDialect);
      made.push(ourLogs);
      const options = {
        from: endpointOf(familyMain),
        to: endpointOf(ourMain),
        fromLog: endpointOf(familyLogs),
        toLog: endpointOf(ourLogs),
      };
      const first = await copyFamilyDatabase(options);
      expect(first.refused).toBeUndefined();
      const logsReport = first.tables.find((table) => table.table === 'logs')!;
      expect(logsReport).toMatchObject({ read: seeded.logs!.length, added: seeded.logs!.length });
      const second = await copyFamilyDatabase(options);
      expect(second.tables.find((table) => table.table === 'logs')).toMatchObject({ added: 0 });

      const server = await startTestServer('sqlite', logDatabaseEnv(ourLogs), ourMain);
      try {
        const { items, total } = await server.ctx.repos.logs.list({}, 0, 50);
        expect(total).toBe(seeded.logs!.length);
        expect(items.map((row) => row.id).sort()).toEqual(seeded.logs!.map((row) => row.id).sort());
        expect(await countRows(server.ctx.db)).toBe(0);
      } finally {
        await server.close();
      }
    });
  },
);
