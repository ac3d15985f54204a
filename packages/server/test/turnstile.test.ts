import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROOT, setupAndLogin } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { type FakeTurnstile, startFakeTurnstile } from './helpers/fake-turnstile.js';
import { smtpOptions } from './helpers/mailbox.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startSmtpReceiver } from './helpers/smtp.js';

const dialects = await availableDialects();
const SECRET = 'turnstile-secret-for-tests';
const PENDING = '请稍后几秒重试，Turnstile 正在检查用户环境！';
const FAILED = 'Turnstile 校验失败，请刷新重试！';

describe.each(dialects)('the Turnstile human check on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;
  let fake: FakeTurnstile;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;

  // Every guarded route, called the way the console calls it, with `turnstile` appended to the query.
  const guarded: { name: string; call: (client: ApiClient, turnstile?: string) => Promise<{ message: string }> }[] = [
    {
      name: 'login',
      call: (client, t) =>
        client.post(`/api/user/login${query(t)}`, { username: ROOT.username, password: ROOT.password }),
    },
    {
      name: 'register',
      call: (client, t) =>
        client.post(`/api/user/register${query(t)}`, { username: `u${Date.now() % 1e8}`, password: 'register-pass-1' }),
    },
    { name: 'verification', call: (client, t) => client.get(`/api/verification?email=v@example.com${query(t, '&')}`) },
    { name: 'reset', call: (client, t) => client.get(`/api/reset_password?email=r@example.com${query(t, '&')}`) },
  ];

  beforeAll(async () => {
    fake = await startFakeTurnstile(SECRET);
    smtp = await startSmtpReceiver();
    // The per-IP limits are off here: this file calls the same routes many times from one address.
    server = await startTestServer(dialect, { TURNSTILE_VERIFY_URL: fake.url, CRITICAL_RATE_LIMIT_ENABLE: 'false' });
    root = await setupAndLogin(server.baseUrl);
    for (const [key, value] of [
      ...smtpOptions(smtp.port),
      ['ServerAddress', 'https://gateway.example.com'],
      ['TurnstileSiteKey', 'site-key'],
      ['TurnstileSecretKey', SECRET],
    ]) {
      expect((await root.put('/api/option/', { key, value })).success).toBe(true);
    }
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
    await smtp?.close();
  });

  it('asks for nothing while the check is off', async () => {
    for (const route of guarded) {
      expect((await route.call(new ApiClient(server.baseUrl))).message, route.name).not.toBe(PENDING);
    }
    expect(fake.received).toHaveLength(0);
  });

  it('turned on, asks the visitor to wait when the widget has not answered yet', async () => {
    expect((await root.put('/api/option/', { key: 'TurnstileCheckEnabled', value: 'true' })).success).toBe(true);
    for (const route of guarded) {
      expect(await route.call(new ApiClient(server.baseUrl)), route.name).toMatchObject({
        success: false,
        message: PENDING,
      });
      expect(await route.call(new ApiClient(server.baseUrl), ''), route.name).toMatchObject({ message: PENDING });
    }
    expect(fake.received).toHaveLength(0);
  });

  it('refuses a token siteverify does not accept, and passes one it does, sending the secret and the IP', async () => {
    for (const route of guarded) {
      expect(await route.call(new ApiClient(server.baseUrl), 'forged'), route.name).toMatchObject({
        success: false,
        message: FAILED,
      });
    }
    fake.validTokens.add('good-token');
    for (const route of guarded) {
      const result = await route.call(new ApiClient(server.baseUrl), 'good-token');
      expect(result, route.name).toMatchObject({ success: true });
    }
    expect(fake.received.at(-1)).toEqual({ secret: SECRET, response: 'good-token', remoteip: '127.0.0.1' });
  });

  it('fails closed when siteverify cannot be reached', async () => {
    // Port 9 (discard) has no listener here: the connection is refused at once.
    const cut = await startTestServer(dialect, { TURNSTILE_VERIFY_URL: 'http://127.0.0.1:9/siteverify' });
    try {
      const admin = await setupAndLogin(cut.baseUrl);
      for (const [key, value] of [
        ['TurnstileSiteKey', 'site-key'],
        ['TurnstileSecretKey', SECRET],
        ['TurnstileCheckEnabled', 'true'],
      ]) {
        expect((await admin.put('/api/option/', { key, value })).success).toBe(true);
      }
      const login = await new ApiClient(cut.baseUrl).post('/api/user/login?turnstile=good-token', ROOT);
      expect(login).toMatchObject({ success: false, message: FAILED });
    } finally {
      await cut.close();
    }
  });
});

function query(turnstile: string | undefined, joiner = '?'): string {
  return turnstile === undefined ? '' : `${joiner}turnstile=${encodeURIComponent(turnstile)}`;
}
