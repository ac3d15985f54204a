import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../src/cache/redis.js';
import {
  MAX_CODE_ATTEMPTS,
  memoryCodeStore,
  redisCodeStore,
  type VerificationCodeStore,
} from '../src/services/accounts/verification-codes.js';
import { ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects, REDIS_URL } from './helpers/databases.js';
import { codeFrom, smtpOptions } from './helpers/mailbox.js';
import { requireRedisInCi } from './helpers/redis.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type ReceivedMail, startSmtpReceiver } from './helpers/smtp.js';

const dialects = await availableDialects();

const hasRedis = await requireRedisInCi();

type Smtp = Awaited<ReturnType<typeof startSmtpReceiver>>;

async function mailTo(smtp: Smtp, email: string, count = 1): Promise<ReceivedMail> {
  await expect.poll(() => smtp.mails.filter((mail) => mail.to.includes(email)).length, { timeout: 5000 }).toBe(count);
  return smtp.mails.filter((mail) => mail.to.includes(email)).at(-1)!;
}

// Each call comes from its own address (through a trusted proxy), so the per-IP mail limit only bites where a
// test wants it to.
let nextIp = 1;
const freshIp = () => ({ 'x-forwarded-for': `10.0.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}` });

describe.each(dialects)('e-mail verification codes and e-mail binding on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;
  let visitor: ApiClient;
  let smtp: Smtp;

  const setOption = async (key: string, value: string) => {
    expect(await root.put('/api/option/', { key, value }), `${key}=${value}`).toMatchObject({ success: true });
  };
  const requestCode = (email: string, headers = freshIp()) =>
    visitor.get(`/api/verification?email=${encodeURIComponent(email)}`, headers);

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer(dialect, { TRUSTED_PROXIES: '127.0.0.1' });
    root = await setupAndLogin(server.baseUrl);
    visitor = new ApiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('says so when SMTP is not set up, and sends nothing', async () => {
    expect(await requestCode('nosmtp@example.com')).toMatchObject({
      success: false,
      message: '管理员未配置 SMTP 服务，无法发送邮件',
    });
    for (const [key, value] of smtpOptions(smtp.port)) await setOption(key, value);
  });

  it('refuses a missing or malformed address', async () => {
    expect(await visitor.get('/api/verification', freshIp())).toMatchObject({
      success: false,
      message: '请输入邮箱地址',
    });
    expect(await requestCode('')).toMatchObject({ success: false, message: '请输入邮箱地址' });
    expect(await requestCode('not-an-address')).toMatchObject({ success: false, message: '邮箱地址格式错误' });
    expect(smtp.mails).toHaveLength(0);
  });

  it('mails a six-digit code valid ten minutes, in the caller’s language', async () => {
    expect(await requestCode('ann@example.com')).toMatchObject({
      success: true,
      message: '验证码发送成功，请检查你的邮箱！',
    });
    const mail = await mailTo(smtp, 'ann@example.com');
    expect(codeFrom(mail)).toMatch(/^\d{6}$/);
    expect(mail.from).toBe('gateway@example.com');
    const english = new ApiClient(server.baseUrl, 'en');
    expect((await english.get('/api/verification?email=ann.en@example.com', freshIp())).message).toBe(
      'The verification code was sent, please check your mailbox!',
    );
    const { mailBody } = await import('./helpers/mailbox.js');
    expect(mailBody(await mailTo(smtp, 'ann.en@example.com'))).toContain('valid for 10 minutes');
  });

  it('enforces the domain whitelist and the alias restriction on the server', async () => {
    await setOption('EmailDomainWhitelist', 'example.com,gmail.com');
    await setOption('EmailDomainRestrictionEnabled', 'true');
    expect(await requestCode('someone@elsewhere.org')).toMatchObject({
      success: false,
      message: '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中',
    });
    expect((await requestCode('someone@EXAMPLE.com')).success).toBe(true);
    await setOption('EmailDomainRestrictionEnabled', 'false');

    await setOption('EmailAliasRestrictionEnabled', 'true');
    const alias = '管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。';
    expect(await requestCode('a+b@example.com')).toMatchObject({ success: false, message: alias });
    expect(await requestCode('first.last@gmail.com')).toMatchObject({ success: false, message: alias });
    expect(await requestCode('first.last@googlemail.com')).toMatchObject({ success: false, message: alias });
    // Dots are a different mailbox elsewhere, so they are fine there.
    expect((await requestCode('first.last@example.com')).success).toBe(true);
    expect((await requestCode('firstlast@gmail.com')).success).toBe(true);
    await setOption('EmailAliasRestrictionEnabled', 'false');
  });

  it('refuses an address another account already holds', async () => {
    const holder = await signedInUser(server.baseUrl, server.ctx.repos, 'holder');
    await server.ctx.repos.users.update(holder.userId!, { email: 'taken@example.com' });
    expect(await requestCode('taken@example.com')).toMatchObject({ success: false, message: '邮箱地址已被占用' });
  });

  it('sends at most two code mails per IP every 30 seconds', async () => {
    const sameIp = { 'x-forwarded-for': '10.9.9.9' };
    expect((await requestCode('limit1@example.com', sameIp)).success).toBe(true);
    expect((await requestCode('limit2@example.com', sameIp)).success).toBe(true);
    const third = await requestCode('limit3@example.com', sameIp);
    expect(third.status).toBe(429);
    expect(third.message).toBe('发送过于频繁，请 30 秒后再试');
    expect((await requestCode('limit3@example.com')).success).toBe(true);
  });

  it('binds an e-mail to the signed-in user with a code that works once', async () => {
    const ben = await signedInUser(server.baseUrl, server.ctx.repos, 'ben');
    const anonymous = await visitor.get('/api/oauth/email/bind?email=ben@example.com&code=123456');
    expect(anonymous.status).toBe(401);
    expect(await ben.get('/api/oauth/email/bind?email=ben@example.com')).toMatchObject({
      success: false,
      message: '请输入邮箱地址和验证码',
    });

    await requestCode('ben@example.com');
    const code = codeFrom(await mailTo(smtp, 'ben@example.com'));
    const wrong = code === '000000' ? '111111' : '000000';
    expect(await ben.get(`/api/oauth/email/bind?email=ben@example.com&code=${wrong}`)).toMatchObject({
      success: false,
      message: '验证码错误或已过期',
    });
    // A code proves one address, not any.
    expect(await ben.get(`/api/oauth/email/bind?email=other@example.com&code=${code}`)).toMatchObject({
      success: false,
      message: '验证码错误或已过期',
    });
    expect(await ben.get(`/api/oauth/email/bind?email=ben@example.com&code=${code}`)).toMatchObject({
      success: true,
      message: '邮箱账户绑定成功！',
    });
    expect((await ben.get<{ email: string }>('/api/user/self')).data.email).toBe('ben@example.com');

    // Used once: the same code no longer binds anything, and nobody else can take the address.
    const cleo = await signedInUser(server.baseUrl, server.ctx.repos, 'cleo');
    expect(await cleo.get(`/api/oauth/email/bind?email=ben@example.com&code=${code}`)).toMatchObject({
      success: false,
      message: '邮箱地址已被占用',
    });
    await requestCode('cleo@example.com');
    const cleoCode = codeFrom(await mailTo(smtp, 'cleo@example.com'));
    expect(await cleo.post('/api/oauth/email/bind', { email: 'cleo@example.com', code: cleoCode })).toMatchObject({
      success: true,
    });
    expect(await cleo.post('/api/oauth/email/bind', { email: 'cleo@example.com', code: cleoCode })).toMatchObject({
      success: false,
      message: '验证码错误或已过期',
    });
  });

  it('wears a code out after too many wrong guesses', async () => {
    const dan = await signedInUser(server.baseUrl, server.ctx.repos, 'dan');
    await requestCode('dan@example.com');
    const code = codeFrom(await mailTo(smtp, 'dan@example.com'));
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt++) {
      await dan.get(`/api/oauth/email/bind?email=dan@example.com&code=${wrong}`);
    }
    expect(await dan.get(`/api/oauth/email/bind?email=dan@example.com&code=${code}`)).toMatchObject({
      success: false,
      message: '验证码错误或已过期',
    });
  });
});

/** The store contract, run against memory and Redis: expiry, single use, a new code replaces the old. */
function storeContract(
  name: string,
  make: () => Promise<{ store: VerificationCodeStore; advance?: (ms: number) => void }>,
) {
  describe(`verification code store: ${name}`, () => {
    const key = () => `contract-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;

    it('accepts the right code once, never a wrong one, and only for its purpose', async () => {
      const { store } = await make();
      const email = key();
      await store.save('email_verification', email, '123456');
      expect(await store.consume('password_reset', email, '123456')).toBe(false);
      expect(await store.consume('email_verification', email, '654321')).toBe(false);
      expect(await store.consume('email_verification', email, '123456')).toBe(true);
      expect(await store.consume('email_verification', email, '123456')).toBe(false);
    });

    it('forgets the earlier code when a new one is sent', async () => {
      const { store } = await make();
      const email = key();
      await store.save('email_verification', email, '111111');
      await store.save('email_verification', email, '222222');
      expect(await store.consume('email_verification', email, '111111')).toBe(false);
      expect(await store.consume('email_verification', email, '222222')).toBe(true);
    });
  });
}

storeContract('memory', async () => ({ store: memoryCodeStore() }));

describe('verification code store: memory expiry', () => {
  it('refuses a code once its ten minutes are over', async () => {
    let now = 1_000_000;
    const store = memoryCodeStore(() => now);
    await store.save('email_verification', 'late@example.com', '123456');
    now += 10 * 60 * 1000 - 1;
    await store.save('email_verification', 'early@example.com', '123456');
    now += 1;
    expect(await store.consume('email_verification', 'late@example.com', '123456')).toBe(false);
    expect(await store.consume('email_verification', 'early@example.com', '123456')).toBe(true);
  });
});

describe.skipIf(!hasRedis)('verification codes across nodes (Redis)', () => {
  let redis: Awaited<ReturnType<typeof connectRedis>>;
  beforeAll(async () => {
    redis = await connectRedis(REDIS_URL);
  });
  afterAll(async () => redis?.close());

  storeContract('redis', async () => ({ store: redisCodeStore(redis) }));

  it('keeps a code in Redis for ten minutes at most', async () => {
    const email = `ttl-${Date.now()}@example.com`;
    await redisCodeStore(redis).save('email_verification', email, '123456');
    const ttl = await redis.client.ttl(`gateway:code:email_verification:${email}`);
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
  });

  it('accepts on node two a code mailed by node one, exactly once even when both are asked at once', async () => {
    const smtp = await startSmtpReceiver();
    const env = { REDIS_CONN_STRING: REDIS_URL };
    const first = await startTestServer('sqlite', env);
    const second = await startTestServer('sqlite', env, first.database);
    try {
      const root = await setupAndLogin(first.baseUrl);
      for (const [key, value] of smtpOptions(smtp.port)) await root.put('/api/option/', { key, value });
      const email = `multi-${Date.now()}@example.com`;
      expect((await new ApiClient(first.baseUrl).get(`/api/verification?email=${email}`)).success).toBe(true);
      const code = codeFrom(await mailTo(smtp, email));
      const onFirst = await signedInUser(first.baseUrl, first.ctx.repos, 'nodeuser1');
      const onSecond = await signedInUser(second.baseUrl, second.ctx.repos, 'nodeuser2');
      const results = await Promise.all([
        onSecond.get(`/api/oauth/email/bind?email=${email}&code=${code}`),
        onFirst.get(`/api/oauth/email/bind?email=${email}&code=${code}`),
      ]);
      expect(results.filter((result) => result.success)).toHaveLength(1);
    } finally {
      await second.close();
      await first.close();
      await smtp.close();
    }
  });
});
