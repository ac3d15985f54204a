import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { addChannel, addToken, flushBilling, openaiClient, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const dialects = await availableDialects();

type Row = Record<string, unknown>;

/** Asserts the JSON type of each named field of a view row. */
function expectTypes(row: Row, types: Record<string, 'boolean' | 'number' | 'string'>, view: string): void {
  for (const [field, type] of Object.entries(types)) expect(typeof row[field], `${view}.${field}`).toBe(type);
}

// Flags the family sends as JSON booleans and counts it sends as numbers must arrive so on every engine (MySQL
// returns tinyint, PostgreSQL bigint as text): scripts compare them with === true and add them up.
describe.each(dialects)('field types on the wire on %s', (dialect) => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: 'sk-w', base_url: mock.baseUrl, models: 'gpt-4o-mini' });
    await priceModels(server, root, { 'gpt-4o-mini': 1 });
    const key = await addToken(root, { remain_quota: 500_000, unlimited_quota: false });
    const client = openaiClient(server, key);
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    for await (const _ of stream) {
      // drain
    }
    await flushBilling(server);
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  it('usage logs: is_stream a boolean, ids, times, tokens and quota numbers', async () => {
    for (const path of ['/api/log/self?p=1&page_size=10&type=2', '/api/log/?p=1&page_size=10&type=2']) {
      const rows = (await root.get<{ items: Row[] }>(path)).data.items;
      expect(rows.map((row) => row.is_stream).sort()).toEqual([false, true]);
      for (const row of rows) {
        expectTypes(
          row,
          {
            is_stream: 'boolean',
            id: 'number',
            created_at: 'number',
            quota: 'number',
            prompt_tokens: 'number',
            completion_tokens: 'number',
            use_time: 'number',
            user_id: 'number',
            token_id: 'number',
          },
          path,
        );
      }
    }
  });

  it('tokens: unlimited_quota and model_limits_enabled booleans, quotas and times numbers', async () => {
    const listed = await root.get<Row[] | { items: Row[] }>('/api/token/?p=1&size=10');
    const rows = Array.isArray(listed.data) ? listed.data : listed.data.items;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expectTypes(
        row,
        {
          unlimited_quota: 'boolean',
          model_limits_enabled: 'boolean',
          remain_quota: 'number',
          used_quota: 'number',
          created_time: 'number',
          expired_time: 'number',
          status: 'number',
          id: 'number',
        },
        'token',
      );
    }
  });

  it('users, channels and statistics: counts and quotas are numbers', async () => {
    const users = await root.get<Row[] | { items: Row[] }>('/api/user/?p=1&page_size=10');
    for (const row of Array.isArray(users.data) ? users.data : users.data.items) {
      expectTypes(
        row,
        {
          id: 'number',
          quota: 'number',
          used_quota: 'number',
          request_count: 'number',
          role: 'number',
          status: 'number',
        },
        'user',
      );
    }
    const channels = await root.get<Row[] | { items: Row[] }>('/api/channel/?p=1&page_size=10');
    for (const row of Array.isArray(channels.data) ? channels.data : channels.data.items) {
      expectTypes(
        row,
        {
          id: 'number',
          type: 'number',
          used_quota: 'number',
          balance: 'number',
          priority: 'number',
          weight: 'number',
          status: 'number',
        },
        'channel',
      );
    }
    const stat = await root.get<Row>('/api/log/stat?type=2');
    expectTypes(stat.data, { quota: 'number', rpm: 'number', tpm: 'number' }, 'stat');
    const self = await root.get<Row>('/api/user/self');
    expectTypes(
      self.data,
      { quota: 'number', used_quota: 'number', request_count: 'number', aff_count: 'number' },
      'self',
    );
  });
});
