import { isSecretOptionKey, OPTION_KEYS, Role } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { addChannel, addToken, flushBilling, openaiClient, priceModels } from './helpers/relay.js';
import { ROUTE_ACCESS } from './helpers/route-access.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const BCRYPT_HASH = /\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}/;
const CHANNEL_KEY = 'sk-upstream-do-not-leak-7c1f9a';
const SECRET_OPTIONS = OPTION_KEYS.filter(isSecretOptionKey);
const optionSecret = (key: string) => `opt-secret-${key.replace(/\W/g, '')}-4d2b`;
const BOB_WEBHOOK_SECRET = 'bob-webhook-secret-91e3';

// Signing out, renewing one's access token and deleting one's account change the caller: the crawl must keep its
// credentials.
const CHANGES_THE_CALLER = new Set(['GET /api/user/logout', 'GET /api/user/token', 'DELETE /api/user/self']);
const ROUTES = Object.keys(ROUTE_ACCESS).filter((route) => !CHANGES_THE_CALLER.has(route));

/**
 * Everything a server answer must never carry, checked over every GET route the app has (the access table), for
 * anonymous visitors, an ordinary user, her API key, an admin and root, after the data exists: a relay call was
 * billed and logged, a channel holds a key, every secret option is set, and another user has an access token, an
 * API key and a webhook secret.
 */
describe('secrets never reach the wrong caller', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let admin: ApiClient;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceKey: string;
  let bobKey: string;
  let channelId: number;
  let bobTokenId: number;
  let redemptionKey: string;
  let redemptionId: number;
  const accessTokens: Record<string, string> = {};

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    admin = await signedInUser(server.baseUrl, server.ctx.repos, 'opsadmin');
    await server.ctx.repos.users.update(admin.userId!, { role: Role.Admin });
    alice = await signedInUser(server.baseUrl, server.ctx.repos, 'alice');
    bob = await signedInUser(server.baseUrl, server.ctx.repos, 'bob');
    for (const key of SECRET_OPTIONS) {
      const saved = await root.put('/api/option/', { key, value: optionSecret(key) });
      expect(saved.success, `${key}: ${saved.message}`).toBe(true);
    }
    channelId = await addChannel(root, { type: 1, key: CHANNEL_KEY, base_url: mock.baseUrl, models: 'gpt-4o' });
    for (const [name, client] of Object.entries({ root, admin, alice, bob })) {
      accessTokens[name] = (await client.get<string>('/api/user/token')).data;
    }
    for (const client of [alice, bob]) {
      await root.post('/api/user/manage', { id: client.userId, action: 'add_quota', value: 10_000_000 });
    }
    aliceKey = await addToken(alice, { name: 'alice-key', unlimited_quota: true });
    bobKey = await addToken(bob, { name: 'bob-key', unlimited_quota: true });
    bobTokenId = (await bob.get<{ items: Array<{ id: number }> }>('/api/token/')).data.items[0]!.id;
    await bob.put('/api/user/setting', {
      notify_type: 'webhook',
      webhook_url: 'https://93.184.215.14/bob',
      webhook_secret: BOB_WEBHOOK_SECRET,
      quota_warning_threshold: 100000,
    });
    const codes = await root.post<string[]>('/api/redemption/', { name: 'gift', quota: 1000, count: 1 });
    redemptionKey = codes.data[0]!;
    redemptionId = (await root.get<{ items: Array<{ id: number }> }>('/api/redemption/')).data.items[0]!.id;
    for (const key of [aliceKey, bobKey]) {
      await openaiClient(server, key).chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'hello' }],
      });
    }
    await flushBilling(server);
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  /** A GET route with its ids filled in by someone else's records: the most tempting thing to ask for. */
  const pathOf = (url: string) =>
    url
      .replace('/api/token/:id', `/api/token/${bobTokenId}`)
      .replace('/api/user/:id', `/api/user/${bob.userId}`)
      .replace('/api/redemption/:id', `/api/redemption/${redemptionId}`)
      .replace(/\/api\/channel\/(.*):id/, `/api/channel/$1${channelId}`)
      .replace(':model', 'gpt-4o')
      .replace(':mode', 'fast')
      .replace(':id', '1');

  /**
   * Every route as this caller, writes with a minimal body. Admins only read: their writes with real ids (a channel,
   * a code) would delete the very records the crawl is about.
   */
  const crawl = async (headers: Record<string, string>, writes: boolean) => {
    const answers: Array<{ path: string; text: string }> = [];
    for (const route of ROUTES) {
      const [method = 'GET', url = '/'] = route.split(' ');
      if (method !== 'GET' && !writes) continue;
      const path = `${method} ${pathOf(url)}`;
      const withBody = method === 'POST' || method === 'PUT';
      const response = await fetch(`${server.baseUrl}${pathOf(url)}`, {
        method,
        headers: { ...headers, ...(withBody ? { 'content-type': 'application/json' } : {}) },
        body: withBody ? '{}' : undefined,
        redirect: 'manual',
      });
      answers.push({ path, text: `${JSON.stringify([...response.headers])}\n${await response.text()}` });
    }
    return answers;
  };
  const session = (client: ApiClient) => ({ cookie: client.sessionCookie, 'new-api-user': String(client.userId) });

  const expectNone = (answers: Array<{ path: string; text: string }>, forbidden: string[]) => {
    for (const { path, text } of answers) {
      expect(text, path).not.toMatch(BCRYPT_HASH);
      for (const secret of forbidden) expect(text.includes(secret), `${path} carries ${secret}`).toBe(false);
    }
  };
  const optionSecrets = () => SECRET_OPTIONS.map(optionSecret);

  it('tells anonymous visitors and ordinary users nothing secret, on any route, reading or writing', async () => {
    const forbidden = [
      CHANNEL_KEY,
      ...optionSecrets(),
      accessTokens.root!,
      accessTokens.admin!,
      accessTokens.bob!,
      bobKey.slice(3),
      BOB_WEBHOOK_SECRET,
      redemptionKey,
    ];
    expectNone(await crawl({}, true), [...forbidden, accessTokens.alice!, aliceKey.slice(3)]);
    const asAlice = await crawl(session(alice), true);
    expectNone(asAlice, forbidden);
    const viaAccessToken = { authorization: accessTokens.alice!, 'new-api-user': String(alice.userId) };
    expectNone(await crawl(viaAccessToken, true), forbidden);
    expectNone(await crawl({ authorization: `Bearer ${aliceKey}` }, true), forbidden);
    // The crawl reached real data: her own log row and her own key are there.
    expect(asAlice.find(({ path }) => path.startsWith('GET /api/log/self/'))?.text).toContain('gpt-4o');
    expect(asAlice.find(({ path }) => path === 'GET /api/token/')?.text).toContain(aliceKey.slice(3));
  });

  it('tells admins and root no password hash, no one else’s access token, no channel key or secret option', async () => {
    for (const [name, client] of [
      ['admin', admin],
      ['root', root],
    ] as const) {
      const others = Object.entries(accessTokens)
        .filter(([owner]) => owner !== name)
        .map(([, token]) => token);
      const answers = await crawl(session(client), false);
      expectNone(answers, [CHANNEL_KEY, ...optionSecrets(), ...others, bobKey.slice(3), aliceKey.slice(3)]);
      expect(answers.find(({ path }) => path === `GET /api/user/${bob.userId}`)?.text).toContain('"username":"bob"');
      expect(answers.find(({ path }) => path === 'GET /api/channel/')?.text).toContain('"models":"gpt-4o"');
    }
  });

  it('never hands the caller’s key, session or access token to an upstream, in any client format', async () => {
    await addChannel(root, { type: 24, key: 'gemini-channel-key', base_url: mock.baseUrl, models: 'gemini-2.0-flash' });
    await priceModels(server, root, { 'gemini-2.0-flash': 1 });
    mock.reset();
    const key = aliceKey;
    const browserish = { cookie: alice.sessionCookie, 'new-api-user': String(alice.userId) };
    const post = (path: string, headers: Record<string, string>, body: unknown) =>
      fetch(`${server.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...browserish, ...headers },
        body: JSON.stringify(body),
      });
    const chat = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] };
    const answers = [
      await post('/v1/chat/completions', { authorization: `Bearer ${key}` }, chat),
      await post('/v1/chat/completions', { authorization: `Bearer ${key}` }, { ...chat, stream: true }),
      await post('/v1/messages', { 'x-api-key': key, 'anthropic-version': '2023-06-01' }, { ...chat, max_tokens: 16 }),
      await post(
        '/v1beta/models/gemini-2.0-flash:generateContent',
        { 'x-goog-api-key': key },
        {
          contents: [{ parts: [{ text: 'hi' }] }],
        },
      ),
      await post(
        `/v1beta/models/gemini-2.0-flash:generateContent?key=${key}&alt=json`,
        {},
        {
          contents: [{ parts: [{ text: 'hi' }] }],
        },
      ),
      await post('/pg/chat/completions', {}, chat),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(mock.requests).toHaveLength(answers.length);
    const sent = JSON.stringify(mock.requests);
    for (const secret of [key.slice(3), accessTokens.alice!, alice.sessionCookie.replace('session=', '')]) {
      expect(sent.includes(secret), `the upstream received ${secret}`).toBe(false);
    }
    expect(mock.requests.map((request) => request.headers.authorization ?? request.headers['x-goog-api-key'])).toEqual([
      `Bearer ${CHANNEL_KEY}`,
      `Bearer ${CHANNEL_KEY}`,
      `Bearer ${CHANNEL_KEY}`,
      'gemini-channel-key',
      'gemini-channel-key',
      `Bearer ${CHANNEL_KEY}`,
    ]);
  });

  /**
   * Upstream error messages reach the caller and their error log; an upstream that quotes the key it was sent
   * (several OpenAI-compatible proxies do) must not hand the channel key to an API-key holder.
   */
  it('never echoes the channel key an upstream puts into its error message', async () => {
    const echo = `Incorrect API key provided: ${CHANNEL_KEY}. You can find your API key at https://platform.example.com`;
    for (const status of [400, 401, 429, 500]) {
      mock.enqueue('openai.chat', { kind: 'status', status, message: echo, code: 'invalid_api_key' });
      const response = await fetch(`${server.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${aliceKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
      });
      const text = await response.text();
      expect(response.status, text).toBeGreaterThanOrEqual(400);
      expect(text.includes(CHANNEL_KEY), `${status}: ${text}`).toBe(false);
    }
    await flushBilling(server);
    const logs = await alice.get('/api/log/self/?page_size=100');
    expect(JSON.stringify(logs.data)).not.toContain(CHANNEL_KEY);
  });
});
