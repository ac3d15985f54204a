import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { addChannel, addToken, balances, flushBilling, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';

// Whatever a broken upstream (or whatever stands in front of it) answers, the caller gets an error status in its
// own format with a message that names no host, address or library, pays nothing, and the admin's error log keeps
// the detail.
const UPSTREAM_HOST = 'upstream.internal.example';
const CDN_PAGE = `<!DOCTYPE html><html><head><title>${UPSTREAM_HOST} | 502: Bad gateway</title></head><body>cloudflare</body></html>`;

type Failure = (res: import('node:http').ServerResponse) => void;
const FAILURES: Record<string, Failure> = {
  'cdn-html-502': (res) => res.writeHead(502, { 'content-type': 'text/html' }).end(CDN_PAGE),
  'cdn-html-520': (res) => res.writeHead(520, { 'content-type': 'text/html' }).end(CDN_PAGE),
  redirect: (res) => res.writeHead(301, { location: `https://${UPSTREAM_HOST}/v1/chat/completions` }).end(),
  'plain-text-500': (res) =>
    res.writeHead(500, { 'content-type': 'text/plain' }).end(`proxy error at ${UPSTREAM_HOST}`),
  'not-json-200': (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('OK'),
  'wrong-shape-200': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"hello":"world"}'),
  'truncated-200': (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"id":"x","choices":[');
    res.socket?.destroy();
  },
  'reset-before-answer': (res) => res.socket?.destroy(),
};

/** The channels: the failures above, plus addresses that cannot be reached at all. */
function channelsFor(broken: string, closedPort: number): Record<string, string> {
  return {
    ...Object.fromEntries(Object.keys(FAILURES).map((name) => [name, `${broken}/${name}`])),
    'dns-failure': `http://${UPSTREAM_HOST.replace('example', 'invalid')}`,
    'tls-failure': `https://${broken.replace('http://', '')}/tls`,
    'connection-refused': `http://127.0.0.1:${closedPort}`,
  };
}

const LEAKS = [
  UPSTREAM_HOST,
  '127.0.0.1',
  'ECONNREFUSED',
  'ENOTFOUND',
  'getaddrinfo',
  'undici',
  'socket',
  'TLS',
  'SSL',
  '<html',
  'cloudflare',
];

describe('upstream failures reach the caller clean, in each client format', () => {
  let server: TestServer;
  let broken: Server;
  let root: ApiClient;
  let key: string;
  let channels: Record<string, string>;

  beforeAll(async () => {
    broken = createServer((req, res) => {
      const name = (req.url ?? '').split('/')[1] ?? '';
      const failure = FAILURES[name];
      if (failure) failure(res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    channels = channelsFor(`http://127.0.0.1:${(broken.address() as AddressInfo).port}`, closedPort);
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    for (const [name, baseUrl] of Object.entries(channels)) {
      await addChannel(root, { type: 1, key: 'sk-channel-key-123456', base_url: baseUrl, models: `fail-${name}` });
    }
    await priceModels(server, root, Object.fromEntries(Object.keys(channels).map((name) => [`fail-${name}`, 1])));
    key = await addToken(root, { remain_quota: 1_000_000 });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise<void>((resolve) => (broken ? broken.close(() => resolve()) : resolve()));
  });

  const formats = {
    openai: (model: string) => ({
      path: '/v1/chat/completions',
      headers: { authorization: `Bearer ${key}` },
      body: { model, messages: [{ role: 'user', content: 'hi' }] },
      message: (json: Record<string, unknown>) => (json.error as { message?: string } | undefined)?.message,
    }),
    claude: (model: string) => ({
      path: '/v1/messages',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      body: { model, max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] },
      message: (json: Record<string, unknown>) =>
        json.type === 'error' ? (json.error as { message?: string } | undefined)?.message : undefined,
    }),
    gemini: (model: string) => ({
      path: `/v1beta/models/${model}:generateContent`,
      headers: { 'x-goog-api-key': key },
      body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      message: (json: Record<string, unknown>) => {
        const error = json.error as { message?: string; status?: unknown } | undefined;
        return typeof error?.status === 'string' ? error.message : undefined;
      },
    }),
  };

  const cases = [...Object.keys(FAILURES), 'dns-failure', 'tls-failure', 'connection-refused'].flatMap((failure) =>
    (Object.keys(formats) as Array<keyof typeof formats>).map((format) => [failure, format] as const),
  );

  it.each(cases)(
    '%s answered to a %s client: an error status in its shape, nothing leaked, nothing charged',
    async (failure, format) => {
      const before = await balances(server, root.userId!, key);
      const call = formats[format](`fail-${failure}`);
      const answer = await fetch(`${server.baseUrl}${call.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...call.headers },
        body: JSON.stringify(call.body),
      });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThanOrEqual(599);
      const json = (await answer.json()) as Record<string, unknown>;
      const message = call.message(json);
      expect(message, JSON.stringify(json)).toBeTruthy();
      for (const leak of LEAKS) expect(message!.toLowerCase()).not.toContain(leak.toLowerCase());
      expect(message).not.toContain('sk-channel-key');
      const after = await balances(server, root.userId!, key);
      expect(after.user.quota).toBe(before.user.quota);
      expect(after.token.remain_quota).toBe(before.token.remain_quota);
    },
  );

  it('keeps what really happened in the admin-only part of the error log', async () => {
    await flushBilling(server);
    const { items } = await server.ctx.repos.logs.list({ type: 5, modelName: 'fail-cdn-html-502' }, 0, 1);
    const other = JSON.parse(items[0]!.other!) as { admin_info: { upstream_detail?: string } };
    expect(other.admin_info.upstream_detail).toContain('HTTP 502');
    expect(other.admin_info.upstream_detail).toContain(UPSTREAM_HOST);
    const { items: unreachable } = await server.ctx.repos.logs.list(
      { type: 5, modelName: 'fail-connection-refused' },
      0,
      1,
    );
    expect(JSON.parse(unreachable[0]!.other!).admin_info.upstream_detail).toMatch(/ECONNREFUSED|connect/);
    // A user reading their own log does not see it.
    const own = await root.get<{ items: Array<{ other: string; model_name: string }> }>(
      '/api/log/self?type=5&p=1&page_size=50',
    );
    const shown = own.data.items.find((row) => row.model_name === 'fail-cdn-html-502');
    expect(shown).toBeDefined();
  });
});
