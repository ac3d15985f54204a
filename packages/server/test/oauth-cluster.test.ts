import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupAndLogin } from './helpers/client.js';
import { availableDialects, REDIS_URL } from './helpers/databases.js';
import { type FakeOAuthServer, fakeOAuthEnv, startFakeOAuth } from './helpers/fake-oauth.js';
import { OAuthBrowser, raceGithubNewcomer } from './helpers/fake-oauth-browser.js';
import { requireRedisInCi } from './helpers/redis.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const hasRedis = await requireRedisInCi('third-party sign-in across two nodes is skipped');
const hasPostgres = (await availableDialects()).includes('postgres');

/** Two nodes on one PostgreSQL database and one Redis: a newcomer's two callbacks, one on each node. */
describe.skipIf(!hasRedis || !hasPostgres)('third-party sign-in across two nodes', () => {
  let first: TestServer;
  let second: TestServer;
  let github: FakeOAuthServer;

  beforeAll(async () => {
    github = await startFakeOAuth('github');
    const env = { ...fakeOAuthEnv({ github }), REDIS_CONN_STRING: REDIS_URL };
    first = await startTestServer('postgres', env);
    const root = await setupAndLogin(first.baseUrl);
    for (const [key, value] of [
      ['GitHubClientId', github.clientId],
      ['GitHubClientSecret', github.clientSecret],
      ['GitHubOAuthEnabled', 'true'],
    ]) {
      const result = await root.put('/api/option/', { key, value });
      if (!result.success) throw new Error(result.message);
    }
    second = await startTestServer('postgres', env, first.database);
    github.registeredCallback = `${first.baseUrl}/oauth/github`;
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await github?.close();
  });

  it('creates exactly one account when the same newcomer arrives on both nodes at once', async () => {
    github.person = { id: 60606, login: 'two-nodes' };
    const before = await first.ctx.repos.users.count();
    const results = await raceGithubNewcomer(
      [new OAuthBrowser(first.baseUrl), new OAuthBrowser(second.baseUrl)],
      github,
    );
    expect(results.map((result) => result.success)).toEqual([true, true]);
    expect(results[0]!.data.id).toBe(results[1]!.data.id);
    expect(await first.ctx.repos.users.count()).toBe(before + 1);
  });
});
