import { LogType, Role } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROLE_REFUSED, ROOT, refusal, setupAndLogin, signedInUser } from './helpers/client.js';
import { resetLinkFrom, smtpOptions } from './helpers/mailbox.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startSmtpReceiver } from './helpers/smtp.js';

/**
 * What one signed-in person may reach of another's records through the "self" routes, and how far an admin reaches
 * upwards. The per-route tests (tokens, drawing/task fetches over the relay, OAuth bindings) live with their
 * features; this file covers the lists and writes where a query parameter or a body field could name someone else.
 */
describe('one user never reaches another user’s records', () => {
  let server: TestServer;
  let alice: ApiClient;
  let bob: ApiClient;
  const now = Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    await setupAndLogin(server.baseUrl);
    alice = await signedInUser(server.baseUrl, server.ctx.repos, 'alice');
    bob = await signedInUser(server.baseUrl, server.ctx.repos, 'bob');
    const repos = server.ctx.repos;
    const consume = (userId: number, username: string, quota: number) => ({
      user_id: userId,
      username,
      created_at: now - 5,
      type: LogType.Consume,
      model_name: `${username}-model`,
      token_name: `${username}-token`,
      quota,
      prompt_tokens: 1,
      completion_tokens: 1,
    });
    await repos.logs.insertMany([consume(alice.userId!, 'alice', 100), consume(bob.userId!, 'bob', 7000)]);
    await repos.midjourneys.insert({
      user_id: bob.userId!,
      mj_id: 'bob-drawing-1',
      action: 'IMAGINE',
      prompt: 'bob’s private prompt',
      submit_time: now * 1000,
      status: 'SUCCESS',
    });
    await repos.tasks.insert({
      task_id: 'bob-song-1',
      platform: 'suno',
      user_id: bob.userId!,
      action: 'MUSIC',
      status: 'SUCCESS',
      submit_time: now,
    });
    await repos.topUps.insert({ user_id: bob.userId!, amount: 10, money: 73, trade_no: 'bob-order-1' });
    await repos.quotaData.increment({
      userId: bob.userId!,
      username: 'bob',
      modelName: 'bob-model',
      hour: now - (now % 3600),
      count: 1,
      quota: 7000,
      tokenUsed: 2,
    });
  });
  afterAll(async () => server?.close());

  it('keeps usage logs and their sums to the owner, whatever the filter names', async () => {
    for (const query of [
      '',
      '?username=bob',
      `?user_id=${bob.userId}`,
      '?token_name=bob-token',
      '?model_name=bob-model',
    ]) {
      const page = await alice.get<{ items: Array<{ username: string }> }>(`/api/log/self/${query}`);
      expect(
        page.data.items.every((row) => row.username === 'alice'),
        query,
      ).toBe(true);
      expect(JSON.stringify(page.data), query).not.toContain('bob');
    }
    const stat = await alice.get<{ quota: number }>('/api/log/self/stat?username=bob');
    expect(stat.data.quota).toBe(100);
  });

  it('keeps drawing and task rows to the owner, even when asked by id', async () => {
    const drawings = await alice.get<unknown[]>('/api/mj/self?mj_id=bob-drawing-1');
    expect(drawings.data).toEqual([]);
    expect((await alice.get<unknown[]>('/api/mj/self')).data).toEqual([]);
    const tasks = await alice.get<unknown[]>('/api/task/self?task_id=bob-song-1');
    expect(tasks.data).toEqual([]);
    expect((await alice.get<unknown[]>(`/api/task/self?channel_id=0&user_id=${bob.userId}`)).data).toEqual([]);
    // The owner does see them: the empty lists above are not an empty database.
    expect((await bob.get<unknown[]>('/api/mj/self')).data).toHaveLength(1);
    expect((await bob.get<unknown[]>('/api/task/self')).data).toHaveLength(1);
  });

  it('keeps top-up orders and dashboard data to the owner', async () => {
    const orders = await alice.get<{ items: unknown[]; total: number }>(`/api/user/topup/self?user_id=${bob.userId}`);
    expect([orders.data.total, orders.data.items]).toEqual([0, []]);
    expect((await bob.get<{ total: number }>('/api/user/topup/self')).data.total).toBe(1);
    const data = await alice.get<unknown[]>('/api/data/self?username=bob');
    expect(data.data).toEqual([]);
    expect((await bob.get<unknown[]>('/api/data/self')).data).toHaveLength(1);
  });

  it('shows no other user’s profile, and refuses the admin user views', async () => {
    for (const path of [`/api/user/${bob.userId}`, '/api/user/?keyword=bob', '/api/user/search?keyword=bob']) {
      const answer = await alice.get(path);
      expect(refusal(answer), path).toEqual(ROLE_REFUSED);
    }
    const self = await alice.get<{ id: number; username: string }>(`/api/user/self?id=${bob.userId}`);
    expect(self.data).toMatchObject({ id: alice.userId, username: 'alice' });
  });

  it('changes only the caller when a body names someone else', async () => {
    const bobBefore = (await server.ctx.repos.users.findById(bob.userId!))!;
    await alice.put('/api/user/self', { id: bob.userId, display_name: 'hijacked', role: Role.Root, quota: 1e9 });
    await alice.put('/api/user/setting', {
      id: bob.userId,
      user_id: bob.userId,
      notify_type: 'webhook',
      webhook_url: 'https://93.184.215.15/hook',
      quota_warning_threshold: 1,
    });
    const bobAfter = (await server.ctx.repos.users.findById(bob.userId!))!;
    expect(bobAfter).toEqual(bobBefore);
    const aliceRow = (await server.ctx.repos.users.findById(alice.userId!))!;
    expect(aliceRow).toMatchObject({ display_name: 'hijacked', role: Role.Common, quota: 0 });

    const created = await alice.post<Array<{ key: string }>>('/api/token/', { name: 'mine', user_id: bob.userId });
    const token = (await server.ctx.repos.tokens.findByKey(created.data[0]!.key))!;
    expect(token.user_id).toBe(alice.userId);
    const view = (await alice.get<{ items: Array<Record<string, unknown>> }>('/api/token/')).data.items[0]!;
    await alice.put('/api/token/', { ...view, user_id: bob.userId, name: 'moved?' });
    expect((await server.ctx.repos.tokens.findByKey(token.key))!.user_id).toBe(alice.userId);
    expect((await bob.get<{ total: number }>('/api/token/')).data.total).toBe(0);
  });
});

describe('an admin reaches only users below them', () => {
  let server: TestServer;
  let root: ApiClient;
  let admin: ApiClient;
  let peer: ApiClient;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    admin = await signedInUser(server.baseUrl, server.ctx.repos, 'admin1');
    peer = await signedInUser(server.baseUrl, server.ctx.repos, 'admin2');
    for (const client of [admin, peer]) await server.ctx.repos.users.update(client.userId!, { role: Role.Admin });
  });
  afterAll(async () => server?.close());

  it('cannot edit itself, another admin or root through the admin routes', async () => {
    // Editing oneself there would let an admin raise their own quota or move to a cheaper group.
    for (const target of [admin, peer, root]) {
      const before = (await server.ctx.repos.users.findById(target.userId!))!;
      const edit = await admin.put('/api/user/', {
        id: target.userId,
        username: before.username,
        display_name: 'edited',
        group: 'vip',
        quota: 999_999_999,
        password: 'taken-over-1',
      });
      expect(edit.success, before.username).toBe(false);
      for (const action of ['add_quota', 'disable', 'demote', 'delete'] as const) {
        const manage = await admin.post('/api/user/manage', { id: target.userId, action, value: 1_000_000 });
        expect(manage.success, `${action} ${before.username}`).toBe(false);
      }
      expect(await server.ctx.repos.users.findById(target.userId!), before.username).toEqual(before);
    }
  });

  it('still edits itself as root, and ordinary users as admin', async () => {
    const self = (await server.ctx.repos.users.findById(root.userId!))!;
    const edit = await root.put('/api/user/', { id: root.userId, username: 'root', display_name: 'Boss', quota: 5 });
    expect(edit.success).toBe(true);
    expect((await server.ctx.repos.users.findById(root.userId!))!).toMatchObject({ display_name: 'Boss', quota: 5 });
    await server.ctx.repos.users.update(root.userId!, { display_name: self.display_name, quota: self.quota });
    const carol = await signedInUser(server.baseUrl, server.ctx.repos, 'carol');
    const raised = await admin.put('/api/user/', { id: carol.userId, username: 'carol', quota: 42, group: 'default' });
    expect(raised.success).toBe(true);
    expect((await server.ctx.repos.users.findById(carol.userId!))!.quota).toBe(42);
  });
});

describe('an admin cannot become root', () => {
  let server: TestServer;
  let root: ApiClient;
  let admin: ApiClient;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    admin = await signedInUser(server.baseUrl, server.ctx.repos, 'admin1');
    await server.ctx.repos.users.update(admin.userId!, { role: Role.Admin });
  });
  afterAll(async () => server?.close());

  /**
   * Options are root's: were they open to admins, an admin could point SMTP at a mail server they run, ask for
   * root's password reset, read the link there and set a new root password. The chain runs step by step and stops
   * at the first refusal.
   */
  it('cannot take over root by pointing the mail settings at its own server', async () => {
    const smtp = await startSmtpReceiver();
    try {
      await server.ctx.repos.users.update(root.userId!, { email: 'root@example.com' });
      const settings = [...smtpOptions(smtp.port), ['ServerAddress', 'https://gateway.example.com']];
      const saved = await Promise.all(settings.map(([key, value]) => admin.put('/api/option/', { key, value })));
      if (saved.every((answer) => answer.success)) {
        await admin.get('/api/reset_password?email=root@example.com');
        for (let attempt = 0; attempt < 100 && smtp.mails.length === 0; attempt++) {
          await new Promise((done) => setTimeout(done, 50));
        }
        const token = smtp.mails[0] ? resetLinkFrom(smtp.mails[0]).searchParams.get('token') : null;
        if (token) await admin.post('/api/user/reset', { email: 'root@example.com', token });
      }
      const stillRoot = await new ApiClient(server.baseUrl).post('/api/user/login', ROOT);
      expect(stillRoot.success).toBe(true);
    } finally {
      await smtp.close();
    }
  });
});
