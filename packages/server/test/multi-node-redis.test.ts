import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, setupAndLogin } from './helpers/client.js';
import { IN_CI, REDIS_URL } from './helpers/databases.js';
import { startTestServer, type TestServer } from './helpers/server.js';

async function redisReachable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const hasRedis = await redisReachable();
if (!hasRedis && IN_CI) throw new Error('Redis is not reachable but CI=true requires it');
if (!hasRedis)
  console.warn('[skip] Redis is not reachable on this machine: multi-node tests are skipped (they run in CI)');

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(!hasRedis)('two nodes sharing PostgreSQL-or-SQLite and Redis', () => {
  let first: TestServer;
  let second: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    const env = { REDIS_CONN_STRING: REDIS_URL };
    first = await startTestServer('sqlite', env);
    second = await startTestServer('sqlite', env, first.database);
    root = await setupAndLogin(first.baseUrl);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('applies an option saved on one node to the other without restart', async () => {
    const name = `节点-${Date.now()}`;
    expect((await root.put('/api/option/', { key: 'SystemName', value: name })).success).toBe(true);
    await until(() => second.ctx.options.get('SystemName') === name);
    expect(second.ctx.options.get('SystemName')).toBe(name);
  });

  it('shares console sessions through Redis: a cookie from node one works on node two, and logout ends it on both', async () => {
    const onSecond = new ApiClient(second.baseUrl);
    const self = await fetch(`${second.baseUrl}/api/user/self`, {
      headers: { cookie: root.sessionCookie, 'new-api-user': String(root.userId) },
    });
    expect(((await self.json()) as { success: boolean }).success).toBe(true);
    const cookie = root.sessionCookie;
    await root.get('/api/user/logout');
    const after = await fetch(`${second.baseUrl}/api/user/self`, {
      headers: { cookie, 'new-api-user': String(root.userId) },
    });
    expect(after.status).toBe(401);
    expect(onSecond.sessionCookie).toBe('');
  });
});
