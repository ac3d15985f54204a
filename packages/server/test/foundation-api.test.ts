import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROLE_REFUSED, ROOT, refusal, setupAndLogin } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { setupTokenOf, startTestServer, type TestServer } from './helpers/server.js';

const dialects = await availableDialects();

describe.each(dialects)('first-run setup, sign-in and options over HTTP on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('before setup: status says so, and every other /api route answers that setup is needed', async () => {
    const anonymous = new ApiClient(server.baseUrl);
    const status = await anonymous.get<{ setup: boolean }>('/api/status');
    expect(status.data.setup).toBe(false);
    const setup = await anonymous.get('/api/setup');
    expect(setup.data).toEqual({
      status: false,
      root_init: false,
      database_type: dialect,
      setup_token_required: true,
    });
    const login = await anonymous.post('/api/user/login', { username: 'x', password: 'y' });
    expect(login).toMatchObject({ success: false, message: '系统尚未初始化，请先完成初始化设置' });
  });

  it('refuses bad setup input with the spec’s words and creates nothing', async () => {
    const client = new ApiClient(server.baseUrl);
    const cases: Array<[object, string]> = [
      [{ username: '', password: '12345678', confirmPassword: '12345678' }, '请输入管理员用户名'],
      [{ username: 'root', password: 'short', confirmPassword: 'short' }, '密码长度不得小于 8 位！'],
      [{ username: 'root', password: '12345678', confirmPassword: '87654321' }, '两次输入的密码不一致'],
      [
        { username: 'averyveryverylongname', password: '12345678', confirmPassword: '12345678' },
        '用户名长度不能超过12个字符',
      ],
      [{ username: 'root', password: 12345678, confirmPassword: 12345678 }, '无效的参数'],
    ];
    const setup_token = setupTokenOf(server.baseUrl);
    for (const [body, message] of cases) {
      expect(await client.post('/api/setup', { ...body, setup_token })).toMatchObject({ success: false, message });
    }
    expect((await client.get<{ root_init: boolean }>('/api/setup')).data.root_init).toBe(false);
  });

  it('refuses setup without the one-time token the server printed, or with a wrong one, and creates nothing', async () => {
    const client = new ApiClient(server.baseUrl);
    const english = new ApiClient(server.baseUrl, 'en');
    const body = { ...ROOT, confirmPassword: ROOT.password };
    const token = setupTokenOf(server.baseUrl);
    expect(token.length).toBeGreaterThanOrEqual(20);
    expect(await client.post('/api/setup', body)).toMatchObject({
      success: false,
      message: expect.stringMatching(/设置令牌/),
    });
    expect(await english.post('/api/setup', { ...body, setup_token: '' })).toMatchObject({
      success: false,
      message: 'Enter the setup token (written to the server log at first start)',
    });
    expect(await english.post('/api/setup', { ...body, setup_token: `${token}x` })).toMatchObject({
      success: false,
      message: 'The setup token is not correct',
    });
    expect(await english.post('/api/setup', body, { 'x-setup-token': token.slice(1) })).toMatchObject({
      success: false,
      message: 'The setup token is not correct',
    });
    expect(await english.post('/api/setup', { ...body, setup_token: 42 })).toMatchObject({ success: false });
    expect(await server.ctx.repos.users.count()).toBe(0);
    expect((await client.get<{ status: boolean }>('/api/setup')).data.status).toBe(false);
  });

  it('runs setup once, even when two requests race', async () => {
    const a = new ApiClient(server.baseUrl);
    const b = new ApiClient(server.baseUrl, 'en');
    const body = {
      ...ROOT,
      confirmPassword: ROOT.password,
      SelfUseModeEnabled: true,
      DemoSiteEnabled: false,
      setup_token: setupTokenOf(server.baseUrl),
    };
    const results = await Promise.all([
      a.post('/api/setup', body),
      b.post('/api/setup', { ...body, username: 'other' }),
    ]);
    expect(results.filter((result) => result.success)).toHaveLength(1);
    const again = await b.post('/api/setup', body);
    expect(again).toMatchObject({ success: false, message: 'The system has already been initialised' });
    const status = await a.get<{ setup: boolean; self_use_mode_enabled: boolean }>('/api/status');
    expect(status.data).toMatchObject({ setup: true, self_use_mode_enabled: true });
    expect((await a.get('/api/setup')).data).toMatchObject({ status: true, root_init: true });
    // Put the winner's name into ROOT's account for the rest of the file.
    const winner = results[0]!.success ? ROOT.username : 'other';
    root = new ApiClient(server.baseUrl);
    await root.login(winner, ROOT.password);
    expect((await root.get<{ role: number }>('/api/user/self')).data.role).toBe(100);
  });

  it('signs in by username, refuses wrong passwords identically for unknown users', async () => {
    const client = new ApiClient(server.baseUrl);
    const wrong = await client.post('/api/user/login', { username: 'root', password: 'wrong-password' });
    const unknown = await client.post('/api/user/login', { username: 'nobody', password: 'whatever1' });
    expect(wrong).toMatchObject({ success: false, message: '用户名或密码错误，或用户已被封禁' });
    expect(unknown.message).toBe(wrong.message);
    expect(await client.post('/api/user/login', { username: '', password: '' })).toMatchObject({
      success: false,
      message: '请输入用户名和密码！',
    });
    expect(client.sessionCookie).toBe('');
  });

  it('requires the session cookie and a matching New-Api-User header', async () => {
    const anonymous = new ApiClient(server.baseUrl);
    expect((await anonymous.get('/api/user/self')).status).toBe(401);
    const self = await root.get('/api/user/self');
    expect(self.success).toBe(true);
    expect(self.data).not.toHaveProperty('password');
    expect(self.data).not.toHaveProperty('access_token');
    expect((await root.get('/api/user/self', { 'new-api-user': '999' })).status).toBe(401);
    expect((await root.get('/api/user/self', { 'new-api-user': '' })).status).toBe(401);
    const forged = await fetch(`${server.baseUrl}/api/user/self`, {
      headers: { cookie: `${root.sessionCookie.slice(0, -3)}abc`, 'new-api-user': String(root.userId) },
    });
    expect(forged.status).toBe(401);
  });

  it('lets a system access token act for its user, and refuses an unknown one', async () => {
    await server.ctx.repos.users.update(root.userId!, { access_token: 'a'.repeat(32) });
    const viaToken = await fetch(`${server.baseUrl}/api/user/self`, {
      headers: { authorization: 'a'.repeat(32), 'new-api-user': String(root.userId) },
    });
    expect(((await viaToken.json()) as { success: boolean }).success).toBe(true);
    const bad = await fetch(`${server.baseUrl}/api/user/self`, {
      headers: { authorization: 'b'.repeat(32), 'new-api-user': '1' },
    });
    expect(bad.status).toBe(401);
  });

  it('enforces roles on the server: an ordinary user cannot read or write options', async () => {
    const { hashPassword } = await import('../src/auth/password.js');
    await server.ctx.repos.users.insert({ username: 'bob', password: await hashPassword('bobpass123') });
    const bob = new ApiClient(server.baseUrl);
    await bob.login('bob', 'bobpass123');
    expect(refusal(await bob.get('/api/option/'))).toEqual(ROLE_REFUSED);
    const put = await bob.put('/api/option/', { key: 'SystemName', value: 'pwned' });
    expect(refusal(put)).toEqual(ROLE_REFUSED);
    expect(server.ctx.options.get('SystemName')).not.toBe('pwned');
  });

  it('never returns secret option values, and saves them only when given', async () => {
    expect((await root.put('/api/option/', { key: 'GitHubClientSecret', value: 'gh-secret-value' })).success).toBe(
      true,
    );
    expect((await root.put('/api/option/', { key: 'TurnstileSiteKey', value: 'site-key-public' })).success).toBe(true);
    const list = await root.get<Array<{ key: string; value: string }>>('/api/option/');
    const value = (key: string) => list.data.find((entry) => entry.key === key)?.value;
    expect(value('GitHubClientSecret')).toBe('');
    expect(value('SMTPToken')).toBe('');
    expect(value('EpayKey')).toBe('');
    expect(value('TurnstileSiteKey')).toBe('site-key-public');
    expect(JSON.stringify(list.data)).not.toContain('gh-secret-value');
    const status = await root.get('/api/status');
    expect(JSON.stringify(status.data)).not.toContain('gh-secret-value');
  });

  it('validates every option value on the server and leaves a refused one unchanged', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['RetryTimes', 'abc', 'RetryTimes 必须是数字'],
      ['RetryTimes', '1.5', 'RetryTimes 必须是整数'],
      ['DataExportInterval', '0', 'DataExportInterval 不能小于 1'],
      ['DisplayInCurrencyEnabled', 'yes', 'DisplayInCurrencyEnabled 必须是 true 或 false'],
      ['ModelRatio', '{bad json', 'ModelRatio 不是合法的 JSON 字符串'],
      ['ModelRatio', '{"gpt-4o": "cheap"}', 'ModelRatio 的 JSON 结构不正确'],
      ['ModelRequestRateLimitGroup', '{"vip": [10, 0]}', 'ModelRequestRateLimitGroup 的 JSON 结构不正确'],
      ['DataExportDefaultTime', 'month', 'DataExportDefaultTime 只能是以下值之一：hour, day, week'],
      ['EmailDomainWhitelist', 'gmail.com,not a domain', 'not a domain 不是合法的域名'],
      ['GitHubOAuthEnabled', 'true', '开启 GitHubOAuthEnabled 之前请先填写 GitHubClientId'],
      ['NoSuchOption', '1', '未知的配置项：NoSuchOption'],
      ['SystemName', { nested: true }, '配置值必须是字符串、数字或布尔值'],
    ];
    const before = server.ctx.options.all();
    for (const [key, value, message] of cases) {
      expect(await root.put('/api/option/', { key, value })).toMatchObject({ success: false, message });
    }
    expect(server.ctx.options.all()).toEqual(before);
    const stored = await server.ctx.repos.options.all();
    // The row a fresh install writes (RetryTimes 3) is what is stored still: no refused value reached it.
    expect(stored.find((row) => row.key === 'RetryTimes')?.value).toBe('3');
  });

  it('applies a saved option at once, persists it, and accepts numbers and booleans from scripts', async () => {
    expect((await root.put('/api/option/', { key: 'SystemName', value: '测试网关' })).message).toBe('保存成功');
    expect((await root.put('/api/option/', { key: 'RetryTimes', value: 3 })).success).toBe(true);
    expect((await root.put('/api/option/', { key: 'DrawingEnabled', value: false })).success).toBe(true);
    const status = await new ApiClient(server.baseUrl).get<{ system_name: string; enable_drawing: boolean }>(
      '/api/status',
    );
    expect(status.data).toMatchObject({ system_name: '测试网关', enable_drawing: false });
    const stored = await server.ctx.repos.options.all();
    expect(stored).toContainEqual({ key: 'RetryTimes', value: '3' });
  });

  it('refuses password login when the admin turns it off', async () => {
    await root.put('/api/option/', { key: 'PasswordLoginEnabled', value: 'false' });
    const attempt = await new ApiClient(server.baseUrl).post('/api/user/login', {
      username: 'bob',
      password: 'bobpass123',
    });
    expect(attempt).toMatchObject({ success: false, message: '管理员关闭了密码登录' });
    await root.put('/api/option/', { key: 'PasswordLoginEnabled', value: 'true' });
  });

  it('locks out a banned user at once, session included', async () => {
    const carol = new ApiClient(server.baseUrl);
    const { hashPassword } = await import('../src/auth/password.js');
    const id = await server.ctx.repos.users.insert({ username: 'carol', password: await hashPassword('carolpass1') });
    await carol.login('carol', 'carolpass1');
    expect((await carol.get('/api/user/self')).success).toBe(true);
    await server.ctx.repos.users.update(id, { status: 2 });
    const after = await carol.get('/api/user/self');
    expect(after).toMatchObject({ status: 403, success: false, message: '用户已被封禁' });
    expect(
      await new ApiClient(server.baseUrl).post('/api/user/login', { username: 'carol', password: 'carolpass1' }),
    ).toMatchObject({
      success: false,
    });
  });

  it('logs out: the cookie stops working server-side', async () => {
    const client = new ApiClient(server.baseUrl);
    await client.login('bob', 'bobpass123');
    const cookie = client.sessionCookie;
    await client.get('/api/user/logout');
    const reuse = await fetch(`${server.baseUrl}/api/user/self`, {
      headers: { cookie, 'new-api-user': String(client.userId) },
    });
    expect(reuse.status).toBe(401);
  });

  it('answers in English when asked', async () => {
    const english = new ApiClient(server.baseUrl, 'en-US,en;q=0.9');
    expect((await english.post('/api/user/login', { username: 'root', password: 'nope-nope' })).message).toBe(
      'Wrong username or password, or the user is banned',
    );
  });

  it('answers in the most preferred of the console languages the caller names, Chinese when it names none', async () => {
    const cases: Array<[string, string]> = [
      ['zh-TW,zh;q=0.9', '使用者名稱或密碼錯誤，或使用者已被停權'],
      ['zh-HK', '使用者名稱或密碼錯誤，或使用者已被停權'],
      ['ja-JP,ja;q=0.9,en;q=0.8', 'ユーザー名またはパスワードが間違っているか、ユーザーが利用停止されています'],
      ['fr-FR', 'Nom d’utilisateur ou mot de passe incorrect, ou utilisateur banni'],
      ['de-DE,ru;q=0.8', 'Неверное имя пользователя или пароль, либо пользователь заблокирован'],
      ['vi-VN', 'Sai tên đăng nhập hoặc mật khẩu, hoặc người dùng đã bị cấm'],
      ['de-DE', '用户名或密码错误，或用户已被封禁'],
    ];
    for (const [acceptLanguage, message] of cases) {
      const client = new ApiClient(server.baseUrl, acceptLanguage);
      expect((await client.post('/api/user/login', { username: 'root', password: 'nope-nope' })).message).toBe(message);
    }
  });

  it('serves admin-written content publicly and never caches /api answers', async () => {
    await root.put('/api/option/', { key: 'Notice', value: '**维护通知**' });
    const notice = await new ApiClient(server.baseUrl).get('/api/notice');
    expect(notice.data).toBe('**维护通知**');
    expect(notice.headers.get('cache-control')).toBe('no-store');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await new ApiClient(server.baseUrl).get('/api/does-not-exist');
    expect(response).toMatchObject({ status: 404, success: false });
  });
});

describe('setup over a database that already has a root account', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
    const { hashPassword } = await import('../src/auth/password.js');
    // As if imported from the Go gateway after this node started: a root user, no setups row yet.
    await server.ctx.repos.users.insert({
      username: 'imported',
      password: await hashPassword('imported-pass'),
      role: 100,
    });
  });
  afterAll(async () => server?.close());

  it('only chooses the usage mode and keeps the existing account', async () => {
    const client = new ApiClient(server.baseUrl);
    expect((await client.get('/api/setup')).data).toMatchObject({ status: false, root_init: true });
    const body = { username: '', password: '', confirmPassword: '', SelfUseModeEnabled: false, DemoSiteEnabled: true };
    // This node started before the root account appeared, so it still asks for its token (here in the header).
    expect((await client.post('/api/setup', body)).success).toBe(false);
    expect((await client.post('/api/setup', body, { 'X-Setup-Token': setupTokenOf(server.baseUrl) })).success).toBe(
      true,
    );
    expect((await client.get<{ demo_site_enabled: boolean }>('/api/status')).data.demo_site_enabled).toBe(true);
    await client.login('imported', 'imported-pass');
    expect(await server.ctx.repos.users.count()).toBe(1);
  });
});

describe('login rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { CRITICAL_RATE_LIMIT: '3', CRITICAL_RATE_LIMIT_DURATION: '60' });
    await setupAndLogin(server.baseUrl);
  });
  afterAll(async () => server?.close());

  it('answers 429 once an IP exceeds the critical limit', async () => {
    const client = new ApiClient(server.baseUrl);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      statuses.push((await client.post('/api/user/login', { username: 'root', password: 'wrong-one' })).status);
    }
    // setupAndLogin already used one of the three.
    expect(statuses).toEqual([200, 200, 429, 429]);
    const limited = await client.post('/api/user/login', { username: ROOT.username, password: ROOT.password });
    expect(limited).toMatchObject({ status: 429, message: '请求过于频繁，请稍后再试' });
  });
});
