import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROLE_REFUSED, refusal, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { addChannel, addToken, apiError, openaiClient } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const dialects = await availableDialects();

interface UserPage {
  items: Array<{
    id: number;
    username: string;
    role: number;
    status: number;
    quota: number;
    group: string;
    DeletedAt: number | null;
  }>;
  total: number;
}

describe.each(dialects)('user administration on %s', (dialect) => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: 'k', base_url: mock.baseUrl, models: 'gpt-4o-mini' });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  const find = async (username: string) =>
    (await root.get<UserPage>(`/api/user/search?keyword=${username}`)).data.items.find(
      (user) => user.username === username,
    )!;

  it('adds users with the spec’s validation, lists and searches them without secrets', async () => {
    const cases: Array<[object, string]> = [
      [{}, '用户名和密码不能为空！'],
      [{ username: 'x', password: '' }, '用户名和密码不能为空！'],
      [{ username: 'x', password: 'short' }, '密码长度不得小于 8 位！'],
      [{ username: 'root', password: 'longenough' }, '用户名已存在'],
    ];
    for (const [body, message] of cases)
      expect(await root.post('/api/user/', body)).toMatchObject({ success: false, message });
    expect(
      await root.post('/api/user/', { username: 'carol', password: 'carol-pass', display_name: 'Carol' }),
    ).toMatchObject({
      success: true,
      message: '用户账户创建成功！',
    });
    const page = await root.get<UserPage>('/api/user/?p=1&page_size=10');
    expect(page.data.total).toBe(2);
    expect(JSON.stringify(page.data)).not.toMatch(/"password"|"access_token"/);
    expect((await root.get<UserPage>('/api/user/search?keyword=car')).data.total).toBe(1);
    expect((await root.get<UserPage>('/api/user/search?group=vip')).data.total).toBe(0);
  });

  it('edits group, quota (an integer) and password; the new password ends old sessions', async () => {
    const carol = new ApiClient(server.baseUrl);
    await carol.login('carol', 'carol-pass');
    const target = await find('carol');
    expect((await root.put('/api/user/', { id: target.id, username: 'carol', quota: 1.5, group: 'vip' })).message).toBe(
      '额度必须是整数',
    );
    const saved = await root.put('/api/user/', {
      id: target.id,
      username: 'carol',
      display_name: 'C',
      quota: 2_000_000,
      group: 'vip',
      password: 'new-password',
    });
    expect(saved).toMatchObject({ success: true, message: '用户信息更新成功！' });
    expect(await find('carol')).toMatchObject({ quota: 2_000_000, group: 'vip' });
    expect((await carol.get('/api/user/self')).status).toBe(401);
    await carol.login('carol', 'new-password');
    const logs = await server.ctx.repos.logs.list({ type: 3 }, 0, 10);
    expect(logs.items[0]!.content).toContain('$4.00');
  });

  it('adds (or removes) quota atomically, mirrored in the relay ledger', async () => {
    const target = await find('carol');
    await server.ctx.ledger.prepare(target.id, null);
    const added = await root.post<{ quota: number }>('/api/user/manage', {
      id: target.id,
      action: 'add_quota',
      value: -500_000,
    });
    expect(added.data.quota).toBe(1_500_000);
    expect(server.ctx.ledger.available('user', target.id)).toBe(1_500_000);
    const log = (await server.ctx.repos.logs.list({ userId: target.id, type: 3 }, 0, 1)).items[0]!;
    expect(log).toMatchObject({ username: 'carol', content: '管理员为用户增加额度 -$1.00' });
    expect(JSON.parse(log.other ?? '')).toMatchObject({
      content_key: 'admin_add_quota',
      content_params: { quota: -500_000 },
    });
  });

  it('enforces who may act on whom', async () => {
    const carol = await find('carol');
    expect((await root.post<{ role: number }>('/api/user/manage', { id: carol.id, action: 'promote' })).data.role).toBe(
      10,
    );
    const admin = new ApiClient(server.baseUrl);
    await admin.login('carol', 'new-password');
    const dave = await signedInUser(server.baseUrl, server.ctx.repos, 'dave');
    expect(await admin.post('/api/user/manage', { id: dave.userId, action: 'promote' })).toMatchObject({
      success: false,
      message: '只有超级管理员可以提升用户为管理员',
    });
    expect(await admin.post('/api/user/manage', { id: root.userId, action: 'disable' })).toMatchObject({
      success: false,
      message: '无权操作同级或更高权限的用户',
    });
    expect(await admin.put('/api/user/', { id: root.userId, username: 'root', quota: 0 })).toMatchObject({
      success: false,
    });
    expect(
      (await admin.post<{ status: number }>('/api/user/manage', { id: dave.userId, action: 'disable' })).data.status,
    ).toBe(2);
    expect((await dave.get('/api/user/self')).status).toBe(401);
    expect(
      (await admin.post<{ status: number }>('/api/user/manage', { id: dave.userId, action: 'enable' })).data.status,
    ).toBe(1);
    expect((await root.post<{ role: number }>('/api/user/manage', { id: carol.id, action: 'demote' })).data.role).toBe(
      1,
    );
    // Disabling ended dave's session; after re-enabling he signs in again, still without admin rights.
    await dave.login('dave', 'dave-password');
    expect(refusal(await dave.post('/api/user/manage', { id: carol.id, action: 'disable' }))).toEqual(ROLE_REFUSED);
  });

  it('deregisters a user: marked deleted, no actions, no sign-in, API keys refused at once', async () => {
    const erin = await signedInUser(server.baseUrl, server.ctx.repos, 'erin');
    await server.ctx.repos.users.addQuota(erin.userId!, 1_000_000);
    const key = await addToken(erin, { unlimited_quota: true });
    await openaiClient(server, key).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect((await root.post('/api/user/manage', { id: erin.userId, action: 'delete' })).success).toBe(true);
    expect((await find('erin')).DeletedAt).toBeGreaterThan(0);
    expect(await root.post('/api/user/manage', { id: erin.userId, action: 'enable' })).toMatchObject({
      success: false,
      message: '该用户已注销',
    });
    expect((await erin.get('/api/user/self')).status).toBe(401);
    expect(
      (await new ApiClient(server.baseUrl).post('/api/user/login', { username: 'erin', password: 'erin-password' }))
        .success,
    ).toBe(false);
    const refused = await apiError(
      openaiClient(server, key).chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    expect(refused.status).toBe(403);
    expect(await root.post('/api/user/manage', { id: root.userId, action: 'delete' })).toMatchObject({
      success: false,
    });
  });
});
