import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { resetLinkFrom, smtpOptions } from './helpers/mailbox.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type ReceivedMail, startSmtpReceiver } from './helpers/smtp.js';

const dialects = await availableDialects();

describe.each(dialects)('password reset by mailed link on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;
  let visitor: ApiClient;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;

  const setOption = async (key: string, value: string) => {
    expect(await root.put('/api/option/', { key, value }), `${key}=${value}`).toMatchObject({ success: true });
  };
  const askReset = (email: string) => visitor.get(`/api/reset_password?email=${encodeURIComponent(email)}`);
  const mailsTo = (email: string) => smtp.mails.filter((mail) => mail.to.includes(email));
  const nextMailTo = async (email: string, count: number): Promise<ReceivedMail> => {
    await expect.poll(() => mailsTo(email).length, { timeout: 5000 }).toBe(count);
    return mailsTo(email).at(-1)!;
  };
  const confirm = (body: Record<string, unknown>) => visitor.post<string>('/api/user/reset', body);

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
    visitor = new ApiClient(server.baseUrl);
    const gina = await signedInUser(server.baseUrl, server.ctx.repos, 'gina');
    await server.ctx.repos.users.update(gina.userId!, { email: 'gina@example.com' });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('needs SMTP and the server address before it promises a mail', async () => {
    expect(await askReset('gina@example.com')).toMatchObject({
      success: false,
      message: '管理员未配置 SMTP 服务，无法发送邮件',
    });
    for (const [key, value] of smtpOptions(smtp.port)) await setOption(key, value);
    expect(await askReset('gina@example.com')).toMatchObject({
      success: false,
      message: '管理员未设置服务器地址，无法发送重置链接',
    });
    await setOption('ServerAddress', 'https://gateway.example.com/');
    expect(await askReset('')).toMatchObject({ success: false, message: '请输入邮箱地址' });
    expect(smtp.mails).toHaveLength(0);
  });

  it('answers an unknown address exactly like a known one, and mails only the known one', async () => {
    const unknown = await askReset('nobody@example.com');
    const known = await askReset('gina@example.com');
    expect(unknown).toMatchObject({ success: true, message: '如果该邮箱已注册，重置邮件已发送，请检查你的邮箱！' });
    expect(known).toMatchObject({ success: unknown.success, message: unknown.message });
    expect(known.data).toEqual(unknown.data);
    const mail = await nextMailTo('gina@example.com', 1);
    expect(smtp.mails.flatMap((m) => m.to)).not.toContain('nobody@example.com');

    const link = resetLinkFrom(mail);
    expect(`${link.origin}${link.pathname}`).toBe('https://gateway.example.com/user/reset');
    expect(link.searchParams.get('email')).toBe('gina@example.com');
    expect(link.searchParams.get('token')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('sets a new random password once per link, signs the old sessions out, and the old password stops working', async () => {
    const oldSession = new ApiClient(server.baseUrl);
    await oldSession.login('gina', 'gina-password');
    const link = resetLinkFrom(mailsTo('gina@example.com').at(-1)!);
    const email = link.searchParams.get('email')!;
    const token = link.searchParams.get('token')!;

    expect(await confirm({ email, token: 'f'.repeat(32) })).toMatchObject({
      success: false,
      message: '重置链接非法或已过期',
    });
    expect(await confirm({ email: 'nobody@example.com', token })).toMatchObject({
      success: false,
      message: '重置链接非法或已过期',
    });
    expect(await confirm({ email })).toMatchObject({ success: false, message: '重置链接非法或已过期' });

    const result = await confirm({ email, token });
    expect(result).toMatchObject({ success: true, message: '密码已重置，新密码已生成' });
    expect(result.data).toMatch(/^[A-Za-z0-9]{12}$/);
    expect((await oldSession.get('/api/user/self')).status).toBe(401);
    expect(
      (await new ApiClient(server.baseUrl).post('/api/user/login', { username: 'gina', password: 'gina-password' }))
        .success,
    ).toBe(false);
    await new ApiClient(server.baseUrl).login('gina', result.data);

    // The same link a second time: refused, and the password stays the one just handed out.
    expect(await confirm({ email, token })).toMatchObject({ success: false, message: '重置链接非法或已过期' });
    await new ApiClient(server.baseUrl).login('gina', result.data);
  });

  it('honours only the newest link when several were asked for', async () => {
    await askReset('gina@example.com');
    const first = resetLinkFrom(await nextMailTo('gina@example.com', 2));
    await askReset('gina@example.com');
    const second = resetLinkFrom(await nextMailTo('gina@example.com', 3));
    expect(await confirm({ email: 'gina@example.com', token: first.searchParams.get('token') })).toMatchObject({
      success: false,
    });
    expect((await confirm({ email: 'gina@example.com', token: second.searchParams.get('token') })).success).toBe(true);
  });

  it('mails a deregistered account nothing', async () => {
    const gone = await signedInUser(server.baseUrl, server.ctx.repos, 'gone');
    await server.ctx.repos.users.update(gone.userId!, {
      email: 'gone@example.com',
      deleted_at: Math.floor(Date.now() / 1000),
    });
    expect((await askReset('gone@example.com')).success).toBe(true);
    // Gina's next mail proves the queue moved on without one for the deregistered address.
    await askReset('gina@example.com');
    await nextMailTo('gina@example.com', 4);
    expect(mailsTo('gone@example.com')).toHaveLength(0);
  });
});
