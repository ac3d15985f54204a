import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { globalScope } from '../src/http/global-rate-limit.js';
import { setupAndLogin } from './helpers/client.js';
import { REDIS_URL } from './helpers/databases.js';
import { requireRedisInCi } from './helpers/redis.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const hasRedis = await requireRedisInCi('the shared global rate limit test is skipped');

// Each test calls from its own made-up address (through a trusted proxy), so counts never leak between tests,
// runs, or other test files sharing the Redis server.
const freshIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const LIMITS = {
  TRUSTED_PROXIES: '127.0.0.1',
  GLOBAL_API_RATE_LIMIT: '3',
  GLOBAL_API_RATE_LIMIT_DURATION: '60',
  GLOBAL_WEB_RATE_LIMIT: '2',
  GLOBAL_WEB_RATE_LIMIT_DURATION: '90',
};

function get(server: TestServer, path: string, ip: string, language = 'zh') {
  return fetch(`${server.baseUrl}${path}`, { headers: { 'x-forwarded-for': ip, 'accept-language': language } });
}

describe('global rate limit settings', () => {
  it('defaults to the family values: API 360 and web 120 per 180 s, both on', () => {
    const config = loadConfig({ SQLITE_PATH: ':memory:', SESSION_SECRET: 'a-session-secret-of-16+' });
    expect(config.globalApiRateLimit).toEqual({ enabled: true, max: 360, windowSeconds: 180 });
    expect(config.globalWebRateLimit).toEqual({ enabled: true, max: 120, windowSeconds: 180 });
  });

  it.each([
    [{ GLOBAL_API_RATE_LIMIT: '0' }, /GLOBAL_API_RATE_LIMIT must be an integer between 1/],
    [{ GLOBAL_API_RATE_LIMIT_DURATION: 'soon' }, /GLOBAL_API_RATE_LIMIT_DURATION must be an integer/],
    [{ GLOBAL_WEB_RATE_LIMIT: '-5' }, /GLOBAL_WEB_RATE_LIMIT must be an integer/],
    [{ GLOBAL_WEB_RATE_LIMIT_ENABLE: 'maybe' }, /GLOBAL_WEB_RATE_LIMIT_ENABLE must be true or false/],
  ])('refuses %o', (env, message) => {
    const load = () => loadConfig({ SQLITE_PATH: ':memory:', SESSION_SECRET: 'a-session-secret-of-16+', ...env });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
  });

  it.each([
    ['/api/status', 'api'],
    ['/api/user/self?x=1', 'api'],
    ['/dashboard/billing/usage', 'api'],
    ['/v1/dashboard/billing/subscription/', 'api'],
    ['/v1/chat/completions', null],
    ['/pg/chat/completions', null],
    ['/', 'web'],
    ['/pricing', 'web'],
    // Files a page pulls in never count: only page loads do.
    ['/assets/index-abc.js', null],
    ['/logo.svg', null],
    ['/token', 'web'],
  ])('%s is limited as %s', (path, scope) => {
    expect(globalScope(path)).toBe(scope);
  });
});

describe('global API and web rate limits in memory', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('sqlite', LIMITS);
    await setupAndLogin(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers the API call over the limit with 429, the envelope and Retry-After; other addresses are unaffected', async () => {
    const ip = freshIp();
    for (let index = 0; index < 3; index++) expect((await get(server, '/api/status', ip)).status).toBe(200);
    const limited = await get(server, '/api/status', ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(await limited.json()).toEqual({
      success: false,
      message: '请求过于频繁：同一地址每 60 秒最多 3 次，请稍后再试',
    });
    const english = await get(server, '/api/notice', ip, 'en');
    expect(((await english.json()) as { message: string }).message).toBe(
      'Too many requests: at most 3 per 60 seconds from one address; please try again later',
    );
    expect((await get(server, '/api/status', freshIp())).status).toBe(200);
  });

  it('counts the dashboard billing views with the API and answers them in the OpenAI error shape', async () => {
    const ip = freshIp();
    await get(server, '/api/status', ip);
    await get(server, '/api/status', ip);
    expect((await get(server, '/v1/dashboard/billing/subscription', ip)).status).toBe(401);
    const limited = await get(server, '/dashboard/billing/usage', ip);
    expect(limited.status).toBe(429);
    const body = (await limited.json()) as { error: { message: string; code: string } };
    expect(body.error.code).toBe('rate_limit_exceeded');
    expect(body.error.message).toContain('同一地址每 60 秒最多 3 次');
  });

  it('leaves the relay to the per-user model limit', async () => {
    const ip = freshIp();
    for (let index = 0; index < 5; index++) expect((await get(server, '/v1/models', ip)).status).toBe(401);
  });

  it('counts only page loads, never the files a page pulls in, and answers a page of its own when over', async () => {
    const ip = freshIp();
    // A console load pulls dozens of files: none of them counts against the page budget (2 here).
    for (let index = 0; index < 50; index++) expect((await get(server, '/assets/app.js', ip)).status).not.toBe(429);
    expect((await get(server, '/pricing', ip)).status).not.toBe(429);
    expect((await get(server, '/token', ip)).status).not.toBe(429);
    const limited = await get(server, '/detail', ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('90');
    // Never a blank page: a small page of its own (no script, no external file) says when to retry, in both languages.
    expect(limited.headers.get('content-type')).toContain('text/html');
    expect(limited.headers.get('x-content-type-options')).toBe('nosniff');
    const page = await limited.text();
    expect(page).toContain('请在 90 秒后刷新重试');
    expect(page).toContain('Reload this page in 90 seconds');
    expect(page).not.toMatch(/<script|src=|href=/);
    // The API budget of the same address is its own.
    expect((await get(server, '/api/status', ip)).status).toBe(200);
  });

  it('is off when the _ENABLE switches say so', async () => {
    const open = await startTestServer('sqlite', {
      ...LIMITS,
      GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
      GLOBAL_WEB_RATE_LIMIT_ENABLE: 'false',
    });
    try {
      const ip = freshIp();
      for (let index = 0; index < 6; index++) {
        expect((await get(open, '/api/status', ip)).status).toBe(200);
        expect((await get(open, '/pricing', ip)).status).not.toBe(429);
      }
    } finally {
      await open.close();
    }
  });
});

describe.skipIf(!hasRedis)('global API rate limit shared through Redis', () => {
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    const env = { ...LIMITS, REDIS_CONN_STRING: REDIS_URL };
    first = await startTestServer('sqlite', env);
    // No setup here: it would call from 127.0.0.1 itself, whose count Redis shares with every other run.
    second = await startTestServer('sqlite', env, first.database);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('counts one address across both nodes', async () => {
    const ip = freshIp();
    expect((await get(first, '/api/status', ip)).status).toBe(200);
    expect((await get(second, '/api/status', ip)).status).toBe(200);
    expect((await get(first, '/api/status', ip)).status).toBe(200);
    expect((await get(second, '/api/status', ip)).status).toBe(429);
    expect((await get(first, '/api/status', ip)).status).toBe(429);
    expect((await get(second, '/api/status', freshIp())).status).toBe(200);
  });

  it('counts console pages across both nodes too', async () => {
    const ip = freshIp();
    expect((await get(first, '/pricing', ip)).status).not.toBe(429);
    expect((await get(second, '/token', ip)).status).not.toBe(429);
    expect((await get(first, '/log', ip)).status).toBe(429);
  });
});
