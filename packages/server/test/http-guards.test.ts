import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, ROOT, setupAndLogin } from './helpers/client.js';
import { addChannel, addToken, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

// What another site or a hostile client can send, refused at the edge in each route's own error shape.
describe('request guards: cross-site refusal, form bodies, body limits, hostile JSON, Retry-After', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite', { MAX_REQUEST_BODY_MB: '1', CRITICAL_RATE_LIMIT: '1000' });
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, {
      type: 1,
      key: 'sk-up',
      base_url: mock.baseUrl,
      models: 'gpt-4o-mini,text-embedding-3-small',
    });
    await priceModels(server, root, { 'gpt-4o-mini': 1, 'text-embedding-3-small': 1 });
    key = await addToken(root, { unlimited_quota: true });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
  const login = JSON.stringify({ username: ROOT.username, password: ROOT.password });

  it('refuses a sign-in or a state change from another site, and lets the console and scripts through', async () => {
    const host = new URL(server.baseUrl).host;
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }] as Array<
      Record<string, string>
    >) {
      const refused = await post('/api/user/login', login, headers);
      expect(refused.status).toBe(403);
      const body = (await refused.json()) as { success: boolean; message: string };
      expect(body).toMatchObject({ success: false });
      expect(body.message).toContain('其他网站');
      expect(refused.headers.get('set-cookie')).toBeNull();
    }
    // The console itself (same origin) and scripts (no Origin) sign in as before.
    expect(
      (await post('/api/user/login', login, { origin: `http://${host}`, 'sec-fetch-site': 'same-origin' })).status,
    ).toBe(200);
    expect(((await (await post('/api/user/login', login)).json()) as { success: boolean }).success).toBe(true);
    // A signed-in session's change from another site is refused and changes nothing.
    const before = await root.get<{ display_name: string }>('/api/user/self');
    const changed = await root.put('/api/user/self', { display_name: 'pwned' }, { origin: 'https://evil.example' });
    expect(changed.status).toBe(403);
    expect((await root.get<{ display_name: string }>('/api/user/self')).data.display_name).toBe(
      before.data.display_name,
    );
    // An access token from a script is not a cookie another site could ride on.
    const scripted = await fetch(`${server.baseUrl}/api/user/self`, {
      headers: { authorization: 'not-a-token', 'new-api-user': String(root.userId), origin: 'https://evil.example' },
    });
    expect(scripted.status).toBe(401);
  });

  it('accepts form and text bodies only where a form belongs (payment callbacks)', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const refused = await post('/api/user/login', 'username=root&password=x', { 'content-type': type });
      expect(refused.status, type).toBe(415);
      expect(((await refused.json()) as { success: boolean }).success).toBe(false);
    }
    const notify = await post('/api/user/epay/notify', 'trade_no=1&out_trade_no=x', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(notify.status).not.toBe(415);
  });

  it('answers 413 in the route’s shape when a body is over its class’s limit', async () => {
    const anonymous = await post('/api/user/login', JSON.stringify({ username: 'x', password: 'y'.repeat(100_000) }));
    expect(anonymous.status).toBe(413);
    expect(((await anonymous.json()) as { message: string }).message).toMatch(/最多接受 \d+ KiB/);
    const management = await root
      .put('/api/option/', { key: 'Notice', value: 'n'.repeat(5 * 1024 * 1024) })
      .catch(() => ({ status: 0 }));
    expect(management.status).toBe(413);
    const huge = 'w'.repeat(2 * 1024 * 1024);
    const auth = { authorization: `Bearer ${key}` };
    const openai = await post(
      '/v1/chat/completions',
      JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: huge }] }),
      auth,
    );
    expect(openai.status).toBe(413);
    expect(((await openai.json()) as { error: { message: string } }).error.message).toContain('1 MiB');
    const claude = await post(
      '/v1/messages',
      JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 5, messages: [{ role: 'user', content: huge }] }),
      auth,
    );
    expect(claude.status).toBe(413);
    expect(await claude.json()).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
    const gemini = await post(
      '/v1beta/models/gpt-4o-mini:generateContent',
      JSON.stringify({ contents: [{ parts: [{ text: huge }] }] }),
      {
        'x-goog-api-key': key,
      },
    );
    expect(gemini.status).toBe(413);
    expect(((await gemini.json()) as { error: { code: number } }).error.code).toBe(413);
  });

  it('answers hostile JSON with a 400 in the route’s shape, never a 500', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const auth = { authorization: `Bearer ${key}` };
    for (const [path, field] of [
      ['/v1/embeddings', 'input'],
      ['/v1/completions', 'prompt'],
      ['/v1/rerank', 'query'],
    ]) {
      const answer = await post(path!, `{"model":"text-embedding-3-small","${field}":${deep}}`, auth);
      expect(answer.status, path).toBe(400);
      expect(((await answer.json()) as { error: { message: string } }).error.message).toBeTruthy();
    }
    for (const body of [
      '{"__proto__":{"admin":true}}',
      '{"constructor":{"prototype":{"x":1}}}',
      '{"a":',
      `{"username":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    ]) {
      const answer = await post('/api/user/login', body);
      // Unreadable JSON is a 400; readable JSON of the wrong shape is the family's 200 with success:false.
      expect([200, 400], body.slice(0, 20)).toContain(answer.status);
      expect(((await answer.json()) as { success: boolean }).success).toBe(false);
    }
  });

  it('says when to come back on every 429 the gateway makes', async () => {
    const throttled = await startTestServer('sqlite', {
      CRITICAL_RATE_LIMIT: '1',
      CRITICAL_RATE_LIMIT_DURATION: '120',
    });
    try {
      await setupAndLogin(throttled.baseUrl);
      const again = await fetch(`${throttled.baseUrl}/api/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: login,
      });
      expect(again.status).toBe(429);
      expect(again.headers.get('retry-after')).toBe('120');
    } finally {
      await throttled.close();
    }
  });
});
