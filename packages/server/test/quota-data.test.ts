import type { QuotaDataView } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuotaExporter } from '../src/billing/quota-exporter.js';
import { type ApiClient, ROLE_REFUSED, refusal, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { addChannel, addToken, flushBilling, openaiClient } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { gate } from './helpers/wait.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const dialects = await availableDialects();

// gpt-4o: model ratio 1.25, completion ratio 4 (defaults). 1000 prompt + 500 completion tokens:
// (1000 + 500 × 4) × 1.25 = 3750 quota and 1500 tokens per call.
const USAGE = { prompt: 1000, completion: 500 };

// The fields these tests read of the answer the console reads.
type Row = Omit<QuotaDataView, 'id'>;

/** Rows summed per model: a run that crosses an hour boundary splits a model over two buckets. */
function perModel(rows: Row[]) {
  const sums = new Map<string, { count: number; quota: number; token_used: number }>();
  for (const row of rows) {
    const sum = sums.get(row.model_name) ?? { count: 0, quota: 0, token_used: 0 };
    sum.count += Number(row.count);
    sum.quota += Number(row.quota);
    sum.token_used += Number(row.token_used);
    sums.set(row.model_name, sum);
  }
  return Object.fromEntries(sums);
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition not reached within 5 s');
}

describe.each(dialects)('dashboard data (quota_data export) on %s', (dialect) => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;
  const window = () =>
    `start_timestamp=${Math.floor(Date.now() / 1000) - 7200}&end_timestamp=${Math.floor(Date.now() / 1000) + 60}`;
  const chat = (target: TestServer, model: string) =>
    openaiClient(target, key).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
  const rowsInDatabase = async () =>
    (await server.ctx.db.kysely.selectFrom('quota_data').selectAll().execute()) as unknown as Row[];

  beforeAll(async () => {
    mock = await startMockUpstream();
    mock.setDefault('openai.chat', { kind: 'ok', text: 'ok', usage: USAGE });
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: 'sk-upstream', base_url: mock.baseUrl, models: 'gpt-4o,gpt-4o-mini' });
    key = await addToken(root, { unlimited_quota: true });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  it('aggregates relay calls from two nodes per user, model and hour; a stopping node flushes what it holds', async () => {
    const second = await startTestServer(dialect, {}, server.database);
    await chat(server, 'gpt-4o');
    await chat(server, 'gpt-4o');
    await chat(second, 'gpt-4o');
    await chat(server, 'gpt-4o-mini');
    // The second node is never asked for data: only its shutdown can write what it aggregated.
    await second.close();
    const rows = await rowsInDatabase();
    expect(perModel(rows.filter((row) => row.model_name === 'gpt-4o'))).toEqual({
      'gpt-4o': { count: 1, quota: 3750, token_used: 1500 },
    });

    const data = await root.get<Row[]>(`/api/data/?${window()}`);
    expect(data.success).toBe(true);
    const sums = perModel(data.data);
    expect(sums['gpt-4o']).toEqual({ count: 3, quota: 3 * 3750, token_used: 3 * 1500 });
    expect(sums['gpt-4o-mini']).toMatchObject({ count: 1, token_used: 1500 });
    // The dashboard's quota is the billed quota: the same as the consume log says.
    await flushBilling(server);
    const logs = await server.ctx.repos.logs.list({ type: 2, modelName: 'gpt-4o-mini' }, 0, 10);
    expect(sums['gpt-4o-mini']!.quota).toBe(logs.items[0]!.quota);
    for (const row of data.data) {
      expect(row).toMatchObject({ user_id: root.userId, username: 'root' });
      expect(row.created_at % 3600).toBe(0);
    }
    // Both nodes added to the same (user, model, hour) rows instead of writing their own.
    expect(new Set(data.data.map((row) => `${row.model_name}@${row.created_at}`)).size).toBe(data.data.length);
  });

  it('shows users only their own rows and admins anyone’s by username; an unreadable time is no bound, an inverted range is refused', async () => {
    const alice = await signedInUser(server.baseUrl, server.ctx.repos, 'alice');
    const hour = Math.floor(Date.now() / 3_600_000) * 3600;
    server.ctx.quotaExporter.record(alice.userId!, 'alice', 'claude-3-haiku', 10, 5);
    const own = await alice.get<Row[]>(`/api/data/self?${window()}`);
    expect(own.data).toEqual([expect.objectContaining({ username: 'alice', model_name: 'claude-3-haiku', count: 1 })]);
    const byName = await root.get<Row[]>(`/api/data/?${window()}&username=alice`);
    expect(byName.data.map((row) => row.username)).toEqual(['alice']);
    expect((await root.get<Row[]>(`/api/data/?${window()}`)).data.length).toBeGreaterThan(1);
    expect(refusal(await alice.get('/api/data/'))).toEqual(ROLE_REFUSED);
    expect((await fetch(`${server.baseUrl}/api/data/self`)).status).toBe(401);
    // Outside the range: nothing.
    expect((await alice.get<Row[]>(`/api/data/self?start_timestamp=1&end_timestamp=${hour - 1}`)).data).toEqual([]);

    // As in the family, a time it cannot read is no bound: the default range (the last seven days) applies.
    const recent = (await alice.get<Row[]>('/api/data/self')).data;
    for (const query of ['start_timestamp=abc', 'end_timestamp=1.5', 'start_timestamp=-5', 'end_timestamp=1e9']) {
      expect((await alice.get<Row[]>(`/api/data/self?${query}`)).data, query).toEqual(recent);
    }
    expect(await root.get('/api/data/?start_timestamp=200&end_timestamp=100')).toMatchObject({
      success: false,
      message: '开始时间不能晚于结束时间',
    });
    expect(
      await root.get('/api/data/?start_timestamp=200&end_timestamp=100', { 'accept-language': 'en' }),
    ).toMatchObject({ success: false, message: 'The start time cannot be after the end time' });
  });

  it('records nothing while data export is off', async () => {
    expect((await root.put('/api/option/', { key: 'DataExportEnabled', value: 'false' })).success).toBe(true);
    const before = perModel(await rowsInDatabase())['gpt-4o']!.count;
    await chat(server, 'gpt-4o');
    await server.ctx.quotaExporter.flush();
    expect(perModel(await rowsInDatabase())['gpt-4o']!.count).toBe(before);
    expect((await root.put('/api/option/', { key: 'DataExportEnabled', value: 'true' })).success).toBe(true);
  });

  it('writes every DataExportInterval minutes (read at each tick), not before, and on stop', async () => {
    expect((await root.put('/api/option/', { key: 'DataExportInterval', value: '2' })).success).toBe(true);
    let clock = Date.UTC(2026, 0, 1, 10, 0);
    const exporter = new QuotaExporter(server.ctx.repos.quotaData, server.ctx.options, undefined, () => clock);
    exporter.start(5);
    const bucket = Date.UTC(2026, 0, 1, 10) / 1000;
    const stored = () => server.ctx.repos.quotaData.range(bucket, bucket, 4242);
    try {
      exporter.record(4242, 'ticker', 'gpt-4o', 100, 10);
      exporter.record(4242, 'ticker', 'gpt-4o', 50, 5);
      clock += 119_000; // 1 min 59 s: not yet
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(await stored()).toEqual([]);
      clock += 1_000; // 2 minutes since the last write
      const rows = await until(stored, (found) => found.length === 1);
      expect(rows[0]).toMatchObject({ count: 2, quota: 150, token_used: 15, created_at: bucket });
      exporter.record(4242, 'ticker', 'gpt-4o', 1, 1);
    } finally {
      await exporter.stop();
    }
    expect((await stored())[0]).toMatchObject({ count: 3, quota: 151, token_used: 16 });
  });

  it('a flush asked for during a write also writes what was recorded meanwhile: a shutdown loses nothing', async () => {
    const clock = Date.UTC(2026, 0, 2, 10, 30);
    const bucket = Date.UTC(2026, 0, 2, 10) / 1000;
    const release = gate();
    const real = server.ctx.repos.quotaData;
    // The real repository, with its first write held open until the second flush has been asked for.
    const slow: typeof real = { ...real, increment: async (row) => release.held.then(() => real.increment(row)) };
    const exporter = new QuotaExporter(slow, server.ctx.options, undefined, () => clock);
    exporter.record(4343, 'slow', 'gpt-4o', 10, 1);
    const first = exporter.flush();
    exporter.record(4343, 'slow', 'gpt-4o', 5, 1);
    const stopped = exporter.stop();
    release.open();
    await Promise.all([first, stopped]);
    expect(await real.range(bucket, bucket, 4343)).toEqual([
      expect.objectContaining({ count: 2, quota: 15, token_used: 2 }),
    ]);
  });
});
