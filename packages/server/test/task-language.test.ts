import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './helpers/server.js';
import { startTaskRelayWorld } from './helpers/task-relay.js';
import type { MockUpstream } from './mock-upstream/index.js';

type Answer = { description?: string; message?: string };

/**
 * The task vendors' routes are API clients' routes like /v1: a script that sends no Accept-Language reads English
 * (as from the relay), one that names a language reads that language.
 */
describe('the language of the Midjourney and Suno routes', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let aliceKey: string;

  beforeAll(async () => {
    ({ server, mock, aliceKey } = await startTaskRelayWorld('sqlite', {
      type: 2,
      key: 'mj-secret',
      models: 'mj_imagine',
    }));
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  // Raw fetch: the shared task helper asks for Chinese on every call.
  const get = async (path: string, language?: string) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${aliceKey}`, ...(language ? { 'accept-language': language } : {}) },
    });
    return { status: response.status, json: (await response.json()) as Answer };
  };

  it.each([
    ['/mj/task/no-such-task/fetch', 'description'],
    ['/mj-fast/mj/task/no-such-task/fetch', 'description'],
    ['/suno/fetch/no-such-task', 'message'],
  ] as const)('%s answers English without Accept-Language and the caller’s language with one', async (path, field) => {
    const plain = await get(path);
    expect(plain.status).toBe(404);
    expect(plain.json[field]).toMatch(/^Task not found \(request id: /);
    // fetch() sends `*` when told nothing: no preference either.
    expect((await get(path, '*')).json[field]).toMatch(/^Task not found/);
    expect((await get(path, 'zh-CN,zh;q=0.9')).json[field]).toMatch(/^任务不存在/);
    expect((await get(path, 'fr-FR')).json[field]).not.toMatch(/^(Task not found|任务不存在)/);
  });
});
