import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { IN_CI } from './helpers/databases.js';
import { startTestServer, type TestServer } from './helpers/server.js';

// The browser security baseline and the caching of the built console (npm test builds it before the tests run).
const WEB_DIST = resolve(import.meta.dirname, '../../web/dist');
const built = existsSync(resolve(WEB_DIST, 'index.html'));
if (!built && IN_CI) throw new Error('packages/web/dist is missing: npm test builds it before the tests');
if (!built) console.warn('[skip] the console is not built (npm run build -w packages/web): header tests skipped');

describe.runIf(built)('security headers and caching of every answer', () => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    server = await startTestServer('sqlite', { WEB_DIST });
    root = await setupAndLogin(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
  });

  const get = (path: string, method = 'GET') => fetch(`${server.baseUrl}${path}`, { method });

  it('serves console pages with a policy that allows no inline script and no framing by other sites', async () => {
    for (const path of ['/', '/token', '/log?p=1']) {
      const page = await get(path);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      const policy = page.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("script-src 'self'");
      expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(policy).toContain("frame-ancestors 'self'");
      expect(policy).toContain("object-src 'none'");
      expect(page.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      // The page names this build's hashed files: revalidated on every load.
      expect(page.headers.get('cache-control')).toBe('no-cache');
      const html = await page.text();
      // Every script of the built page is a file: nothing inline for the policy to refuse.
      for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag).toMatch(/\ssrc=/);
    }
  });

  it('caches hashed assets for a year as immutable, other public files for an hour, and answers HEAD like GET', async () => {
    const asset = readdirSync(resolve(WEB_DIST, 'assets')).find((name) => name.endsWith('.js'))!;
    const file = await get(`/assets/${asset}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await get('/logo.svg')).headers.get('cache-control')).toBe('public, max-age=3600');
    for (const path of ['/', `/assets/${asset}`, '/pricing', '/api/status']) {
      const head = await get(path, 'HEAD');
      expect(head.status, path).toBe(200);
      expect(await head.text()).toBe('');
    }
    // A missing file is a 404, never the console page under a script's name.
    const missing = await get('/assets/not-there.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/json');
    expect((await get('/favicon-missing.ico')).status).toBe(404);
  });

  it('marks API and relay answers nosniff with a JSON type, errors included', async () => {
    for (const [path, status] of [
      ['/api/status', 200],
      ['/api/nothing-here', 404],
      ['/v1/models', 401],
      ['/v1/nothing-here', 404],
    ] as const) {
      const answer = await get(path);
      expect(answer.status, path).toBe(status);
      expect(answer.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(answer.headers.get('content-type'), path).toContain('application/json');
    }
  });

  it('allows exactly the origins of the widgets and frames the operator turned on', async () => {
    const policy = async () => (await get('/')).headers.get('content-security-policy') ?? '';
    expect(await policy()).not.toContain('challenges.cloudflare.com');
    expect(await policy()).not.toContain('telegram.org');
    for (const [key, value] of [
      ['TurnstileSiteKey', 'site-key'],
      ['TurnstileSecretKey', 'secret'],
      ['TurnstileCheckEnabled', 'true'],
      ['TelegramBotName', 'gateway_bot'],
      ['TelegramBotToken', '123:abc'],
      ['TelegramOAuthEnabled', 'true'],
      ['Chats', JSON.stringify([{ 'Next Chat': 'https://chat.example.com/#/?key={key}&url={address}' }])],
      ['HomePageContent', 'https://home.example.org/welcome'],
      ['PayAddress', 'https://pay.example.net/epay'],
    ]) {
      const saved = await root.put('/api/option/', { key, value });
      expect(saved.success, `${key}: ${saved.message}`).toBe(true);
    }
    const updated = await policy();
    expect(updated).toMatch(
      /script-src 'self' https:\/\/challenges\.cloudflare\.com https:\/\/telegram\.org 'unsafe-eval';/,
    );
    expect(updated).toContain('https://chat.example.com');
    expect(updated).toContain('https://home.example.org');
    expect(updated).toContain('https://oauth.telegram.org');
    // The wallet posts its payment form to the operator's gateway.
    expect(updated).toMatch(/form-action 'self' https:\/\/pay\.example\.net(;|$)/);
  });
});
