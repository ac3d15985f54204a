import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

describe('personal settings', () => {
  let server: TestServer;
  let root: ApiClient;
  let frank: ApiClient;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    frank = await signedInUser(server.baseUrl, server.ctx.repos, 'frank');
  });
  afterAll(async () => server?.close());

  it('changes only profile fields and the password, whatever else the body holds', async () => {
    const result = await frank.put('/api/user/self', {
      display_name: 'Frank',
      role: 100,
      quota: 999999999,
      group: 'svip',
      status: 1,
      github_id: 'x',
    });
    expect(result.success).toBe(true);
    const self = (await frank.get<Record<string, unknown>>('/api/user/self')).data;
    expect(self).toMatchObject({ display_name: 'Frank', role: 1, quota: 0, group: 'default', github_id: '' });
  });

  it('checks the original password, refuses the same one, and keeps this session while ending others', async () => {
    const other = new ApiClient(server.baseUrl);
    await other.login('frank', 'frank-password');
    expect(await frank.put('/api/user/self', { original_password: '', password: 'new-password-1' })).toMatchObject({
      success: false,
      message: '请输入原密码',
    });
    // No original_password at all is what the family's v0.6 console sends: refused, saying what to do instead.
    const unsent = await frank.put('/api/user/self', { password: 'new-password-1' });
    expect([unsent.success, unsent.message.includes('忘记密码')]).toEqual([false, true]);
    expect(
      await frank.put('/api/user/self', { original_password: 'wrong-password', password: 'new-password-1' }),
    ).toMatchObject({
      success: false,
      message: '原密码错误',
    });
    expect(
      await frank.put('/api/user/self', { original_password: 'frank-password', password: 'frank-password' }),
    ).toMatchObject({
      success: false,
      message: '新密码不能与原密码相同',
    });
    expect(
      await frank.put('/api/user/self', { original_password: 'frank-password', password: 'new-password-1' }),
    ).toMatchObject({
      success: true,
      message: '密码修改成功！',
    });
    expect((await frank.get('/api/user/self')).success).toBe(true);
    expect((await other.get('/api/user/self')).status).toBe(401);
  });

  it('generates a system access token that works for /api, replacing the previous one', async () => {
    const first = (await frank.get<string>('/api/user/token')).data;
    const second = (await frank.get<string>('/api/user/token')).data;
    expect(second).toMatch(/^[A-Za-z0-9]{32}$/);
    const call = (token: string) =>
      fetch(`${server.baseUrl}/api/user/self`, {
        headers: { authorization: token, 'new-api-user': String(frank.userId) },
      });
    expect((await call(second)).status).toBe(200);
    expect((await call(first)).status).toBe(401);
  });

  it('gives an invitation code and moves at least one unit of invitation quota to the balance', async () => {
    const code = (await frank.get<string>('/api/user/aff')).data;
    expect(code).toMatch(/^[A-Za-z0-9]{4}$/);
    expect((await frank.get<string>('/api/user/aff')).data).toBe(code);
    await server.ctx.repos.users.update(frank.userId!, { aff_quota: 800_000 });
    await server.ctx.ledger.prepare(frank.userId!, null);
    const systemLogs = async () => (await server.ctx.repos.logs.list({ userId: frank.userId!, type: 4 }, 0, 10)).items;
    expect(await frank.post('/api/user/aff_transfer', { quota: 100 })).toMatchObject({
      success: false,
      message: '划转金额最低为 $1.00',
    });
    expect(await frank.post('/api/user/aff_transfer', { quota: 900_000 })).toMatchObject({
      success: false,
      message: '邀请额度不足',
    });
    expect((await frank.post('/api/user/aff_transfer', { quota: 500_000 })).success).toBe(true);
    const self = (await frank.get<{ quota: number; aff_quota: number }>('/api/user/self')).data;
    expect(self).toMatchObject({ quota: 500_000, aff_quota: 300_000 });
    // The relay spends what was moved at once, and the refused attempts left no log row behind.
    expect(server.ctx.ledger.available('user', frank.userId!)).toBe(500_000);
    const logs = await systemLogs();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ username: 'frank', quota: 500_000, content: '邀请额度划转到余额 $1.00' });
    expect(JSON.parse(logs[0]!.other ?? '')).toMatchObject({
      content_key: 'aff_transfer',
      content_params: { quota: 500_000 },
    });
  });

  it('saves notification settings, webhook https only', async () => {
    expect(
      await frank.put('/api/user/setting', { notify_type: 'webhook', webhook_url: 'http://hook.example.com' }),
    ).toMatchObject({
      success: false,
      message: 'Webhook 地址必须以 https:// 开头',
    });
    const saved = await frank.put('/api/user/setting', {
      notify_type: 'webhook',
      webhook_url: 'https://93.184.215.14/x',
      webhook_secret: 's3cret',
      quota_warning_threshold: 500000,
      accept_unset_model_ratio_model: true,
    });
    expect(saved).toMatchObject({ success: true, message: '通知设置已更新' });
    const setting = JSON.parse((await frank.get<{ setting: string }>('/api/user/self')).data.setting);
    expect(setting).toMatchObject({
      notify_type: 'webhook',
      quota_warning_threshold: 500000,
      accept_unset_model_ratio_model: true,
    });
  });

  it('deletes one’s own account (never root’s)', async () => {
    expect(await root.delete('/api/user/self')).toMatchObject({
      success: false,
      message: '超级管理员不能删除自己的账户',
    });
    expect(await frank.delete('/api/user/self')).toMatchObject({ success: true, message: '账户已删除！' });
    expect((await frank.get('/api/user/self')).status).toBe(401);
    expect(
      (await new ApiClient(server.baseUrl).post('/api/user/login', { username: 'frank', password: 'new-password-1' }))
        .success,
    ).toBe(false);
  });
});
