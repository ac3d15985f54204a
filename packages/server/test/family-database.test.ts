import { type CheckinStatusView, localDate, type PasskeyStatusView } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Table } from './fixtures/family/gorm-ddl.js';
import {
  NEW_API_0_6_3,
  NEW_API_2026_CATALOGUE,
  NEW_API_2026_SUBSCRIPTIONS,
  NEW_API_CHECKIN,
  ONE_API_0_6_10,
  RELEASES,
  type Release,
} from './fixtures/family/releases.js';
import {
  ALICE_KEY,
  DELETED_KEY,
  FAMILY_CHECKIN_DAYS,
  FAMILY_PASSKEY_DEVICE,
  FAMILY_PASSKEY_ORIGIN,
  PASSWORDS,
  type Row,
  seedRows,
} from './fixtures/family/seed.js';
import { ApiClient } from './helpers/client.js';
import { availableDialects, type DialectName, type TestDatabase } from './helpers/databases.js';
import { createFamilyDatabase, familySnapshot } from './helpers/family-database.js';
import { flushBilling, openaiClient } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const dialects = await availableDialects();
const cases = RELEASES.flatMap((release) => dialects.map((dialect) => [release.name, dialect, release] as const));

type Page<T> = { items: T[]; total: number };
/** Some lists are pages, some (drawings, tasks) plain lists, as in the family's API. */
const itemsOf = (data: Page<Row> | Row[]) => (Array.isArray(data) ? data : data.items);

const has = (release: Release, table: string, column: string) =>
  release.tables.find((t) => t.name === table)?.columns.some((c) => c.name === column) ?? false;

/** The seeded value of each named field the release's table has (our name on the left, the family's on the right). */
function seeded(release: Release, table: string, row: Row, names: Array<string | [string, string]>): Row {
  const out: Row = {};
  for (const entry of names) {
    const [ours, theirs] = typeof entry === 'string' ? [entry, entry] : entry;
    if (has(release, table, theirs) && row[theirs] !== undefined) out[ours] = row[theirs];
  }
  return out;
}

describe.each(cases)('a %s database on %s, started on in place', (_name, dialect: DialectName, release: Release) => {
  let mock: MockUpstream;
  let database: TestDatabase;
  let server: TestServer;
  let rows: Record<string, Row[]>;
  let before: Awaited<ReturnType<typeof familySnapshot>>;
  let root: ApiClient;
  let alice: ApiClient;
  const softDeletes = has(release, 'users', 'deleted_at');

  beforeAll(async () => {
    mock = await startMockUpstream();
    rows = await seedRows(mock.baseUrl);
    database = await createFamilyDatabase(dialect, release, rows);
    before = await familySnapshot(database, release);
    server = await startTestServer(dialect, {}, database);
    root = new ApiClient(server.baseUrl);
    alice = new ApiClient(server.baseUrl);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await database?.drop();
    await mock?.close();
  });

  it('signs every user in with the old bcrypt password; a soft-deleted user stays out', async () => {
    // Adopted: already set up, so no setup token is made, written or asked for.
    expect(server.ctx.setup).toEqual({ done: true, token: null });
    await root.login('root', PASSWORDS.root);
    await alice.login('alice', PASSWORDS.alice);
    expect(root.userId).toBe(1);
    expect(alice.userId).toBe(2);
    const wrong = await new ApiClient(server.baseUrl).post('/api/user/login', {
      username: 'alice',
      password: 'nope-nope',
    });
    expect(wrong.success).toBe(false);
    const bob = await new ApiClient(server.baseUrl).post('/api/user/login', {
      username: 'bob',
      password: PASSWORDS.bob,
    });
    expect(bob.success).toBe(!softDeletes);
  });

  it('relays with an old sk- key through the old channel, and the key’s remaining quota goes down', async () => {
    mock.enqueue('openai.chat', { kind: 'ok', text: 'still here', usage: { prompt: 100, completion: 20 } });
    const answer = await openaiClient(server, `sk-${ALICE_KEY}`).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello again' }],
    });
    expect(answer.choices[0]!.message.content).toBe('still here');
    // The channel's plaintext key and its model mapping (gpt-4o-mini → gpt-4o) are used as the family used them.
    expect(mock.requests[0]!.headers.authorization).toBe('Bearer sk-upstream-family');
    expect((mock.requests[0]!.body as { model: string }).model).toBe('gpt-4o');
    await flushBilling(server);
    const token = (await server.ctx.repos.tokens.findByKey(ALICE_KEY))!;
    const billed = 1_000_000 - token.remain_quota;
    expect(billed).toBeGreaterThan(0);
    expect(token.used_quota).toBe(2500 + billed);
    const user = (await server.ctx.repos.users.findById(2))!;
    expect(user.quota).toBe(2_000_000 - billed);
    expect(user.used_quota).toBe(5000 + billed);
    expect(user.request_count).toBe(8);
    // The key's model limits carried over: a model outside them is refused.
    await expect(
      openaiClient(server, `sk-${ALICE_KEY}`).chat.completions.create({
        model: 'claude-3-haiku-20240307',
        messages: [{ role: 'user', content: 'x' }],
      }),
    ).rejects.toMatchObject({ status: 403 });
    if (softDeletes) {
      await expect(
        openaiClient(server, `sk-${DELETED_KEY}`).chat.completions.create({
          model: 'gpt-4o',
          messages: [{ role: 'user', content: 'x' }],
        }),
      ).rejects.toMatchObject({ status: 401 });
    }
  });

  it('reads every entity back through the API as the family wrote it', async () => {
    const [rootRow, aliceRow] = rows.users!;
    const userFields: Array<string | [string, string]> = [
      'username',
      'display_name',
      'role',
      'email',
      'group',
      'aff_code',
      'aff_count',
      'aff_quota',
      ['aff_history_quota', 'aff_history'],
      'inviter_id',
      'github_id',
    ];
    const rootUser = (await root.get<Row>('/api/user/1')).data;
    expect(rootUser).toMatchObject({ ...seeded(release, 'users', rootRow!, userFields), quota: 5_000_000 });
    expect(rootUser).toMatchObject({ used_quota: 123_456, request_count: 42 });
    const aliceUser = (await root.get<Row>('/api/user/2')).data;
    expect(aliceUser).toMatchObject(seeded(release, 'users', aliceRow!, userFields));
    if (has(release, 'users', 'setting'))
      expect((await alice.get<Row>('/api/user/self')).data.setting).toBe(aliceRow!.setting);

    const list = itemsOf((await alice.get<Page<Row> | Row[]>('/api/token/?p=0&size=50')).data);
    expect(list.map((token) => token.name).sort()).toEqual(
      softDeletes ? ['alice-main', 'alice-unlimited'] : ['alice-deleted', 'alice-main', 'alice-unlimited'],
    );
    const main = list.find((token) => token.name === 'alice-main')!;
    expect(main).toMatchObject({
      expired_time: -1,
      model_limits: 'gpt-4o,gpt-4o-mini',
      allow_ips: '127.0.0.1',
      group: has(release, 'tokens', 'group') ? 'vip' : '',
    });
    expect(Boolean(main.model_limits_enabled)).toBe(true);
    const unlimited = list.find((token) => token.name === 'alice-unlimited')!;
    expect(unlimited).toMatchObject({ expired_time: 4_102_444_800, remain_quota: 0 });
    expect(Boolean(unlimited.unlimited_quota)).toBe(true);

    const channelRow = rows.channels![0]!;
    const channel = (await root.get<Row>('/api/channel/1')).data;
    expect(channel).toMatchObject(
      seeded(release, 'channels', channelRow, [
        'name',
        'type',
        'models',
        'group',
        'priority',
        'weight',
        'model_mapping',
        'tag',
        'setting',
        'base_url',
        'balance',
        'response_time',
        ['openai_organization', 'open_ai_organization'],
      ]),
    );
    expect(channel.used_quota).toBeGreaterThanOrEqual(999);
    expect((await root.get<Row>('/api/channel/2')).data).toMatchObject({ status: 2, name: 'family-claude' });
    // Abilities (group × model, priority, weight, enabled) as the family rebuilt them, read as 1/0 on every dialect.
    const abilities = await server.ctx.repos.abilities.forChannel(1);
    expect(abilities.map((row) => `${row.group}/${row.model}/${row.enabled}/${row.priority}`)).toEqual([
      'default/gpt-4o/1/10',
      'default/gpt-4o-mini/1/10',
      'vip/gpt-4o/1/10',
      'vip/gpt-4o-mini/1/10',
    ]);
    expect((await server.ctx.repos.abilities.forChannel(2))[0]).toMatchObject({ enabled: 0 });

    const options = (await root.get<Array<{ key: string; value: string }>>('/api/option/')).data;
    expect(options.find((option) => option.key === 'SystemName')?.value).toBe('Family Gateway');
    expect(options.find((option) => option.key === 'QuotaForNewUser')?.value).toBe('1234');

    const logs = (await root.get<Page<Row>>('/api/log/?p=0&page_size=50&start_timestamp=0')).data.items;
    for (const seededLog of rows.logs!) {
      const found = logs.find((log) => log.id === seededLog.id);
      expect(found).toMatchObject(
        seeded(release, 'logs', seededLog, [
          'content',
          'username',
          'model_name',
          'quota',
          'type',
          'token_name',
          'prompt_tokens',
        ]),
      );
    }

    const redemptions = (await root.get<Page<Row>>('/api/redemption/?p=0')).data.items;
    expect(redemptions.map((row) => row.id).sort()).toEqual(softDeletes ? [1, 2] : [1, 2, 3]);
    expect(redemptions.find((row) => row.id === 2)).toMatchObject(
      seeded(release, 'redemptions', rows.redemptions![1]!, [
        'name',
        'quota',
        'status',
        'used_user_id',
        'redeemed_time',
      ]),
    );

    if (has(release, 'top_ups', 'trade_no')) {
      const topUps = (await alice.get<Page<Row>>('/api/user/topup/self?p=0')).data.items;
      expect(topUps[0]).toMatchObject({ trade_no: 'USR2NOfamily1', amount: 10, money: 7.3, status: 'success' });
      const drawings = itemsOf((await root.get<Page<Row> | Row[]>('/api/mj/?p=0')).data);
      expect(drawings[0]).toMatchObject({ mj_id: 'mj-family-1', prompt: 'a cat', status: 'SUCCESS', quota: 5000 });
      const tasks = itemsOf((await root.get<Page<Row> | Row[]>('/api/task/?p=0')).data);
      expect(tasks[0]).toMatchObject({ task_id: 'suno-family-1', platform: 'suno', status: 'SUCCESS', quota: 2000 });
      expect(JSON.stringify(tasks[0]!.data)).toContain('clip-1');
      const quotaData = (await root.get<Row[]>('/api/data/?start_timestamp=1&end_timestamp=2000000000')).data;
      const bucket = rows.quota_data![0]!;
      const found = quotaData.find((row) => row.model_name === 'gpt-4o' && row.created_at === bucket.created_at);
      expect(found).toMatchObject({ quota: 3750, token_used: 1500, count: 1, username: 'alice' });
    }
  });

  it('leaves every column and row of the family in place, so its own server can take the database back', async () => {
    await flushBilling(server);
    const after = await familySnapshot(database, release);
    for (const table of release.tables) {
      expect(after.columns[table.name], table.name).toEqual(expect.arrayContaining(before.columns[table.name]!));
    }
    // Rows the relay touched changed only in their counters; everything else is as the family wrote it.
    const counters: Record<string, string[]> = {
      users: ['quota', 'used_quota', 'request_count'],
      tokens: ['remain_quota', 'used_quota', 'accessed_time'],
      channels: ['used_quota'],
    };
    for (const table of release.tables) {
      const ignored = counters[table.name] ?? [];
      const strip = (row: Row) => Object.fromEntries(Object.entries(row).filter(([key]) => !ignored.includes(key)));
      const seededRows = before.rows[table.name]!;
      expect(after.rows[table.name]!.slice(0, seededRows.length).map(strip), table.name).toEqual(seededRows.map(strip));
    }
  });

  it('deletes a key the way the family does: a soft-delete time its own server reads back', async () => {
    const deleted = await alice.delete('/api/token/2');
    expect(deleted.success).toBe(true);
    const left = itemsOf((await alice.get<Page<Row> | Row[]>('/api/token/?p=0&size=50')).data);
    expect(left.map((token) => token.name)).not.toContain('alice-unlimited');
    const after = await familySnapshot(database, release);
    const row = after.rows.tokens!.find((token) => token.id === 2);
    if (has(release, 'tokens', 'deleted_at')) {
      // Read through the same translation as the server; stored as the dialect's datetime (checked by the type).
      expect(Math.abs(Number(row!.deleted_at) - Date.now() / 1000)).toBeLessThan(120);
      expect(after.columns.tokens!.find((entry) => entry.startsWith('deleted_at:'))).toMatch(/date|time/);
    }
  });
  it.runIf(release.tables.some((table) => table.name === 'checkins'))(
    'keeps the family’s check-ins, reads its check-in options and adds today’s check-in to the same table',
    async () => {
      for (const [key, value] of [
        ['checkin_setting.enabled', 'true'],
        ['checkin_setting.min_quota', '300'],
        ['checkin_setting.max_quota', '300'],
      ]) {
        expect((await root.put('/api/option/', { key, value })).success).toBe(true);
      }
      const january = await alice.get<CheckinStatusView>(
        `/api/user/checkin?month=${FAMILY_CHECKIN_DAYS[0].slice(0, 7)}`,
      );
      expect(january.data.stats).toMatchObject({
        total_quota: 4000,
        total_checkins: 2,
        checkin_count: 2,
        checked_in_today: false,
        records: [
          { checkin_date: FAMILY_CHECKIN_DAYS[1], quota_awarded: 2500 },
          { checkin_date: FAMILY_CHECKIN_DAYS[0], quota_awarded: 1500 },
        ],
      });
      const quotaBefore = (await alice.get<{ quota: number }>('/api/user/self')).data.quota;
      const answers = await Promise.all([alice.post('/api/user/checkin'), alice.post('/api/user/checkin')]);
      expect(answers.filter((answer) => answer.success)).toHaveLength(1);
      expect((await alice.get<{ quota: number }>('/api/user/self')).data.quota).toBe(quotaBefore + 300);
      await flushBilling(server);
      // The row is the family's: its own server reads today's check-in from the same table and index.
      const after = await familySnapshot(database, release);
      expect(after.rows.checkins!.slice(2)).toEqual([
        expect.objectContaining({ id: 3, user_id: 2, checkin_date: localDate(new Date()), quota_awarded: 300 }),
      ]);
    },
  );
  it.runIf(release.tables.some((table) => table.name === 'passkey_credentials'))(
    'keeps the family’s passkeys: Alice signs in with hers, and the family reads the new counter',
    async () => {
      for (const [key, value] of [
        ['passkey.enabled', 'true'],
        ['passkey.rp_id', 'localhost'],
        ['passkey.origins', FAMILY_PASSKEY_ORIGIN],
        ['passkey.allow_insecure_origin', 'true'],
      ]) {
        expect((await root.put('/api/option/', { key, value })).success).toBe(true);
      }
      const visitor = new ApiClient(server.baseUrl);
      // biome-ignore lint/suspicious/noExplicitAny: WebAuthn request options JSON
      const begin = await visitor.post<{ options: { publicKey: any } }>('/api/user/passkey/login/begin');
      const signIn = await visitor.post<{ username: string }>(
        '/api/user/passkey/login/finish',
        FAMILY_PASSKEY_DEVICE.get(begin.data.options.publicKey),
      );
      expect(signIn).toMatchObject({ success: true, data: { username: 'alice' } });
      visitor.userId = 2;
      const listed = await visitor.get<PasskeyStatusView>('/api/user/passkey');
      expect(listed.data.passkeys).toEqual([expect.objectContaining({ id: 1, name: '', attachment: 'platform' })]);
      expect((await visitor.put('/api/user/passkey/1', { name: 'Family key' })).success).toBe(true);
      const after = await familySnapshot(database, release);
      // The device's counter moved on (it is shared by every dialect's run, so only "above 0" is certain).
      expect(after.rows.passkey_credentials).toEqual([expect.objectContaining({ id: 1, user_id: 2 })]);
      expect(Number(after.rows.passkey_credentials![0]!.sign_count)).toBeGreaterThan(0);
      expect(after.rows.passkey_credentials![0]!.last_used_at).not.toBeNull();
    },
  );
});

/**
 * A family database of `release` seeded with the family's rows, and this server started on it in place (with a mock
 * upstream for its channels), for one describe block; the fields are filled by its beforeAll.
 */
function adoptedFamily(dialect: DialectName, release: Release) {
  const made = {} as { mock: MockUpstream; database: TestDatabase; server: TestServer };
  beforeAll(async () => {
    made.mock = await startMockUpstream();
    made.database = await createFamilyDatabase(dialect, release, await seedRows(made.mock.baseUrl));
    made.server = await startTestServer(dialect, {}, made.database);
  }, 60_000);
  afterAll(async () => {
    await made.server?.close();
    await made.database?.drop();
    await made.mock?.close();
  });
  return made;
}

describe.each(dialects)('a family database with subscription plans, on %s', (dialect) => {
  const release = NEW_API_2026_SUBSCRIPTIONS;
  const family = adoptedFamily(dialect, release);

  it('keeps the family’s plans and Alice’s subscription, spends it, and writes rows the family reads', async () => {
    const root = new ApiClient(family.server.baseUrl);
    await root.login('root', PASSWORDS.root);
    const alice = new ApiClient(family.server.baseUrl);
    await alice.login('alice', PASSWORDS.alice);
    const plans = await alice.get<Array<{ plan: Row }>>('/api/subscription/plans');
    expect(plans.data).toEqual([
      {
        plan: expect.objectContaining({
          id: 1,
          title: 'Family Pro',
          price_amount: 9.9,
          enabled: true,
          total_amount: 50_000,
        }),
      },
    ]);
    const self = await alice.get<{ subscriptions: Array<{ subscription: Row }> }>('/api/subscription/self');
    expect(self.data.subscriptions).toEqual([
      expect.objectContaining({
        subscription: expect.objectContaining({ id: 1, amount_used: 20_000, status: 'active' }),
      }),
    ]);
    // Alice's old key: the call is paid from the family's subscription first (her default preference).
    family.mock.enqueue('openai.chat', { kind: 'ok', text: 'on the plan', usage: { prompt: 100, completion: 20 } });
    await openaiClient(family.server, `sk-${ALICE_KEY}`).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello' }],
    });
    await flushBilling(family.server);
    const spent = (await familySnapshot(family.database, release)).rows.user_subscriptions![0]!;
    expect(Number(spent.amount_used)).toBeGreaterThan(20_000);
    expect((await family.server.ctx.repos.users.findById(2))!.quota).toBe(2_000_000);
    // A new plan and an admin grant land in the family's tables.
    const created = await root.post<Row>('/api/subscription/admin/plans', {
      plan: { title: 'Ours', price_amount: 1, total_amount: 1000, quota_reset_period: 'weekly' },
    });
    expect(created.success, created.message).toBe(true);
    expect(
      (await root.post('/api/subscription/admin/users/2/subscriptions', { plan_id: created.data.id })).success,
    ).toBe(true);
    const after = await familySnapshot(family.database, release);
    expect(after.rows.subscription_plans!.map((row) => row.title)).toEqual(['Family Pro', 'Ours']);
    expect(after.rows.user_subscriptions).toHaveLength(2);
    expect(after.rows.user_subscriptions![1]).toMatchObject({ user_id: 2, amount_total: 1000, source: 'admin' });
  });
});

describe.each(dialects)('a family database with the model catalogue, on %s', (dialect) => {
  const release = NEW_API_2026_CATALOGUE;
  const family = adoptedFamily(dialect, release);

  it('reads the family’s live vendors and models, leaves its deleted ones out, and writes rows it reads back', async () => {
    const root = new ApiClient(family.server.baseUrl);
    await root.login('root', PASSWORDS.root);
    const vendors = await root.get<Page<Row>>('/api/vendors/');
    expect(vendors.data.items).toEqual([
      expect.objectContaining({ id: 1, name: 'OpenAI', icon: 'OpenAI', model_count: 1 }),
    ]);
    const models = await root.get<Page<Row>>('/api/models/');
    expect(models.data.items).toEqual([
      expect.objectContaining({ model_name: 'gpt-4o-mini', vendor_id: 1, context_length: 128000, sync_official: 0 }),
    ]);
    // gpt-4o's only catalogue row is soft-deleted: it is missing, and can be added again under the same name.
    expect((await root.get<string[]>('/api/models/missing')).data).toContain('gpt-4o');
    expect((await root.post('/api/models/missing', { model_names: ['gpt-4o'] })).success).toBe(true);
    const pricing = (await (await fetch(`${family.server.baseUrl}/api/pricing`)).json()) as Row;
    expect(pricing.vendors).toEqual([{ id: 1, name: 'OpenAI', description: 'Family vendor', icon: 'OpenAI' }]);
    const after = await familySnapshot(family.database, release);
    expect(after.rows.models!.map((row) => row.model_name)).toEqual(['gpt-4o-mini', 'gpt-4o', 'gpt-4o']);
  });
});

describe.each(dialects)('a family database of a shape this server does not know, on %s', (dialect) => {
  // A newer release with a NOT NULL column without a default in tokens: our INSERTs would fail on it.
  const newer: Release = {
    ...NEW_API_0_6_3,
    name: 'new-api (newer)',
    tables: NEW_API_0_6_3.tables.map(
      (table): Table =>
        table.name === 'tokens'
          ? { ...table, columns: [...table.columns, { name: 'tenant_id', kind: 'int', notNull: true }] }
          : table,
    ),
  };
  let database: TestDatabase;
  afterAll(async () => database?.drop());

  it('is refused at start with a message naming what was found, and nothing is changed', async () => {
    const rows = await seedRows('http://127.0.0.1:9');
    rows.tokens = rows.tokens!.map((token) => ({ ...token, tenant_id: 1 }));
    database = await createFamilyDatabase(dialect, newer, rows);
    const before = await familySnapshot(database, newer);
    await expect(startTestServer(dialect, {}, database)).rejects.toThrow(
      /new-api tables .*tokens\.tenant_id is NOT NULL without a default \(a newer release/,
    );
    const after = await familySnapshot(database, newer);
    expect(after).toEqual(before);
  });
});

describe.each(dialects)('a family database whose checkins table is not the family’s, on %s', (dialect) => {
  // Some other checkins table: without the reward column our check-ins could not be written into it.
  const foreign: Release = {
    ...NEW_API_CHECKIN,
    name: 'new-api (foreign checkins)',
    tables: NEW_API_CHECKIN.tables.map(
      (table): Table =>
        table.name === 'checkins'
          ? { ...table, columns: table.columns.filter((column) => column.name !== 'quota_awarded') }
          : table,
    ),
  };
  let database: TestDatabase;
  afterAll(async () => database?.drop());

  it('is refused at start naming the column, and nothing is changed', async () => {
    const rows = await seedRows('http://127.0.0.1:9');
    rows.checkins = rows.checkins!.map(({ quota_awarded: _quota, ...row }) => row);
    database = await createFamilyDatabase(dialect, foreign, rows);
    const before = await familySnapshot(database, foreign);
    await expect(startTestServer(dialect, {}, database)).rejects.toThrow(/checkins\.quota_awarded is missing/);
    expect(await familySnapshot(database, foreign)).toEqual(before);
  });
});

describe.each(dialects)('a family database older than this server understands, on %s', (dialect) => {
  // An older shape: tokens without the user they belong to, which this server needs and cannot make up.
  const older: Release = {
    ...ONE_API_0_6_10,
    name: 'one-api (older)',
    tables: ONE_API_0_6_10.tables.map(
      (table): Table =>
        table.name === 'tokens'
          ? { ...table, columns: table.columns.filter((column) => column.name !== 'user_id') }
          : table,
    ),
  };
  let database: TestDatabase;
  afterAll(async () => database?.drop());

  it('is refused at start naming the missing column, and nothing is changed', async () => {
    const rows = await seedRows('http://127.0.0.1:9');
    rows.tokens = rows.tokens!.map(({ user_id: _user, ...token }) => token);
    database = await createFamilyDatabase(dialect, older, rows);
    const before = await familySnapshot(database, older);
    await expect(startTestServer(dialect, {}, database)).rejects.toThrow(
      /tokens\.user_id is missing \(an older release than this server understands\)/,
    );
    expect(await familySnapshot(database, older)).toEqual(before);
  });
});
