import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, ROLE_REFUSED, refusal, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const dialects = await availableDialects();

interface LogPage {
  items: Array<Record<string, unknown>>;
  total: number;
}

describe.each(dialects)('usage log API on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;
  let alice: ApiClient;
  const now = Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
    alice = await signedInUser(server.baseUrl, server.ctx.repos, 'alice');
    const base = {
      type: 2,
      quota: 100,
      prompt_tokens: 10,
      completion_tokens: 5,
      channel_id: 7,
      channel_name: 'secret-upstream',
    };
    await server.ctx.repos.logs.insertMany([
      {
        ...base,
        user_id: alice.userId!,
        username: 'alice',
        created_at: now - 10,
        model_name: 'gpt-4o',
        token_name: 'a1',
        other: '{"admin_info":{"use_channel":["7"]},"model_ratio":1}',
      },
      {
        ...base,
        user_id: alice.userId!,
        username: 'alice',
        created_at: now - 3600,
        model_name: 'gpt-4o-mini',
        token_name: 'a2',
      },
      {
        ...base,
        user_id: root.userId!,
        username: 'root',
        created_at: now - 5,
        model_name: 'gpt-4o',
        token_name: 'r1',
        quota: 50,
      },
      {
        ...base,
        user_id: root.userId!,
        username: 'root',
        created_at: now - 86400 * 40,
        model_name: 'old',
        type: 1,
        quota: 0,
      },
    ]);
  });
  afterAll(async () => server?.close());

  it('shows a user only their own logs, without channel details', async () => {
    const page = await alice.get<LogPage>('/api/log/self/?p=1&page_size=10');
    expect(page.data.total).toBe(2);
    expect(page.data.items.every((row) => row.username === 'alice')).toBe(true);
    expect(JSON.stringify(page.data.items)).not.toContain('secret-upstream');
    expect(JSON.stringify(page.data.items)).not.toContain('admin_info');
    // Without the trailing slash too (family clients call both).
    expect((await alice.get<LogPage>('/api/log/self')).data.total).toBe(2);
    // A user cannot widen the filter to someone else.
    expect((await alice.get<LogPage>('/api/log/self/?username=root&channel=7')).data.total).toBe(2);
  });

  it('filters by type, model, token, time range; admins also by user and channel', async () => {
    expect((await alice.get<LogPage>('/api/log/self/?model_name=gpt-4o')).data.total).toBe(1);
    expect((await alice.get<LogPage>(`/api/log/self/?start_timestamp=${now - 60}`)).data.total).toBe(1);
    expect((await alice.get<LogPage>('/api/log/self/?token_name=a2')).data.total).toBe(1);
    expect((await root.get<LogPage>('/api/log/?type=2')).data.total).toBe(3);
    expect((await root.get<LogPage>('/api/log/?username=alice')).data.total).toBe(2);
    expect((await root.get<LogPage>('/api/log/?channel=7&model_name=gpt-4o')).data.total).toBe(2);
    const adminRow = (await root.get<LogPage>('/api/log/?username=alice&model_name=gpt-4o')).data.items[0]!;
    expect(adminRow).toMatchObject({ channel: 7, channel_name: 'secret-upstream' });
  });

  it('sums quota and counts the last minute for rpm and tpm', async () => {
    expect((await root.get('/api/log/stat')).data).toEqual({ quota: 250, rpm: 2, tpm: 30 });
    expect((await alice.get('/api/log/self/stat')).data).toEqual({ quota: 200, rpm: 1, tpm: 15 });
  });

  it('lets only admins read all logs and clear old ones', async () => {
    expect(refusal(await alice.get('/api/log/'))).toEqual(ROLE_REFUSED);
    expect(refusal(await alice.delete(`/api/log/?target_timestamp=${now}`))).toEqual(ROLE_REFUSED);
    expect(await root.delete('/api/log/')).toMatchObject({ success: false, message: '请选择要清除的日志截止时间' });
    const cleared = await root.delete<number>(`/api/log/?target_timestamp=${now - 86400 * 30}`);
    expect(cleared.data).toBe(1);
    expect((await root.get<LogPage>('/api/log/')).data.total).toBe(3);
  });
});

describe('admin user detail', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => server?.close());

  it('shows one user to admins only, without secrets', async () => {
    const root = await setupAndLogin(server.baseUrl);
    const bob = await signedInUser(server.baseUrl, server.ctx.repos, 'bob');
    await server.ctx.repos.users.update(bob.userId!, { access_token: 'x'.repeat(32) });
    const detail = await root.get<Record<string, unknown>>(`/api/user/${bob.userId}`);
    expect(detail.data).toMatchObject({ username: 'bob', quota: 0 });
    expect(detail.data).not.toHaveProperty('password');
    expect(detail.data).not.toHaveProperty('access_token');
    expect(refusal(await bob.get(`/api/user/${root.userId}`))).toEqual(ROLE_REFUSED);
    expect((await root.get('/api/user/9999')).message).toBe('用户不存在');
  });
});

describe('dashboard data (quota_data)', () => {
  it('aggregates consumption per user, model and hour; admins see all, users their own', async () => {
    const server = await startTestServer('sqlite');
    try {
      const root = await setupAndLogin(server.baseUrl);
      const alice = await signedInUser(server.baseUrl, server.ctx.repos, 'alice');
      const at = Date.UTC(2026, 0, 1, 10, 15);
      server.ctx.quotaExporter.record(alice.userId!, 'alice', 'gpt-4o', 100, 30, at);
      server.ctx.quotaExporter.record(alice.userId!, 'alice', 'gpt-4o', 50, 20, at + 60_000);
      server.ctx.quotaExporter.record(root.userId!, 'root', 'gpt-4o', 7, 1, at);
      const hour = Math.floor(at / 3_600_000) * 3600;
      const window = `start_timestamp=${hour - 10}&end_timestamp=${hour + 10}`;
      const all = await root.get<Array<Record<string, unknown>>>(`/api/data/?${window}`);
      expect(all.data).toHaveLength(2);
      expect(all.data.find((row) => row.username === 'alice')).toMatchObject({
        count: 2,
        quota: 150,
        token_used: 50,
        created_at: hour,
      });
      expect((await root.get<unknown[]>(`/api/data/?${window}&username=root`)).data).toHaveLength(1);
      const own = await alice.get<Array<Record<string, unknown>>>(`/api/data/self?${window}`);
      expect(own.data).toHaveLength(1);
      expect(refusal(await alice.get('/api/data/'))).toEqual(ROLE_REFUSED);
      server.ctx.quotaExporter.record(alice.userId!, 'alice', 'gpt-4o', 1, 1, at);
      await server.ctx.quotaExporter.flush();
      expect((await alice.get<Array<{ count: number }>>(`/api/data/self?${window}`)).data[0]!.count).toBe(3);
    } finally {
      await server.close();
    }
  });
});
