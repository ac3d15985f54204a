import { Role, TokenStatus, UserStatus } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { addToken } from './helpers/relay.js';
import { concrete, ROUTE_ACCESS, routesOf } from './helpers/route-access.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Every route the app registers, seen through Fastify's `onRoute` hook. `buildApp` creates its own instance, so the
 * hook is attached the moment the instance is made: wrapping the factory observes registration without changing
 * how anything behaves.
 */
const registered = vi.hoisted(() => [] as Array<{ method: string; url: string }>);
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof import('fastify')>();
  const observed = ((options: Parameters<typeof actual.default>[0]) => {
    const app = actual.default(options);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) registered.push({ method, url: route.url });
    });
    return app;
  }) as typeof actual.default;
  return { ...actual, default: observed };
});

const RELAY_PREFIXES = ['/v1/', '/v1beta/', '/pg/', '/dashboard/', '/mj/', '/suno/', '/:mode/', '/kling/', '/jimeng/'];
// Relay routes a console session may also read: a finished video plays in the task log's <video> element, which
// sends the session cookie and nothing else. Without a key or a session they answer 401 like the others.
const SESSION_READABLE = new Set(['GET /v1/videos/:task_id/content']);
const isRelay = (url: string) => RELAY_PREFIXES.some((prefix) => url.startsWith(prefix));

interface Answer {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

async function send(server: TestServer, key: string, headers: Record<string, string> = {}): Promise<Answer> {
  const [method = 'GET', url = '/'] = key.split(' ');
  const withBody = method === 'POST' || method === 'PUT';
  const response = await fetch(`${server.baseUrl}${concrete(url)}`, {
    method,
    redirect: 'manual',
    headers: { 'accept-language': 'en', ...(withBody ? { 'content-type': 'application/json' } : {}), ...headers },
    body: withBody ? '{}' : undefined,
  });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = {};
  }
  return { status: response.status, body, text };
}

/** The console's own headers for a signed-in client: its cookie and the matching New-Api-User. */
const as = (client: ApiClient) => ({ cookie: client.sessionCookie, 'new-api-user': String(client.userId) });

/** The refusal in the caller's format: the envelope on /api, each SDK's error shape on the relay. */
function expectRefusal(route: string, answer: Answer, status: 401 | 403 | 'role'): void {
  const url = route.split(' ')[1]!;
  // The family answers a role refusal on /api with HTTP 200 and success:false, naming it.
  expect(answer.status, route).toBe(status === 'role' ? 200 : status);
  if (!isRelay(url)) {
    expect(answer.body, route).toMatchObject({
      success: false,
      message: status === 'role' ? expect.stringMatching(/权限不足|Permission denied/) : expect.any(String),
    });
    expect(answer.body, route).not.toHaveProperty('data');
    return;
  }
  if (url.startsWith('/v1/messages')) {
    expect(answer.body, route).toMatchObject({ type: 'error', error: { message: expect.any(String) } });
  } else if (url.includes(':target') || url.startsWith('/v1beta/')) {
    expect(answer.body, route).toMatchObject({ error: { code: status, message: expect.any(String) } });
  } else {
    expect(answer.body, route).toMatchObject({ error: { message: expect.any(String), type: expect.any(String) } });
  }
}

const USER_ROUTES = routesOf('user');
const ADMIN_ROUTES = routesOf('admin');
const ROOT_ROUTES = routesOf('root');
const GUARDED = [...USER_ROUTES, ...ADMIN_ROUTES, ...ROOT_ROUTES];
const RELAY_ROUTES = routesOf('relay-token');

describe('every route answers its guard first', () => {
  let server: TestServer;
  let root: ApiClient;
  let admin: ApiClient;
  let common: ApiClient;
  let commonKey: string;
  let commonAccessToken: string;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    admin = await signedInUser(server.baseUrl, server.ctx.repos, 'opsadmin');
    await server.ctx.repos.users.update(admin.userId!, { role: Role.Admin });
    common = await signedInUser(server.baseUrl, server.ctx.repos, 'plainuser');
    commonKey = await addToken(common, { name: 'probe', unlimited_quota: true });
    commonAccessToken = (await common.get<string>('/api/user/token')).data;
    // The ratio export answers 403 until the operator publishes it (as in the family); published, anyone may read.
    expect(await server.ctx.options.set('ExposeRatioEnabled', 'true')).toBeNull();
  });
  afterAll(async () => server?.close());

  it('has every registered route in the access table, and nothing in the table that is not registered', () => {
    const seen = new Set(registered.map(({ method, url }) => `${method} ${url}`));
    // Fastify adds a HEAD twin to every GET: it runs the same guard, checked below.
    const routes = [...seen].filter((route) => !route.startsWith('HEAD ') || !seen.has(route.replace('HEAD', 'GET')));
    const unclassified = routes.filter((route) => !(route in ROUTE_ACCESS));
    expect(unclassified, 'unclassified route: add it to ROUTE_ACCESS with who may call it').toEqual([]);
    const stale = Object.keys(ROUTE_ACCESS).filter((route) => !seen.has(route));
    expect(stale, 'ROUTE_ACCESS names routes the app does not register').toEqual([]);
  });

  it('refuses anonymous callers on every user, admin and root route with 401, HEAD included', async () => {
    for (const route of GUARDED) {
      expectRefusal(route, await send(server, route), 401);
      if (route.startsWith('GET ')) expect((await send(server, route.replace('GET', 'HEAD'))).status, route).toBe(401);
    }
  });

  it('refuses a forged session, an unknown access token and an API key on every guarded route with 401', async () => {
    for (const route of GUARDED) {
      expectRefusal(route, await send(server, route, { cookie: 'session=forged.value', 'new-api-user': '1' }), 401);
      expectRefusal(route, await send(server, route, { authorization: 'x'.repeat(32), 'new-api-user': '1' }), 401);
      const withKey = { authorization: `Bearer ${commonKey}`, 'new-api-user': String(common.userId) };
      expectRefusal(route, await send(server, route, withKey), 401);
    }
  });

  it('refuses a session whose New-Api-User names someone else with 401', async () => {
    for (const route of GUARDED) {
      expectRefusal(route, await send(server, route, { ...as(common), 'new-api-user': String(root.userId) }), 401);
    }
  });

  it('refuses an ordinary user on every admin and root route (200, success false, as the family), by cookie and by access token', async () => {
    for (const route of [...ADMIN_ROUTES, ...ROOT_ROUTES]) {
      expectRefusal(route, await send(server, route, as(common)), 'role');
      const viaToken = { authorization: commonAccessToken, 'new-api-user': String(common.userId) };
      expectRefusal(route, await send(server, route, viaToken), 'role');
    }
  });

  for (const route of ROOT_ROUTES) {
    it(`refuses an admin on the root-only ${route} (200, success false)`, async () => {
      expectRefusal(route, await send(server, route, as(admin)), 'role');
    });
  }

  it('refuses every relay route without a key, or with an unknown one, with 401 in the caller’s error shape', async () => {
    for (const route of RELAY_ROUTES) {
      expectRefusal(route, await send(server, route), 401);
      expectRefusal(route, await send(server, route, { authorization: 'Bearer sk-not-a-real-key' }), 401);
      // A console session is not an API key.
      if (!SESSION_READABLE.has(route)) expectRefusal(route, await send(server, route, as(root)), 401);
    }
  });

  it('refuses a banned user’s access token with 403 and a deregistered user’s with 401 on every guarded route', async () => {
    const banned = await signedInUser(server.baseUrl, server.ctx.repos, 'banneduser');
    const token = (await banned.get<string>('/api/user/token')).data;
    await server.ctx.repos.users.update(banned.userId!, { status: UserStatus.Disabled, role: Role.Admin });
    const headers = { authorization: token, 'new-api-user': String(banned.userId) };
    for (const route of GUARDED) expectRefusal(route, await send(server, route, headers), 403);
    await server.ctx.repos.users.update(banned.userId!, { status: UserStatus.Enabled, deleted_at: 1 });
    for (const route of GUARDED) expectRefusal(route, await send(server, route, headers), 401);
  });

  it('refuses a disabled key and a banned user’s key on every relay route', async () => {
    const owner = await signedInUser(server.baseUrl, server.ctx.repos, 'keyowner');
    const disabledKey = await addToken(owner, { name: 'off', unlimited_quota: true });
    const bannedKey = await addToken(owner, { name: 'banned', unlimited_quota: true });
    const row = await server.ctx.repos.tokens.findByKey(disabledKey.slice(3));
    await owner.put('/api/token/?status_only=true', { id: row!.id, status: TokenStatus.Disabled });
    for (const route of RELAY_ROUTES) {
      expectRefusal(route, await send(server, route, { authorization: `Bearer ${disabledKey}` }), 401);
    }
    await root.post('/api/user/manage', { id: owner.userId, action: 'disable' });
    for (const route of RELAY_ROUTES) {
      expectRefusal(route, await send(server, route, { authorization: `Bearer ${bannedKey}` }), 403);
    }
  });

  it('answers the routes it does not implement with 501 in the OpenAI shape', async () => {
    for (const route of routesOf('not-implemented')) {
      const answer = await send(server, route);
      expect(answer.status, route).toBe(501);
      expect(answer.body, route).toMatchObject({ error: { message: expect.any(String), code: 'api_not_implemented' } });
    }
  });

  it('does nothing on an unsigned payment report', async () => {
    for (const route of routesOf('webhook-callback')) {
      const answer = await send(server, route);
      if (route.includes('/notify')) expect(answer.text, route).toBe('fail');
      else if (route.endsWith('/webhook')) expect([400, 401], route).toContain(answer.status);
      else expect([answer.status, answer.text], route).toEqual([302, '']);
    }
    const redirect = await fetch(`${server.baseUrl}/api/user/epay/return`, { redirect: 'manual' });
    expect(redirect.headers.get('location')).toBe('/topup?pay=fail');
  });

  it('lets anyone reach the public routes', async () => {
    for (const route of routesOf('public')) {
      const answer = await send(server, route);
      expect([401, 403], route).not.toContain(answer.status);
    }
  });

  // The other direction: the table is not stricter than the server, so each level is exactly the one enforced.
  it('lets the lowest allowed role through every guarded route', async () => {
    const reach = async (route: string, client: ApiClient) => {
      const answer = await send(server, route, as(client));
      expect([401, 403], `${route}: ${answer.text}`).not.toContain(answer.status);
    };
    for (const route of ADMIN_ROUTES) await reach(route, admin);
    for (const route of ROOT_ROUTES) await reach(route, root);
    // Deleting one's own account goes last: every other user route is tried while the account still exists.
    const ordered = [...USER_ROUTES.filter((route) => route !== 'DELETE /api/user/self'), 'DELETE /api/user/self'];
    for (const route of ordered) await reach(route, common);
  });
});
