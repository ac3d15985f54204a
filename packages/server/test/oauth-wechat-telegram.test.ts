import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { type FakeOAuthServer, signTelegramLogin, startFakeOAuth } from './helpers/fake-oauth.js';
import { OAuthBrowser } from './helpers/fake-oauth-browser.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const BOT_TOKEN = '123456:telegram-bot-token';

describe('WeChat (through the WeChat server) and Telegram (login widget)', () => {
  let server: TestServer;
  let root: ApiClient;
  let wechat: FakeOAuthServer;

  const setOption = async (key: string, value: string) => {
    const result = await root.put('/api/option/', { key, value });
    if (!result.success) throw new Error(`option ${key}: ${result.message}`);
  };
  const browser = (language = 'zh') => new OAuthBrowser(server.baseUrl, language);
  const userRow = (id: number) => server.ctx.repos.users.findById(id);
  const userCount = () => server.ctx.repos.users.count();
  const signedIn = async (username: string) => {
    const { hashPassword } = await import('../src/auth/password.js');
    const id = await server.ctx.repos.users.insert({ username, password: await hashPassword(`${username}-pw1`) });
    const b = browser();
    await b.passwordLogin(username, `${username}-pw1`);
    return { id, b };
  };
  const now = () => Math.floor(Date.now() / 1000);
  const telegramQuery = (fields: Record<string, string>, token = BOT_TOKEN) =>
    new URLSearchParams(signTelegramLogin(fields, token)).toString();

  beforeAll(async () => {
    wechat = await startFakeOAuth('wechat');
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    await setOption('WeChatServerAddress', `${wechat.baseUrl}/`);
    await setOption('WeChatServerToken', wechat.wechatToken);
    await setOption('WeChatAuthEnabled', 'true');
    await setOption('TelegramBotName', 'gateway_bot');
    await setOption('TelegramBotToken', BOT_TOKEN);
    await setOption('TelegramOAuthEnabled', 'true');
    await setOption('fetch_setting.allow_private_ip', 'true');
  });
  afterAll(async () => {
    await server?.close();
    await wechat?.close();
  });

  describe('WeChat', () => {
    it('turns the verification code into the openid, creates the account once and signs in to it again', async () => {
      wechat.wechatCodes.set('111111', 'openid-one');
      const first = browser();
      const result = await first.get<{ id: number; username: string }>('/api/oauth/wechat?code=111111');
      expect(result).toMatchObject({ success: true, message: '登录成功！' });
      expect(result.data.username).toMatch(/^wechat_\d+$/);
      expect(await userRow(result.data.id)).toMatchObject({ wechat_id: 'openid-one', display_name: 'WeChat User' });
      first.userId = result.data.id;
      expect((await first.get<{ id: number }>('/api/user/self')).data.id).toBe(result.data.id);
      const lookup = wechat.received.at(-1);
      expect(lookup?.path).toBe('/api/wechat/user');
      expect(lookup?.headers.authorization).toBe(wechat.wechatToken);

      wechat.wechatCodes.set('222222', 'openid-one');
      const count = await userCount();
      const again = await browser().get<{ id: number }>('/api/oauth/wechat?code=222222');
      expect(again.data.id).toBe(result.data.id);
      expect(await userCount()).toBe(count);
    });

    it('passes on the WeChat server’s refusal, asks for a missing code, and refuses while switched off', async () => {
      const before = await userCount();
      expect(await browser().get('/api/oauth/wechat?code=999999')).toMatchObject({
        success: false,
        message: 'WeChat 授权失败：验证码错误或已过期',
      });
      expect((await browser().get('/api/oauth/wechat?code=')).message).toBe('请输入验证码');
      expect((await browser('en').get('/api/oauth/wechat')).message).toBe('Please enter the verification code');
      await setOption('WeChatAuthEnabled', 'false');
      try {
        wechat.wechatCodes.set('333333', 'openid-off');
        expect((await browser().get('/api/oauth/wechat?code=333333')).message).toBe(
          '管理员未开启通过 WeChat 登录以及注册',
        );
      } finally {
        await setOption('WeChatAuthEnabled', 'true');
      }
      expect(await userCount()).toBe(before);
    });

    it('does not call a WeChat server on a private address while allow_private_ip is off', async () => {
      await setOption('fetch_setting.allow_private_ip', 'false');
      try {
        wechat.wechatCodes.set('444444', 'openid-private');
        const result = await browser().get('/api/oauth/wechat?code=444444');
        expect(result.message).toMatch(/^无法连接 WeChat：refused/);
        expect(wechat.wechatCodes.has('444444')).toBe(true);
      } finally {
        await setOption('fetch_setting.allow_private_ip', 'true');
      }
    });

    it('binds for a signed-in user only, and never an openid that belongs to someone else', async () => {
      wechat.wechatCodes.set('555555', 'openid-dave');
      expect((await browser().get('/api/oauth/wechat/bind?code=555555')).status).toBe(401);
      const dave = await signedIn('dave-wx');
      expect(await dave.b.get('/api/oauth/wechat/bind?code=555555')).toMatchObject({ success: true });
      expect((await userRow(dave.id))?.wechat_id).toBe('openid-dave');

      const erin = await signedIn('erin-wx');
      wechat.wechatCodes.set('666666', 'openid-dave');
      expect(await erin.b.post('/api/oauth/wechat/bind?code=666666')).toMatchObject({
        success: false,
        message: '该 WeChat 账户已被其他用户绑定',
      });
      expect((await userRow(erin.id))?.wechat_id).toBe('');
    });
  });

  describe('Telegram', () => {
    it('verifies the widget’s signature, creates the account once and signs in to it again', async () => {
      const fields = {
        id: '90001',
        first_name: 'Tele',
        last_name: 'Gram',
        username: 'tg_user',
        auth_date: String(now()),
      };
      const result = await browser().get<{ id: number; username: string }>(
        `/api/oauth/telegram/login?${telegramQuery(fields)}&lang=zh`,
      );
      expect(result).toMatchObject({ success: true, message: '登录成功！' });
      expect(result.data.username).toMatch(/^telegram_\d+$/);
      expect(await userRow(result.data.id)).toMatchObject({ telegram_id: '90001', display_name: 'Tele Gram' });
      const again = await browser().get<{ id: number }>(
        `/api/oauth/telegram/login?${telegramQuery({ ...fields, auth_date: String(now() - 60) })}`,
      );
      expect(again.data.id).toBe(result.data.id);
    });

    it('refuses altered data, another bot’s signature, a missing hash and data older than a day', async () => {
      const before = await userCount();
      const fields = { id: '90002', first_name: 'Eve', auth_date: String(now()) };
      const altered = new URLSearchParams(signTelegramLogin(fields, BOT_TOKEN));
      altered.set('id', '90001');
      const invalid = 'Telegram 登录数据校验失败';
      expect((await browser().get(`/api/oauth/telegram/login?${altered}`)).message).toBe(invalid);
      expect((await browser().get(`/api/oauth/telegram/login?${telegramQuery(fields, '999:other-bot')}`)).message).toBe(
        invalid,
      );
      expect((await browser().get(`/api/oauth/telegram/login?${new URLSearchParams(fields)}`)).message).toBe(invalid);
      const stale = { ...fields, auth_date: String(now() - 86_400 - 5) };
      expect((await browser().get(`/api/oauth/telegram/login?${telegramQuery(stale)}`)).message).toBe(
        'Telegram 登录数据已过期，请重新登录',
      );
      expect(await userCount()).toBe(before);
    });

    it('refuses while switched off, and binds only for a signed-in user and an unclaimed id', async () => {
      const fields = { id: '90003', first_name: 'Fay', auth_date: String(now()) };
      await setOption('TelegramOAuthEnabled', 'false');
      try {
        expect((await browser().get(`/api/oauth/telegram/login?${telegramQuery(fields)}`)).message).toBe(
          '管理员未开启通过 Telegram 登录以及注册',
        );
      } finally {
        await setOption('TelegramOAuthEnabled', 'true');
      }
      expect((await browser().get(`/api/oauth/telegram/bind?${telegramQuery(fields)}`)).status).toBe(401);
      const fay = await signedIn('fay-tg');
      expect(await fay.b.get(`/api/oauth/telegram/bind?${telegramQuery(fields)}`)).toMatchObject({ success: true });
      expect((await userRow(fay.id))?.telegram_id).toBe('90003');
      const gus = await signedIn('gus-tg');
      expect(await gus.b.get(`/api/oauth/telegram/bind?${telegramQuery(fields)}`)).toMatchObject({
        success: false,
        message: '该 Telegram 账户已被其他用户绑定',
      });
      const signIn = await browser().get<{ id: number }>(`/api/oauth/telegram/login?${telegramQuery(fields)}`);
      expect(signIn.data.id).toBe(fay.id);
    });
  });
});
