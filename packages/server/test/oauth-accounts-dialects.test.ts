import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { type FakeOAuthServer, fakeOAuthEnv, startFakeOAuth } from './helpers/fake-oauth.js';
import { OAuthBrowser, raceGithubNewcomer } from './helpers/fake-oauth-browser.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const dialects = await availableDialects();

/** The account writes of a provider sign-in (insert, inviter update, logs, binding) on every database engine. */
describe.each(dialects)('third-party accounts on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;
  let github: FakeOAuthServer;

  beforeAll(async () => {
    github = await startFakeOAuth('github');
    server = await startTestServer(dialect, fakeOAuthEnv({ github }));
    github.registeredCallback = `${server.baseUrl}/oauth/github`;
    root = await setupAndLogin(server.baseUrl);
    for (const [key, value] of [
      ['GitHubClientId', github.clientId],
      ['GitHubClientSecret', github.clientSecret],
      ['GitHubOAuthEnabled', 'true'],
      ['QuotaForNewUser', '100'],
      ['QuotaForInviter', '30'],
      ['QuotaForInvitee', '20'],
    ]) {
      const result = await root.put('/api/option/', { key, value });
      if (!result.success) throw new Error(result.message);
    }
  });
  afterAll(async () => {
    await server?.close();
    await github?.close();
  });

  it('creates one account with the invite rewards, signs in to it again, and refuses its id to others', async () => {
    const inviterId = await server.ctx.repos.users.insert({ username: 'inviter', aff_code: 'Zz99' });
    github.person = { id: 31337, login: 'dialect-user', name: 'Dialect User' };
    const first = await new OAuthBrowser(server.baseUrl).providerJourney<{ id: number; username: string }>('github', {
      aff: 'Zz99',
    });
    expect(first.result.success).toBe(true);
    expect(first.result.data.username).toBe(`github_${first.result.data.id}`);
    expect(await server.ctx.repos.users.findById(first.result.data.id)).toMatchObject({
      github_id: '31337',
      quota: 120,
      inviter_id: inviterId,
    });
    expect(await server.ctx.repos.users.findById(inviterId)).toMatchObject({ aff_count: 1, aff_quota: 30 });

    const again = await new OAuthBrowser(server.baseUrl).providerJourney<{ id: number }>('github');
    expect(again.result.data.id).toBe(first.result.data.id);

    const { hashPassword } = await import('../src/auth/password.js');
    await server.ctx.repos.users.insert({ username: 'other', password: await hashPassword('other-pass1') });
    const other = new OAuthBrowser(server.baseUrl);
    await other.passwordLogin('other', 'other-pass1');
    expect((await other.providerJourney('github', { intent: 'bind' })).result.message).toBe(
      '该 GitHub 账户已被其他用户绑定',
    );
  });

  // On SQLite every query completes synchronously, so only the networked engines can interleave the two callbacks.
  it.skipIf(dialect === 'sqlite')(
    'creates exactly one account when the same newcomer’s two callbacks arrive at once',
    async () => {
      github.person = { id: 40404, login: 'double-click' };
      const before = await server.ctx.repos.users.count();
      const results = await raceGithubNewcomer(
        [new OAuthBrowser(server.baseUrl), new OAuthBrowser(server.baseUrl)],
        github,
      );
      expect(results.map((result) => result.success)).toEqual([true, true]);
      expect(results[0]!.data.id).toBe(results[1]!.data.id);
      expect(await server.ctx.repos.users.count()).toBe(before + 1);
    },
  );
});
