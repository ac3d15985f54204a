import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { REDIS_URL } from './helpers/databases.js';
import { requireRedisInCi } from './helpers/redis.js';
import { addChannel, addToken, apiError, openaiClient } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { until } from './helpers/wait.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const hasRedis = await requireRedisInCi('multi-node tests are skipped (they run in CI)');

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

describe.skipIf(!hasRedis)('two nodes sharing a database and Redis: one balance, never overspent', () => {
  let first: TestServer;
  let second: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  const ask = { model: 'per-call-model', messages: [{ role: 'user' as const, content: 'hi' }] };
  // 0.002 per call × 500 000 quota per unit = 1 000 quota per request, reserved and settled alike.
  const PER_CALL = 1000;

  beforeAll(async () => {
    mock = await startMockUpstream();
    const env = { REDIS_CONN_STRING: REDIS_URL, BATCH_UPDATE_INTERVAL: '60' };
    first = await startTestServer('sqlite', env);
    second = await startTestServer('sqlite', env, first.database);
    root = await setupAndLogin(first.baseUrl);
    await addChannel(root, { type: 1, key: 'sk-shared', base_url: mock.baseUrl, models: 'per-call-model' });
    await root.put('/api/option/', { key: 'ModelPrice', value: '{"per-call-model": 0.002}' });
    await until(() => second.ctx.channelCache.candidates('default', 'per-call-model').length === 1);
    await until(() => second.ctx.options.get('ModelPrice').includes('per-call-model'));
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await mock?.close();
  });

  it('200 concurrent requests over both nodes on a token worth 50: exactly 50 are served and billed', async () => {
    await first.ctx.repos.users.update(root.userId!, { quota: 100 * PER_CALL });
    const key = await addToken(root, { remain_quota: 50 * PER_CALL });
    const nodes = [openaiClient(first, key), openaiClient(second, key)];
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, index) => nodes[index % 2]!.chat.completions.create(ask)),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(50);
    expect(mock.requests).toHaveLength(50);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    // Every refusal comes after the balance reached exactly zero: "token exhausted", whichever node answered.
    expect(new Set(refused.map((r) => (r.reason as { status: number }).status))).toEqual(new Set([401]));
    // One after the other: both "nodes" share one process and one SQLite file here, and two write transactions
    // interleaved on one event loop would wait on each other's lock.
    await first.ctx.ledger.flush();
    await second.ctx.ledger.flush();
    const token = await first.ctx.repos.tokens.findByKey(key.slice(3));
    expect(token).toMatchObject({ remain_quota: 0, used_quota: 50 * PER_CALL });
    expect(await first.ctx.repos.users.findById(root.userId!)).toMatchObject({
      quota: 50 * PER_CALL,
      used_quota: 50 * PER_CALL,
      request_count: 50,
    });
  });

  it('quota added on one node can be spent on the other at once', async () => {
    const user = await signedInUser(second.baseUrl, first.ctx.repos, `shared-${Date.now().toString(36)}`);
    const key = await addToken(user, { unlimited_quota: true });
    const onSecond = openaiClient(second, key);
    expect((await apiError(onSecond.chat.completions.create(ask))).status).toBe(403);
    const added = await root.post('/api/user/manage', { id: user.userId!, action: 'add_quota', value: 2 * PER_CALL });
    expect(added.success).toBe(true);
    await onSecond.chat.completions.create(ask);
    await openaiClient(first, key).chat.completions.create(ask);
    expect((await apiError(onSecond.chat.completions.create(ask))).status).toBe(403);
  });
});
