import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { type FakeOAuthServer, fakeOAuthEnv, startFakeOAuth } from './helpers/fake-oauth.js';
import { OAuthBrowser } from './helpers/fake-oauth-browser.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * GitHub, LinuxDO and OIDC sign-in and binding against local authorisation servers speaking each provider's wire
 * format, with the browser's part (cookie, redirect, callback) played over real HTTP.
 */
describe('third-party sign-in through redirect providers', () => {
  let server: TestServer;
  let root: ApiClient;
  let github: FakeOAuthServer;
  let linuxdo: FakeOAuthServer;
  let oidc: FakeOAuthServer;

  const setOption = async (key: string, value: string) => {
    const result = await root.put('/api/option/', { key, value });
    if (!result.success) throw new Error(`option ${key}: ${result.message}`);
  };
  const userRow = (id: number) => server.ctx.repos.users.findById(id);
  const userCount = () => server.ctx.repos.users.count();
  const browser = () => new OAuthBrowser(server.baseUrl);

  beforeAll(async () => {
    [github, linuxdo, oidc] = await Promise.all([
      startFakeOAuth('github'),
      startFakeOAuth('linuxdo'),
      startFakeOAuth('oidc'),
    ]);
    server = await startTestServer('sqlite', fakeOAuthEnv({ github, linuxdo }));
    github.registeredCallback = `${server.baseUrl}/oauth/github`;
    linuxdo.registeredCallback = `${server.baseUrl}/oauth/linuxdo`;
    root = await setupAndLogin(server.baseUrl);
    await setOption('GitHubClientId', github.clientId);
    await setOption('GitHubClientSecret', github.clientSecret);
    await setOption('GitHubOAuthEnabled', 'true');
    await setOption('LinuxDOClientId', linuxdo.clientId);
    await setOption('LinuxDOClientSecret', linuxdo.clientSecret);
    await setOption('LinuxDOOAuthEnabled', 'true');
    await setOption('oidc.client_id', oidc.clientId);
    await setOption('oidc.client_secret', oidc.clientSecret);
    await setOption('oidc.authorization_endpoint', oidc.endpoints.authorize);
    await setOption('oidc.token_endpoint', oidc.endpoints.token);
    await setOption('oidc.user_info_endpoint', oidc.endpoints.user);
    await setOption('oidc.enabled', 'true');
    await setOption('fetch_setting.allow_private_ip', 'true');
    await setOption('QuotaForNewUser', '1000');
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([github?.close(), linuxdo?.close(), oidc?.close()]);
  });
  beforeEach(() => {
    for (const fake of [github, linuxdo, oidc]) fake.received.length = 0;
  });

  describe('GitHub', () => {
    it('creates an account on the first sign-in and signs the same person in to it again later', async () => {
      github.person = { id: 5001, login: 'octo', name: 'Octo Cat', email: 'octo@example.com' };
      const first = browser();
      const { start, callback, result } = await first.providerJourney<{ id: number; username: string }>('github');
      expect(new URL(start.data.url).origin).toBe(github.baseUrl);
      expect(new URL(start.data.url).searchParams.get('client_id')).toBe(github.clientId);
      expect(callback.pathname).toBe('/oauth/github');
      expect(result).toMatchObject({ success: true, message: '登录成功！' });
      expect(result.data.username).toMatch(/^github_\d+$/);
      const created = await userRow(result.data.id);
      expect(created).toMatchObject({
        github_id: '5001',
        display_name: 'Octo Cat',
        email: 'octo@example.com',
        quota: 1000,
        password: '',
      });
      // A session like a password login's: the console's own calls work with it.
      expect((await first.get<{ id: number }>('/api/user/self')).data.id).toBe(result.data.id);
      expect(first.hasCookie('oauth_flow')).toBe(false);
      const tokenRequest = github.received.find((request) => request.path === '/login/oauth/access_token');
      expect(JSON.parse(tokenRequest!.body)).toMatchObject({
        client_id: github.clientId,
        client_secret: github.clientSecret,
      });

      const count = await userCount();
      const again = await browser().providerJourney<{ id: number }>('github');
      expect(again.result.success).toBe(true);
      expect(again.result.data.id).toBe(result.data.id);
      expect(await userCount()).toBe(count);
    });

    it('matches an account the family bound by login name and stores the stable numeric id instead', async () => {
      const id = await server.ctx.repos.users.insert({ username: 'legacy-gh', github_id: 'old-login' });
      github.person = { id: 5002, login: 'old-login' };
      const { result } = await browser().providerJourney<{ id: number }>('github');
      expect(result.data.id).toBe(id);
      expect((await userRow(id))?.github_id).toBe('5002');
    });

    it('honours the invite code carried by the state: inviter link, both rewards and their log lines', async () => {
      await setOption('QuotaForInviter', '300');
      await setOption('QuotaForInvitee', '200');
      const inviterId = await server.ctx.repos.users.insert({ username: 'inviter1', aff_code: 'AbCd' });
      github.person = { id: 5003, login: 'invitee' };
      const { result } = await browser().providerJourney<{ id: number }>('github', { aff: 'AbCd' });
      expect(result.success).toBe(true);
      expect(await userRow(result.data.id)).toMatchObject({ inviter_id: inviterId, quota: 1200 });
      expect(await userRow(inviterId)).toMatchObject({ aff_count: 1, aff_quota: 300, aff_history_quota: 300 });
      const logs = await server.ctx.db.kysely
        .selectFrom('logs')
        .select(['user_id', 'type', 'quota', 'content'])
        .where('user_id', 'in', [inviterId, result.data.id])
        .execute();
      expect(logs.map((log) => [log.user_id, log.type, log.quota]).sort()).toEqual(
        [
          [result.data.id, 4, 1000],
          [result.data.id, 4, 200],
          [inviterId, 4, 300],
        ].sort(),
      );
      await setOption('QuotaForInviter', '0');
      await setOption('QuotaForInvitee', '0');
    });

    it('refuses a callback without the flow cookie, with another state, or a state made for another provider', async () => {
      github.person = { id: 5004, login: 'mallory' };
      const before = await userCount();
      const victim = browser();
      const start = await victim.get<{ url: string }>('/api/oauth/github/authorize');
      const callback = await victim.authorizeAt(start.data.url);

      // Someone else's browser (no flow cookie) cannot use the code and state.
      expect(await browser().get(`/api/oauth/github${callback.search}`)).toMatchObject({
        success: false,
        message: 'state 无效或已过期，请重新发起登录',
      });
      const forged = new URLSearchParams(callback.search);
      forged.set('state', 'forged-state');
      expect((await victim.get(`/api/oauth/github?${forged}`)).message).toBe('state 无效或已过期，请重新发起登录');
      // The GitHub flow's state is no good at the LinuxDO callback.
      expect((await victim.get(`/api/oauth/linuxdo${callback.search}`)).message).toBe(
        'state 无效或已过期，请重新发起登录',
      );
      const noCode = new URLSearchParams(callback.search);
      noCode.delete('code');
      expect((await victim.get(`/api/oauth/github?${noCode}`)).message).toBe('缺少授权码，请重新发起登录');
      expect(await userCount()).toBe(before);

      // The genuine browser still completes, once; the provider refuses the used code afterwards.
      const done = await victim.get<{ id: number }>(`/api/oauth/github${callback.search}`);
      expect(done.success).toBe(true);
      const replay = browser();
      victim.copyCookieTo(replay, 'oauth_flow');
      expect((await replay.get(`/api/oauth/github${callback.search}`)).success).toBe(false);
    });

    it('reports the provider refusing the code in the spec words and creates nothing', async () => {
      github.person = { id: 5005, login: 'badcode' };
      const before = await userCount();
      const b = browser();
      const start = await b.get<{ url: string }>('/api/oauth/github/authorize');
      const callback = await b.authorizeAt(start.data.url);
      const wrongCode = new URLSearchParams(callback.search);
      wrongCode.set('code', 'not-a-code');
      const result = await b.get(`/api/oauth/github?${wrongCode}`);
      expect(result).toMatchObject({
        success: false,
        message: 'GitHub 授权失败：bad_verification_code: The code passed is incorrect or expired.',
      });
      expect(await userCount()).toBe(before);
    });

    it('refuses everything while GitHub sign-in is switched off', async () => {
      await setOption('GitHubOAuthEnabled', 'false');
      try {
        const b = browser();
        expect(await b.get('/api/oauth/github/authorize')).toMatchObject({
          success: false,
          message: '管理员未开启通过 GitHub 登录以及注册',
        });
        const state = await b.get<string>('/api/oauth/state');
        expect((await b.get(`/api/oauth/github?code=x&state=${state.data}`)).message).toBe(
          '管理员未开启通过 GitHub 登录以及注册',
        );
      } finally {
        await setOption('GitHubOAuthEnabled', 'true');
      }
    });

    it('creates no account while registration is closed, but bound accounts still sign in', async () => {
      await setOption('RegisterEnabled', 'false');
      try {
        github.person = { id: 5006, login: 'latecomer' };
        const before = await userCount();
        const { result } = await browser().providerJourney('github');
        expect(result).toMatchObject({ success: false, message: '管理员关闭了新用户注册' });
        expect(await userCount()).toBe(before);
        github.person = { id: 5001, login: 'octo' };
        expect((await browser().providerJourney('github')).result.success).toBe(true);
      } finally {
        await setOption('RegisterEnabled', 'true');
      }
    });

    it('refuses banned and deregistered accounts', async () => {
      const banned = await server.ctx.repos.users.insert({ username: 'banned-gh', github_id: '5007', status: 2 });
      github.person = { id: 5007, login: 'banned' };
      expect((await browser().providerJourney('github')).result).toMatchObject({
        success: false,
        message: '用户已被封禁',
      });
      await server.ctx.repos.users.insert({ username: 'gone-gh', github_id: '5008', deleted_at: 1 });
      github.person = { id: 5008, login: 'gone' };
      const before = await userCount();
      expect((await browser().providerJourney('github')).result).toMatchObject({
        success: false,
        message: '该用户已注销',
      });
      expect(await userCount()).toBe(before);
      expect((await userRow(banned))?.last_login_at).toBe(0);
    });

    it('binds to the signed-in account, refuses an id bound elsewhere, and then signs in to that account', async () => {
      const { hashPassword } = await import('../src/auth/password.js');
      const aliceId = await server.ctx.repos.users.insert({
        username: 'alice-gh',
        password: await hashPassword('alice-password'),
      });
      await server.ctx.repos.users.insert({ username: 'bob-gh', password: await hashPassword('bob-password') });
      const alice = browser();
      await alice.passwordLogin('alice-gh', 'alice-password');
      github.person = { id: 5010, login: 'alice-on-github' };
      const bound = await alice.providerJourney('github', { intent: 'bind' });
      expect(bound.result).toMatchObject({ success: true, message: 'bind' });
      expect((await userRow(aliceId))?.github_id).toBe('5010');

      const bob = browser();
      await bob.passwordLogin('bob-gh', 'bob-password');
      const stolen = await bob.providerJourney('github', { intent: 'bind' });
      expect(stolen.result).toMatchObject({ success: false, message: '该 GitHub 账户已被其他用户绑定' });
      // The first account created above holds 5001 too: binding it to Bob is refused the same way.
      github.person = { id: 5001, login: 'octo' };
      expect((await bob.providerJourney('github', { intent: 'bind' })).result.success).toBe(false);

      github.person = { id: 5010, login: 'alice-on-github' };
      const signIn = await browser().providerJourney<{ id: number }>('github');
      expect(signIn.result.data.id).toBe(aliceId);
    });

    it('binds nothing when the session that started the binding is gone, and needs a session to start one', async () => {
      expect((await browser().get('/api/oauth/github/authorize?intent=bind')).status).toBe(401);
      const { hashPassword } = await import('../src/auth/password.js');
      const carolId = await server.ctx.repos.users.insert({
        username: 'carol-gh',
        password: await hashPassword('carol-password'),
      });
      const carol = browser();
      await carol.passwordLogin('carol-gh', 'carol-password');
      github.person = { id: 5011, login: 'carol' };
      const start = await carol.get<{ url: string }>('/api/oauth/github/authorize?intent=bind');
      const callback = await carol.authorizeAt(start.data.url);
      await carol.get('/api/user/logout');
      expect((await carol.get(`/api/oauth/github${callback.search}`)).message).toBe(
        '发起绑定的账户已退出或已切换，请重新绑定',
      );
      expect((await userRow(carolId))?.github_id).toBe('');
    });

    it('finishes on another node of the cluster: the flow cookie carries everything', async () => {
      const second = await startTestServer('sqlite', fakeOAuthEnv({ github, linuxdo }), server.database);
      try {
        github.person = { id: 5014, login: 'roaming' };
        const onFirst = browser();
        const start = await onFirst.get<{ url: string }>('/api/oauth/github/authorize');
        const callback = await onFirst.authorizeAt(start.data.url);
        const onSecond = new OAuthBrowser(second.baseUrl);
        onFirst.copyCookieTo(onSecond, 'oauth_flow');
        const result = await onSecond.get<{ username: string }>(`/api/oauth/github${callback.search}`);
        expect(result.success).toBe(true);
        expect(result.data.username).toMatch(/^github_/);
      } finally {
        await second.close();
      }
    });

    it('accepts the family’s provider-neutral state for a console that builds the URL itself', async () => {
      github.person = { id: 5012, login: 'classic' };
      const b = browser();
      const state = await b.get<string>('/api/oauth/state?aff=');
      expect(state.success).toBe(true);
      expect(state.data).toMatch(/^[\w-]{20,}$/);
      const callback = await b.authorizeAt(
        `${github.endpoints.authorize}?client_id=${github.clientId}&state=${state.data}&scope=user:email`,
      );
      const result = await b.get<{ username: string }>(`/api/oauth/github${callback.search}`);
      expect(result.success).toBe(true);
      expect(result.data.username).toMatch(/^github_/);
    });
  });

  describe('LinuxDO', () => {
    it('signs in with the client authenticated by HTTP Basic and binds the forum id', async () => {
      linuxdo.person = { id: 777, login: 'penguin', name: 'Tux' };
      const { start, result } = await browser().providerJourney<{ id: number; username: string }>('linuxdo');
      expect(new URL(start.data.url).searchParams.get('response_type')).toBe('code');
      expect(result.success).toBe(true);
      expect(result.data.username).toMatch(/^linuxdo_\d+$/);
      expect(await userRow(result.data.id)).toMatchObject({ linux_do_id: '777', display_name: 'Tux' });
      const tokenRequest = linuxdo.received.find((request) => request.path === '/oauth2/token');
      expect(String(tokenRequest?.headers.authorization)).toMatch(/^Basic /);
      expect(tokenRequest?.body).not.toContain(linuxdo.clientSecret);
    });

    it('refuses a silenced or inactive forum account', async () => {
      linuxdo.person = { id: 778, login: 'quiet', silenced: true };
      const before = await userCount();
      expect((await browser().providerJourney('linuxdo')).result).toMatchObject({
        success: false,
        message: '该 LinuxDO 账户未激活或已被禁言',
      });
      expect(await userCount()).toBe(before);
    });
  });

  describe('OIDC', () => {
    it('sends PKCE (S256), nonce and redirect_uri, and the provider’s check of them passes', async () => {
      oidc.person = { id: 'sub-abc', login: 'oidc-person', name: 'Olga', email: 'olga@example.com' };
      const { start, result } = await browser().providerJourney<{ id: number; username: string }>('oidc');
      const authorize = new URL(start.data.url).searchParams;
      expect(authorize.get('code_challenge_method')).toBe('S256');
      expect(authorize.get('code_challenge')).toMatch(/^[\w-]{43}$/);
      expect(authorize.get('nonce')).toBeTruthy();
      expect(authorize.get('scope')).toBe('openid profile email');
      expect(authorize.get('redirect_uri')).toBe(`${server.baseUrl}/oauth/oidc`);
      expect(result).toMatchObject({ success: true, message: '登录成功！' });
      expect(result.data.username).toMatch(/^oidc_\d+$/);
      expect(await userRow(result.data.id)).toMatchObject({ oidc_id: 'sub-abc', email: 'olga@example.com' });
      const tokenRequest = oidc.received.find((request) => request.path === '/token');
      const form = new URLSearchParams(tokenRequest?.body);
      expect(form.get('code_verifier')).toMatch(/^[\w-]{43,128}$/);
      expect(form.get('redirect_uri')).toBe(`${server.baseUrl}/oauth/oidc`);
    });

    it('fails with the provider’s reason when the verifier does not match the challenge', async () => {
      oidc.person = { id: 'sub-pkce' };
      const b = browser();
      const start = await b.get<{ url: string }>('/api/oauth/oidc/authorize');
      // Someone swaps the challenge on the way to the provider: the verifier we hold no longer fits.
      const tampered = new URL(start.data.url);
      tampered.searchParams.set('code_challenge', 'A'.repeat(43));
      const callback = await b.authorizeAt(tampered.toString());
      expect((await b.get(`/api/oauth/oidc${callback.search}`)).message).toBe(
        'OIDC 授权失败：invalid_grant: PKCE verification failed',
      );
    });

    it('keeps an address the provider has not verified out of the account', async () => {
      oidc.person = { id: 'sub-unverified', email: 'someone-else@example.com', email_verified: false };
      const { result } = await browser().providerJourney<{ id: number }>('oidc');
      expect((await userRow(result.data.id))?.email).toBe('');
    });

    it('does not reach a provider on a private address while fetch_setting.allow_private_ip is off', async () => {
      await setOption('fetch_setting.allow_private_ip', 'false');
      try {
        oidc.person = { id: 'sub-private' };
        const { result } = await browser().providerJourney('oidc');
        expect(result.success).toBe(false);
        expect(result.message).toMatch(/^无法连接 OIDC：refused: 127\.0\.0\.1/);
      } finally {
        await setOption('fetch_setting.allow_private_ip', 'true');
      }
    });

    it('answers in English when asked', async () => {
      const b = new OAuthBrowser(server.baseUrl, 'en');
      await setOption('oidc.enabled', 'false');
      try {
        expect((await b.get('/api/oauth/oidc/authorize')).message).toBe(
          'The administrator has not enabled sign-in and registration with OIDC',
        );
      } finally {
        await setOption('oidc.enabled', 'true');
      }
    });

    describe('discovery for the settings page', () => {
      it('reads the well-known document into the endpoints', async () => {
        const result = await root.post('/api/oauth/oidc/discovery', { well_known: oidc.endpoints.wellKnown });
        expect(result).toMatchObject({
          success: true,
          data: {
            authorization_endpoint: oidc.endpoints.authorize,
            token_endpoint: oidc.endpoints.token,
            userinfo_endpoint: oidc.endpoints.user,
            issuer: oidc.baseUrl,
          },
        });
      });

      it('is for admins only and takes only http(s) URLs that answer with a document', async () => {
        const visitor = browser();
        expect((await visitor.post('/api/oauth/oidc/discovery', { well_known: oidc.endpoints.wellKnown })).status).toBe(
          401,
        );
        const { hashPassword } = await import('../src/auth/password.js');
        await server.ctx.repos.users.insert({ username: 'plain-user', password: await hashPassword('plain-pass1') });
        const plain = browser();
        await plain.passwordLogin('plain-user', 'plain-pass1');
        // Refused as the family refuses a role: HTTP 200, success false.
        expect(await plain.post('/api/oauth/oidc/discovery', { well_known: oidc.endpoints.wellKnown })).toMatchObject({
          status: 200,
          success: false,
          message: '无权进行此操作，权限不足',
        });
        for (const wellKnown of ['ftp://example.com/.well-known/openid-configuration', '', 42]) {
          expect(await root.post('/api/oauth/oidc/discovery', { well_known: wellKnown })).toMatchObject({
            success: false,
            message: 'Well-Known URL 必须以 http:// 或 https:// 开头',
          });
        }
        expect((await root.post('/api/oauth/oidc/discovery', { well_known: `${oidc.baseUrl}/missing` })).message).toBe(
          '获取 OIDC 配置失败：HTTP 404',
        );
        await setOption('fetch_setting.allow_private_ip', 'false');
        try {
          const blocked = await root.post('/api/oauth/oidc/discovery', { well_known: oidc.endpoints.wellKnown });
          expect(blocked.message).toMatch(/^获取 OIDC 配置失败：refused/);
        } finally {
          await setOption('fetch_setting.allow_private_ip', 'true');
        }
      });
    });
  });
});
