import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseTarget } from '../src/db/dsn.js';
import { CopyRefused, copyFamilyDatabase } from '../src/db/family/copy/copy.js';
import { parseEndpoint } from '../src/db/family/copy/endpoints.js';
import { ourSchema } from '../src/db/family/copy/our-schema.js';
import { prepareRow } from '../src/db/family/copy/prepare.js';
import { type CopyReport, totalAdded } from '../src/db/family/copy/report.js';
import { CARRIED_TABLES } from '../src/db/family/copy/tables.js';
import { RELEASES, type Release } from './fixtures/family/releases.js';
import { ALICE_KEY, DELETED_KEY, PASSWORDS, type Row, seedRows } from './fixtures/family/seed.js';
import { ApiClient } from './helpers/client.js';
import { availableDialects, createTestDatabase, type DialectName, type TestDatabase } from './helpers/databases.js';
import { createFamilyDatabase, openTestDatabase } from './helpers/family-database.js';
import { flushBilling, openaiClient } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

// biome-ignore lint/suspicious/noExplicitAny: tables are compared by name.
type AnyDb = Kysely<any>;

const dialects = await availableDialects();
const ROUTES: Array<[DialectName, DialectName]> = [
  ['sqlite', 'postgres'],
  ['postgres', 'mysql'],
  ['mysql', 'sqlite'],
];
const routes = ROUTES.filter(([from, to]) => dialects.includes(from) && dialects.includes(to));
// Without the servers (outside CI) the copy still runs between two SQLite files.
if (!routes.length) routes.push(['sqlite', 'sqlite']);
const cases = RELEASES.flatMap((release) => routes.map(([from, to]) => [release.name, from, to, release] as const));

const endpointOf = (database: TestDatabase): DatabaseTarget =>
  parseEndpoint(database.env.SQL_DSN || database.env.SQLITE_PATH);

/** Rows no copy can carry, one of each kind the fixtures can hold: an orphaned key and a log without a time. */
const ORPHAN_TOKEN = { id: 9, user_id: 99, key: 'orphanFamilyKey3456789abcdefghijklmnopqrstuvwxyz', name: 'orphan' };
const TIMELESS_LOG = { id: 4, user_id: 2, type: 2, content: 'no time', username: 'alice', quota: 1 };
const UNCARRIABLE = [
  { table: 'tokens', key: 'id=9', reasons: ['user_id 99: no such row in users is carried'] },
  { table: 'logs', key: 'id=4', reasons: ['created_at is empty and logs.created_at requires a value'] },
];

/** Our names for the two columns the family spells otherwise. */
const RENAMED: Record<string, string> = {
  aff_history: 'aff_history_quota',
  open_ai_organization: 'openai_organization',
};

/** A seeded row as our table must hold it: the release's columns that we have, booleans as 1/0, renamed. */
function expectedRow(release: Release, table: string, row: Row, ours: Set<string>): Row {
  const columns = release.tables.find((t) => t.name === table)!.columns;
  const out: Row = {};
  for (const column of columns) {
    const value = row[column.name];
    const name = RENAMED[column.name] ?? column.name;
    if (value === undefined || value === null || !ours.has(name)) continue;
    out[name] = typeof value === 'boolean' ? Number(value) : value;
  }
  return out;
}

async function tableRows(database: TestDatabase, table: string, key: string[]): Promise<Row[]> {
  const db = await openTestDatabase(database);
  try {
    let query = (db.kysely as AnyDb).selectFrom(table).selectAll();
    for (const column of key) query = query.orderBy(column);
    return await query.execute();
  } finally {
    await db.close();
  }
}

async function rowCounts(database: TestDatabase): Promise<Record<string, number>> {
  const db = await openTestDatabase(database);
  try {
    const counts: Record<string, number> = {};
    for (const { name } of CARRIED_TABLES) {
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(name)}`.execute(
        db.kysely,
      );
      counts[name] = Number(rows[0]!.n);
    }
    return counts;
  } finally {
    await db.close();
  }
}

const byTable = (report: CopyReport, table: string) => report.tables.find((entry) => entry.table === table)!;

describe.each(cases)('copying a %s database from %s to %s', (_name, from, to, release: Release) => {
  let mock: MockUpstream;
  let source: TestDatabase;
  let target: TestDatabase;
  let server: TestServer | undefined;
  let rows: Record<string, Row[]>;
  const has = (table: string) => release.tables.some((t) => t.name === table);
  const softDeletes = release.tables.find((t) => t.name === 'users')!.columns.some((c) => c.name === 'deleted_at');
  /** Seeded rows per carried table the release has, the deliberately broken ones included. */
  const seededCount = (table: string) => (has(table) ? (rows[table]?.length ?? 0) : 0);

  beforeAll(async () => {
    mock = await startMockUpstream();
    rows = await seedRows(mock.baseUrl);
    rows.tokens!.push(ORPHAN_TOKEN);
    rows.logs!.push(TIMELESS_LOG);
    source = await createFamilyDatabase(from, release, rows);
    target = await createTestDatabase(to);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await source?.drop();
    await target?.drop();
    await mock?.close();
  });

  it('dry run: counts every table, lists each row it cannot carry with the reason, and writes nothing', async () => {
    const report = await copyFamilyDatabase({ from: endpointOf(source), to: endpointOf(target), dryRun: true });
    expect(report).toMatchObject({ dryRun: true, written: false, conflicts: [] });
    expect(report.refused).toBeUndefined();
    for (const { name } of CARRIED_TABLES) {
      const broken = UNCARRIABLE.filter((row) => row.table === name).length;
      expect(byTable(report, name), name).toMatchObject({
        inSource: has(name),
        read: seededCount(name),
        added: seededCount(name) - broken,
        unchanged: 0,
        changed: 0,
        skipped: broken,
      });
    }
    expect(report.uncarriable).toEqual(UNCARRIABLE);
    // one-api's extra columns have no place in our schema and are named; its token limits are not (they move).
    const dropped = Object.fromEntries(report.tables.map((table) => [table.table, table.droppedColumns]));
    if (release.family === 'one-api') {
      expect(dropped).toMatchObject({ users: ['lark_id'], channels: ['config', 'system_prompt'], tokens: [] });
    } else {
      expect(Object.values(dropped).flat()).toEqual([]);
    }
    // Nothing written: a SQLite target file is not even created; a server database has no table.
    if (to === 'sqlite') expect(existsSync(target.env.SQLITE_PATH)).toBe(false);
    else {
      const db = await openTestDatabase(target);
      expect(await db.kysely.introspection.getTables({ withInternalKyselyTables: true })).toEqual([]);
      await db.close();
    }
  });

  it('copies every carriable row, each table reading back as the family wrote it', async () => {
    const report = await copyFamilyDatabase({ from: endpointOf(source), to: endpointOf(target) });
    expect(report.written).toBe(true);
    expect(report.uncarriable).toEqual(UNCARRIABLE);
    const schema = await ourSchema();
    for (const { name } of CARRIED_TABLES) {
      const our = schema.get(name)!;
      const broken = new Set(UNCARRIABLE.filter((row) => row.table === name).map((row) => row.key));
      const seeded = (has(name) ? (rows[name] ?? []) : []).filter(
        (row) => !broken.has(our.key.map((column) => `${column}=${row[column]}`).join(', ')),
      );
      const ours = new Set(our.columns.map((column) => column.name));
      // MySQL keeps JSON columns re-serialised (`{"a": 1}`): compared as JSON.
      const json = release.tables.find((t) => t.name === name)?.columns.filter((c) => c.kind === 'json') ?? [];
      const normal = (row: Row) => {
        for (const { name: column } of json)
          if (typeof row[column] === 'string') row[column] = JSON.stringify(JSON.parse(row[column] as string));
        return row;
      };
      const expected = seeded.map((row) =>
        expect.objectContaining(expectedRow(release, name, normal({ ...row }), ours)),
      );
      const actual = (await tableRows(target, name, our.key)).map(normal);
      if (name === 'abilities' || name === 'options') {
        expect(actual).toHaveLength(expected.length);
        expect(actual, name).toEqual(expect.arrayContaining(expected));
      } else {
        expect(actual, name).toEqual(expected);
      }
    }
    // one-api's `models` / `subnet` arrive as our limits; soft deletes keep their time (unix seconds here).
    const [main, , deleted] = await tableRows(target, 'tokens', ['id']);
    expect(main).toMatchObject({ model_limits: 'gpt-4o,gpt-4o-mini', model_limits_enabled: 1, allow_ips: '127.0.0.1' });
    if (softDeletes) expect(deleted).toMatchObject({ deleted_at: rows.tokens![2]!.deleted_at });
    // The channel key stays the family's plaintext: the server uses a value without `enc:v1:` as it is.
    expect((await tableRows(target, 'channels', ['id']))[0]).toMatchObject({ key: 'sk-upstream-family' });
  });

  it('run twice: the second run copies nothing new and says so; no row is duplicated', async () => {
    const before = await rowCounts(target);
    // Pages of two rows: every table is read across pages (abilities by its three-column key).
    const again = await copyFamilyDatabase({ from: endpointOf(source), to: endpointOf(target), pageSize: 2 });
    expect(totalAdded(again)).toBe(0);
    expect(byTable(again, 'abilities')).toMatchObject({ read: 5, unchanged: 5 });
    expect(byTable(again, 'options')).toMatchObject({ read: 3, unchanged: 3 });
    expect(again.conflicts).toEqual([]);
    expect(byTable(again, 'users')).toMatchObject({ added: 0, unchanged: seededCount('users') });
    expect(byTable(again, 'logs')).toMatchObject({ added: 0, unchanged: seededCount('logs') - 1, skipped: 1 });
    expect(await rowCounts(target)).toEqual(before);
  });

  it('starts the product on the copy: old passwords sign in, an old sk- key relays and is billed', async () => {
    server = await startTestServer(to, {}, target);
    const root = new ApiClient(server.baseUrl);
    await root.login('root', PASSWORDS.root);
    const alice = new ApiClient(server.baseUrl);
    await alice.login('alice', PASSWORDS.alice);
    expect([root.userId, alice.userId]).toEqual([1, 2]);
    const bob = await new ApiClient(server.baseUrl).post('/api/user/login', {
      username: 'bob',
      password: PASSWORDS.bob,
    });
    expect(bob.success).toBe(!softDeletes);

    mock.enqueue('openai.chat', { kind: 'ok', text: 'copied over', usage: { prompt: 100, completion: 20 } });
    const answer = await openaiClient(server, `sk-${ALICE_KEY}`).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello from the copy' }],
    });
    expect(answer.choices[0]!.message.content).toBe('copied over');
    expect(mock.requests[0]!.headers.authorization).toBe('Bearer sk-upstream-family');
    expect((mock.requests[0]!.body as { model: string }).model).toBe('gpt-4o');
    await flushBilling(server);
    const token = (await server.ctx.repos.tokens.findByKey(ALICE_KEY))!;
    const billed = 1_000_000 - token.remain_quota;
    expect(billed).toBeGreaterThan(0);
    expect(token.used_quota).toBe(2500 + billed);
    const user = (await server.ctx.repos.users.findById(2))!;
    expect(user).toMatchObject({ quota: 2_000_000 - billed, used_quota: 5000 + billed, request_count: 8 });
    if (softDeletes) {
      await expect(
        openaiClient(server, `sk-${DELETED_KEY}`).chat.completions.create({
          model: 'gpt-4o',
          messages: [{ role: 'user', content: 'x' }],
        }),
      ).rejects.toMatchObject({ status: 401 });
    }
    // New rows after the copied ids: the sequences moved past them (PostgreSQL's would not by itself).
    const created = await root.post<Array<{ key: string }>>('/api/token/', { name: 'after-copy' });
    expect(created.success, created.message).toBe(true);
    const ids = (await tableRows(target, 'tokens', ['id'])).map((row) => row.id);
    expect(ids.at(-1)).toBeGreaterThan(3);
  });

  it('refuses to overwrite rows the target holds with other values, naming them; --update-changed lets the source win', async () => {
    await server!.close();
    server = undefined;
    const before = await tableRows(target, 'users', ['id']);
    const refused = await copyFamilyDatabase({ from: endpointOf(source), to: endpointOf(target) });
    expect(refused.written).toBe(false);
    // Sign-ins moved last_login_at (bob signs in where one-api has no soft delete), the relay moved the counters.
    expect(refused.refused).toContain(
      `other values under the same ids: users (${softDeletes ? 2 : 3}), channels (1), tokens (1); nothing was written`,
    );
    expect(refused.conflicts).toContainEqual({
      table: 'users',
      key: 'id=2',
      reasons: expect.arrayContaining([expect.stringMatching(/^quota is \d+ in the target, 2000000 in the source$/)]),
    });
    expect(await tableRows(target, 'users', ['id'])).toEqual(before);
    const dry = await copyFamilyDatabase({ from: endpointOf(source), to: endpointOf(target), dryRun: true });
    expect(dry.refused).toBe(refused.refused);

    const updated = await copyFamilyDatabase({ from: endpointOf(source), to: endpointOf(target), updateChanged: true });
    expect(updated.written).toBe(true);
    expect(totalAdded(updated)).toBe(0);
    expect((await tableRows(target, 'users', ['id']))[1]).toMatchObject({ quota: 2_000_000, used_quota: 5000 });
  });
});

describe('what the copy refuses', () => {
  let family: TestDatabase;
  let other: TestDatabase;
  beforeAll(async () => {
    family = await createFamilyDatabase('sqlite', RELEASES[2]!, await seedRows('http://127.0.0.1:9'));
    other = await createFamilyDatabase('sqlite', RELEASES[0]!, await seedRows('http://127.0.0.1:9'));
  });
  afterAll(async () => {
    await family?.drop();
    await other?.drop();
  });

  it('a target that holds a family database (or anything not ours) is refused, untouched', async () => {
    // Byte for byte: not even switched to WAL (the journal mode is in the file's header).
    const before = readFileSync(other.env.SQLITE_PATH);
    await expect(copyFamilyDatabase({ from: endpointOf(family), to: endpointOf(other) })).rejects.toThrow(
      new CopyRefused(
        `SQLite ${other.env.SQLITE_PATH} is neither empty nor a database of this server (a new-api or one-api database: start the server on it in place); tables: abilities, channels, logs, options, redemptions, tokens, users`,
      ),
    );
    expect(readFileSync(other.env.SQLITE_PATH).equals(before)).toBe(true);
  });

  it('a new row whose username the target holds under another id is a conflict that --update-changed does not override', async () => {
    const target = await createTestDatabase('sqlite');
    try {
      const db = await openTestDatabase(target);
      const { migrateToLatest } = await import('../src/db/migrate.js');
      await migrateToLatest(db);
      await db.kysely.insertInto('users').values({ id: 40, username: 'alice', password: 'x' }).execute();
      await db.close();
      const report = await copyFamilyDatabase({
        from: endpointOf(family),
        to: endpointOf(target),
        updateChanged: true,
      });
      expect(report.written).toBe(false);
      expect(report.conflicts).toEqual([
        { table: 'users', key: 'id=2', reasons: ['username "alice" belongs to id=40 in the target'] },
      ]);
      expect(report.refused).toMatch(/^1 new rows would take a username, key or trade number .*nothing was written$/);
      expect(await rowCounts(target)).toMatchObject({ users: 1, tokens: 0 });
    } finally {
      await target.drop();
    }
  });

  it('values our columns cannot hold are reasons, where the engine enforces them', async () => {
    const users = (await ourSchema()).get('users')!;
    const columns = new Map();
    const long = { id: 1, username: 'x'.repeat(65), quota: 'lots' };
    expect(prepareRow(users, long, columns, 'postgres').reasons).toEqual([
      'username has 65 characters; ours holds 64',
      'quota is not a number: "lots"',
    ]);
    expect(prepareRow(users, { ...long, quota: '12' }, columns, 'sqlite').row).toMatchObject({
      username: 'x'.repeat(65),
      quota: 12,
      display_name: '',
      access_token: null,
    });
  });
});

describe('npm run copy-family', () => {
  let family: TestDatabase;
  beforeAll(async () => {
    family = await createFamilyDatabase('sqlite', RELEASES[1]!, await seedRows('http://127.0.0.1:9'));
  });
  afterAll(async () => family?.drop());

  it('prints the dry run report and exits 0; without --to it prints the usage and exits 2', async () => {
    const run = promisify(execFile);
    const targetPath = `${family.env.SQLITE_PATH}.copy.db`;
    const cwd = new URL('../../..', import.meta.url).pathname;
    const { stdout } = await run(
      'npm',
      ['run', '--silent', 'copy-family', '--', '--from', family.env.SQLITE_PATH, '--to', targetPath, '--dry-run'],
      { cwd },
    );
    expect(stdout).toContain('Dry run: nothing written.');
    expect(stdout).toContain('27 new rows to copy.');
    expect(stdout).toMatch(/^users +3 +3 +0 +0 +0$/m);
    expect(existsSync(targetPath)).toBe(false);
    await expect(
      run('npm', ['run', '--silent', 'copy-family', '--', '--from', family.env.SQLITE_PATH], { cwd }),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--from and --to are required'),
    });
  }, 60_000);
});
