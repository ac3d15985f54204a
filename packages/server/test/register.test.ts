import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, setupAndLogin } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { codeFrom, smtpOptions } from './helpers/mailbox.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type ReceivedMail, startSmtpReceiver } from './helpers/smtp.js';

const dialects = await availableDialects();

describe.each(dialects)('registration (POST /api/user/register) on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;
  let visitor: ApiClient;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;

  const setOption = async (key: string, value: string) => {
    const result = await root.put('/api/option/', { key, value });
    expect(result, `${key}=${value}`).toMatchObject({ success: true });
  };
  const register = (body: Record<string, unknown>) => visitor.post('/api/user/register', body);
  const userNamed = async (username: string) =>
    (await server.ctx.repos.users.search({ keyword: username }, 0, 10)).items.find((u) => u.username === username);
  const systemLogs = async (userId: number) =>
    (await server.ctx.repos.logs.list({ userId, type: 4 }, 0, 20)).items.map((log) => log.content);
  const mailTo = async (email: string): Promise<ReceivedMail> => {
    await expect.poll(() => smtp.mails.some((mail) => mail.to.includes(email)), { timeout: 5000 }).toBe(true);
    return smtp.mails.filter((mail) => mail.to.includes(email)).at(-1)!;
  };

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
    visitor = new ApiClient(server.baseUrl);
    for (const [key, value] of smtpOptions(smtp.port)) await setOption(key, value);
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('refuses every form rule in the spec’s words and creates nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ username: '', password: 'long-enough-1' }, '请输入用户名和密码！'],
      [{ username: 'alice' }, '请输入用户名和密码！'],
      [{ username: 'alice', password: 'short' }, '密码长度不得小于 8 位！'],
      [{ username: 'alice', password: 'x'.repeat(21) }, '密码长度不得大于 20 位！'],
      [{ username: 'alice', password: 'long-enough-1', password2: 'long-enough-2' }, '两次输入的密码不一致'],
      [{ username: 'a'.repeat(21), password: 'long-enough-1' }, '用户名长度不能超过 20 个字符'],
      [{ username: 12345, password: 'long-enough-1' }, '请输入用户名和密码！'],
    ];
    for (const [body, message] of cases) {
      expect(await register(body), JSON.stringify(body)).toMatchObject({ success: false, message });
    }
    expect(await userNamed('alice')).toBeUndefined();
  });

  it('registers with the new-user quota, logs the gift, and the person can sign in', async () => {
    await setOption('QuotaForNewUser', '250000');
    const result = await register({ username: 'alice', password: 'alice-pass-1', password2: 'alice-pass-1' });
    expect(result).toMatchObject({ success: true, message: '注册成功！' });
    const alice = await userNamed('alice');
    expect(alice).toMatchObject({ quota: 250000, role: 1, status: 1, display_name: 'alice', inviter_id: 0 });
    expect(await systemLogs(alice!.id)).toEqual(['新用户注册赠送 $0.50']);
    const client = new ApiClient(server.baseUrl);
    await client.login('alice', 'alice-pass-1');
    expect((await client.get<{ username: string }>('/api/user/self')).data.username).toBe('alice');
  });

  it('refuses a taken username, including one of a deregistered account', async () => {
    expect(await register({ username: 'alice', password: 'another-pass-1' })).toMatchObject({
      success: false,
      message: '用户名已存在，或已注销',
    });
    await register({ username: 'gone', password: 'gone-pass-123' });
    const gone = await userNamed('gone');
    await server.ctx.repos.users.update(gone!.id, { deleted_at: Math.floor(Date.now() / 1000) });
    expect(await register({ username: 'gone', password: 'gone-pass-456' })).toMatchObject({
      success: false,
      message: '用户名已存在，或已注销',
    });
  });

  it('lets exactly one of two simultaneous registrations of one name through', async () => {
    const results = await Promise.all(
      [1, 2, 3].map((n) =>
        new ApiClient(server.baseUrl).post('/api/user/register', { username: 'racer', password: `racer-pass-${n}` }),
      ),
    );
    expect(results.filter((result) => result.success)).toHaveLength(1);
    for (const failed of results.filter((result) => !result.success)) {
      expect(failed.message).toBe('用户名已存在，或已注销');
    }
  });

  it('honours the operator’s switches: registration closed, or password registration closed', async () => {
    await setOption('RegisterEnabled', 'false');
    expect(await register({ username: 'bob', password: 'bob-pass-123' })).toMatchObject({
      success: false,
      message: '管理员关闭了新用户注册',
    });
    await setOption('RegisterEnabled', 'true');
    await setOption('PasswordRegisterEnabled', 'false');
    expect(await register({ username: 'bob', password: 'bob-pass-123' })).toMatchObject({
      success: false,
      message: '管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册',
    });
    await setOption('PasswordRegisterEnabled', 'true');
    expect(await userNamed('bob')).toBeUndefined();
  });

  it('links an invitee to the inviter and pays both rewards, each as a system log', async () => {
    await setOption('QuotaForNewUser', '0');
    await setOption('QuotaForInviter', '500000');
    await setOption('QuotaForInvitee', '100000');
    const alice = new ApiClient(server.baseUrl);
    await alice.login('alice', 'alice-pass-1');
    const code = (await alice.get<string>('/api/user/aff')).data;

    expect((await register({ username: 'carol', password: 'carol-pass-1', aff_code: code })).success).toBe(true);
    const carol = await userNamed('carol');
    const inviter = await userNamed('alice');
    expect(carol).toMatchObject({ inviter_id: inviter!.id, quota: 100000 });
    expect(inviter).toMatchObject({ aff_count: 1, aff_quota: 500000, aff_history_quota: 500000, quota: 250000 });
    expect(await systemLogs(carol!.id)).toEqual(['使用邀请码赠送 $0.20']);
    expect(await systemLogs(inviter!.id)).toContain('邀请用户赠送 $1.00');
    const facts = async (userId: number) =>
      (await server.ctx.repos.logs.list({ userId, type: 4 }, 0, 20)).items.map((log) => JSON.parse(log.other ?? ''));
    expect(await facts(carol!.id)).toEqual([
      expect.objectContaining({ content_key: 'invite_code_bonus', content_params: { quota: 100000 } }),
    ]);
    expect(await facts(inviter!.id)).toContainEqual(
      expect.objectContaining({ content_key: 'inviter_bonus', content_params: { quota: 500000 } }),
    );

    // An unknown code is ignored: the person still registers, without an inviter or the invitee reward.
    expect((await register({ username: 'dave', password: 'dave-pass-12', aff_code: 'nope' })).success).toBe(true);
    expect(await userNamed('dave')).toMatchObject({ inviter_id: 0, quota: 0 });
    await setOption('QuotaForInviter', '0');
    await setOption('QuotaForInvitee', '0');
  });

  it('ignores an e-mail address while verification is off: an unproven address is never stored', async () => {
    expect((await register({ username: 'erin', password: 'erin-pass-12', email: 'erin@example.com' })).success).toBe(
      true,
    );
    expect(await userNamed('erin')).toMatchObject({ email: '' });
  });

  it('requires a mailed code when e-mail verification is on, and the code works once', async () => {
    await setOption('EmailVerificationEnabled', 'true');
    expect(await register({ username: 'fay', password: 'fay-pass-123' })).toMatchObject({
      success: false,
      message: '管理员开启了邮箱验证，请输入邮箱地址和验证码',
    });
    expect((await visitor.get('/api/verification?email=Fay@Example.com')).success).toBe(true);
    const code = codeFrom(await mailTo('fay@example.com'));
    const wrong = code === '000000' ? '111111' : '000000';
    expect(
      await register({ username: 'fay', password: 'fay-pass-123', email: 'fay@example.com', verification_code: wrong }),
    ).toMatchObject({ success: false, message: '验证码错误或已过期' });
    // A refused name does not use up the code.
    expect(
      await register({
        username: 'alice',
        password: 'fay-pass-123',
        email: 'fay@example.com',
        verification_code: code,
      }),
    ).toMatchObject({ success: false, message: '用户名已存在，或已注销' });
    expect(
      await register({ username: 'fay', password: 'fay-pass-123', email: 'FAY@example.com', verification_code: code }),
    ).toMatchObject({ success: true, message: '注册成功！' });
    expect(await userNamed('fay')).toMatchObject({ email: 'fay@example.com' });
    expect(
      await register({ username: 'fay2', password: 'fay-pass-123', email: 'fay@example.com', verification_code: code }),
    ).toMatchObject({ success: false, message: '邮箱地址已被占用' });
    await setOption('EmailVerificationEnabled', 'false');
  });

  it('answers in English when the caller prefers it', async () => {
    const english = new ApiClient(server.baseUrl, 'en-US');
    expect(await english.post('/api/user/register', { username: 'zed', password: 'short' })).toMatchObject({
      success: false,
      message: 'The password must be at least 8 characters!',
    });
  });
});
