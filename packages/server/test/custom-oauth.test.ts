import type { CustomOAuthDiscoveryView, CustomOAuthProviderView, UserOAuthBindingView } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/auth/password.js';
import { type ApiClient, ROLE_REFUSED, refusal, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { type FakeOAuthServer, NESTED_CLAIMS, startFakeOAuth } from './helpers/fake-oauth.js';
import { OAuthBrowser } from './helpers/fake-oauth-browser.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const dialects = await availableDialects();
const SECRET = 'custom-provider-secret-9f3a';

/** Providers the root adds in the settings, signing people in through the same redirect flow as the built-ins. */
describe.each(dialects)('custom OAuth providers on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;
  let fake: FakeOAuthServer;
  let provider: CustomOAuthProviderView;

  beforeAll(async () => {
    // A provider with its own userinfo layout that insists on PKCE.
    fake = await startFakeOAuth('oidc', { clientSecret: SECRET, requirePkce: true, userinfo: NESTED_CLAIMS });
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
    for (const [key, value] of [
      ['fetch_setting.allow_private_ip', 'true'],
      ['ServerAddress', server.baseUrl],
      ['QuotaForNewUser', '100'],
    ]) {
      const result = await root.put('/api/option/', { key, value });
      if (!result.success) throw new Error(result.message);
    }
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  it('lets only root list, add, read, change and delete providers, and never hands the secret back', async () => {
    const discovered = await root.post<CustomOAuthDiscoveryView>('/api/custom-oauth-provider/discovery', {
      well_known_url: fake.endpoints.wellKnown,
    });
    expect(discovered.data.discovery).toMatchObject({ token_endpoint: fake.endpoints.token });

    const created = await root.post<CustomOAuthProviderView>('/api/custom-oauth-provider/', {
      name: 'Acme ID',
      slug: 'acme',
      icon: 'acme',
      enabled: true,
      client_id: fake.clientId,
      client_secret: SECRET,
      authorization_endpoint: discovered.data.discovery.authorization_endpoint,
      token_endpoint: discovered.data.discovery.token_endpoint,
      user_info_endpoint: discovered.data.discovery.userinfo_endpoint,
      well_known: fake.endpoints.wellKnown,
      scopes: 'openid profile email',
      user_id_field: 'data.user.uid',
      username_field: 'data.user.login',
      display_name_field: 'data.user.profile.nickname',
      email_field: 'data.user.emails.0.value',
    });
    expect(created.success).toBe(true);
    provider = created.data;
    expect(provider).toMatchObject({ slug: 'acme', enabled: true, client_secret_set: true, kind: 'oauth_code' });

    const answers = [
      created,
      await root.get(`/api/custom-oauth-provider/`),
      await root.get(`/api/custom-oauth-provider/${provider.id}`),
      // An edit without a secret keeps the stored one (the console has none to send back).
      await root.put(`/api/custom-oauth-provider/${provider.id}`, { name: 'Acme Identity', client_secret: '' }),
      await root.get('/api/status'),
    ];
    for (const answer of answers) {
      expect(answer.success).toBe(true);
      expect(JSON.stringify(answer.data)).not.toContain(SECRET);
      expect(JSON.stringify(answer.data)).not.toContain('client_secret"');
    }
    // Stored sealed, not as typed.
    const row = await server.ctx.repos.customOAuth.find(provider.id);
    expect(row?.client_secret).not.toContain(SECRET);
    expect((answers[4]!.data as { custom_oauth_providers: unknown[] }).custom_oauth_providers).toEqual([
      expect.objectContaining({ slug: 'acme', name: 'Acme Identity', client_id: fake.clientId }),
    ]);

    expect((await root.post('/api/custom-oauth-provider/', { ...provider, slug: 'acme' })).message).toBe(
      '该 Slug 已被使用',
    );
    expect((await root.post('/api/custom-oauth-provider/', { ...provider, slug: 'github' })).message).toBe(
      '该 Slug 与内置 OAuth 提供商冲突',
    );
    expect((await root.post('/api/custom-oauth-provider/', { ...provider, slug: 'Bad Slug' })).success).toBe(false);

    const adminId = await server.ctx.repos.users.insert({
      username: 'an-admin',
      password: await hashPassword('an-admin-pass'),
      role: 10,
    });
    expect(adminId).toBeGreaterThan(0);
    const { ApiClient: Client } = await import('./helpers/client.js');
    const admin = new Client(server.baseUrl);
    await admin.login('an-admin', 'an-admin-pass');
    const user = await signedInUser(server.baseUrl, server.ctx.repos, 'plain-user');
    for (const caller of [admin, user]) {
      expect(refusal(await caller.get('/api/custom-oauth-provider/'))).toEqual(ROLE_REFUSED);
      expect(refusal(await caller.get(`/api/custom-oauth-provider/${provider.id}`))).toEqual(ROLE_REFUSED);
      expect(refusal(await caller.post('/api/custom-oauth-provider/', { ...provider, slug: 'x' }))).toEqual(
        ROLE_REFUSED,
      );
      expect(refusal(await caller.put(`/api/custom-oauth-provider/${provider.id}`, { enabled: false }))).toEqual(
        ROLE_REFUSED,
      );
      expect(refusal(await caller.delete(`/api/custom-oauth-provider/${provider.id}`))).toEqual(ROLE_REFUSED);
      expect(
        refusal(
          await caller.post('/api/custom-oauth-provider/discovery', { well_known_url: fake.endpoints.wellKnown }),
        ),
      ).toEqual(ROLE_REFUSED);
    }
    expect((await server.ctx.repos.customOAuth.find(provider.id))?.enabled).toBe(1);

    const scratch = await root.post<CustomOAuthProviderView>('/api/custom-oauth-provider/', {
      ...provider,
      slug: 'scratch',
      client_secret: 'x',
    });
    expect((await root.delete(`/api/custom-oauth-provider/${scratch.data.id}`)).success).toBe(true);
    expect((await root.get(`/api/custom-oauth-provider/${scratch.data.id}`)).success).toBe(false);

    // Root's changes are in the audit log, the secret only as "changed".
    const audit = await root.get<{ items: Array<{ action: string; diff: string }> }>(
      '/api/audit/?target_type=custom_oauth&page_size=50',
    );
    expect(audit.data.items.map((item) => item.action)).toEqual(
      expect.arrayContaining(['custom_oauth.create', 'custom_oauth.update', 'custom_oauth.delete']),
    );
    expect(JSON.stringify(audit.data)).not.toContain(SECRET);
  });

  it('signs a newcomer in with PKCE, reading id, login, name and address by their dotted paths', async () => {
    fake.person = { id: 7001, login: 'ada', name: 'Ada Lovelace', email: 'ada@acme.test' };
    fake.received.length = 0;
    const browser = new OAuthBrowser(server.baseUrl);
    const first = await browser.providerJourney<{ id: number; username: string; display_name: string }>('acme');
    expect(first.result.success, first.result.message).toBe(true);
    const authorize = new URL(first.start.data.url);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${server.baseUrl}/oauth/acme`);
    // The token request carried the verifier, and the fake checked it against the challenge.
    const tokenCall = fake.received.find((call) => call.path === '/token')!;
    expect(new URLSearchParams(tokenCall.body).get('code_verifier')).toMatch(/^[\w-]{43,128}$/);

    const account = await server.ctx.repos.users.findById(first.result.data.id);
    expect(account).toMatchObject({
      username: `acme_${first.result.data.id}`,
      display_name: 'Ada Lovelace',
      email: 'ada@acme.test',
      quota: 100,
    });
    expect(await server.ctx.repos.customOAuth.userIdFor(provider.id, '7001')).toBe(first.result.data.id);

    const again = await new OAuthBrowser(server.baseUrl).providerJourney<{ id: number }>('acme');
    expect(again.result.data.id).toBe(first.result.data.id);
  });

  it('refuses a callback whose state is not the one this browser was given, or that lacks the PKCE verifier', async () => {
    fake.person = { id: 7002, login: 'eve' };
    const browser = new OAuthBrowser(server.baseUrl);
    const start = await browser.get<{ url: string }>('/api/oauth/acme/authorize');
    const back = await browser.authorizeAt(start.data.url);
    const forged = new URLSearchParams(back.search);
    forged.set('state', 'not-the-state');
    const answer = await browser.get(`/api/oauth/acme?${forged}`);
    expect(answer).toMatchObject({ success: false, message: 'state 无效或已过期，请重新发起登录' });

    // Another browser, with no flow cookie, cannot finish this one's attempt either.
    expect((await new OAuthBrowser(server.baseUrl).get(`/api/oauth/acme${back.search}`)).success).toBe(false);

    // The provider refuses an exchange whose verifier does not match the challenge it was given.
    const direct = await fetch(fake.endpoints.token, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: `${server.baseUrl}/oauth/acme`,
        client_id: fake.clientId,
        client_secret: SECRET,
        code_verifier: 'a'.repeat(50),
      }),
    });
    expect(await direct.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: 'PKCE verification failed',
    });
    expect(await server.ctx.repos.customOAuth.userIdFor(provider.id, '7002')).toBeUndefined();
  });

  it('binds and unbinds on the personal page, and never lets one account’s binding sign in as another', async () => {
    const bob = await signedInUser(server.baseUrl, server.ctx.repos, 'bob');
    const bobBrowser = new OAuthBrowser(server.baseUrl);
    await bobBrowser.passwordLogin('bob', 'bob-password');
    fake.person = { id: 7100, login: 'bob-at-acme', name: 'Bob' };
    const bound = await bobBrowser.providerJourney('acme', { intent: 'bind' });
    expect(bound.result).toMatchObject({ success: true, message: 'bind' });
    const list = await bob.get<UserOAuthBindingView[]>('/api/user/oauth/bindings');
    expect(list.data).toEqual([
      {
        provider_id: provider.id,
        provider_name: 'Acme Identity',
        provider_slug: 'acme',
        provider_icon: 'acme',
        provider_user_id: '7100',
      },
    ]);
    // An admin sees it on the user's detail.
    const admin = await root.get<UserOAuthBindingView[]>(`/api/user/${bob.userId}/oauth/bindings`);
    expect(admin.data).toHaveLength(1);

    // Carol cannot take Bob's identity at Acme, and signing in with it lands in Bob's account, not hers.
    const carolBrowser = new OAuthBrowser(server.baseUrl);
    await signedInUser(server.baseUrl, server.ctx.repos, 'carol');
    await carolBrowser.passwordLogin('carol', 'carol-password');
    const stolen = await carolBrowser.providerJourney('acme', { intent: 'bind' });
    expect(stolen.result).toMatchObject({ success: false, message: '该 Acme Identity 账户已被其他用户绑定' });
    const signIn = await new OAuthBrowser(server.baseUrl).providerJourney<{ id: number }>('acme');
    expect(signIn.result.data.id).toBe(bob.userId);

    // A provider someone is bound to is not deleted (as the family).
    expect((await root.delete(`/api/custom-oauth-provider/${provider.id}`)).message).toContain('还有用户绑定');

    expect((await bob.delete(`/api/user/oauth/bindings/${provider.id}`)).success).toBe(true);
    expect((await bob.get<UserOAuthBindingView[]>('/api/user/oauth/bindings')).data).toEqual([]);
    expect((await bob.delete(`/api/user/oauth/bindings/${provider.id}`)).success).toBe(false);
    expect(await server.ctx.repos.customOAuth.userIdFor(provider.id, '7100')).toBeUndefined();
  });

  it('refuses sign-in and its callback while the provider is disabled', async () => {
    fake.person = { id: 7200, login: 'late' };
    const browser = new OAuthBrowser(server.baseUrl);
    const start = await browser.get<{ url: string }>('/api/oauth/acme/authorize');
    const back = await browser.authorizeAt(start.data.url);
    expect((await root.put(`/api/custom-oauth-provider/${provider.id}`, { enabled: false })).success).toBe(true);
    const refused = await browser.get(`/api/oauth/acme${back.search}`);
    expect(refused).toMatchObject({ success: false, message: '管理员未开启通过 Acme Identity 登录以及注册' });
    expect((await browser.get('/api/oauth/acme/authorize')).success).toBe(false);
    expect((await root.get<{ custom_oauth_providers: unknown[] }>('/api/status')).data.custom_oauth_providers).toEqual(
      [],
    );
    expect(await server.ctx.repos.customOAuth.userIdFor(provider.id, '7200')).toBeUndefined();
    await root.put(`/api/custom-oauth-provider/${provider.id}`, { enabled: true });
  });
});
