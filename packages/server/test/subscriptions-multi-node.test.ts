import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { REDIS_URL } from './helpers/databases.js';
import { requireRedisInCi } from './helpers/redis.js';
import { addChannel, addToken } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { until } from './helpers/wait.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const hasRedis = await requireRedisInCi('multi-node subscription tests are skipped (they run in CI)');

describe.skipIf(!hasRedis)('two nodes sharing a database and Redis: one subscription period, never overspent', () => {
  let first: TestServer;
  let second: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  // 0.002 per call × 500 000 quota per unit = 1 000 quota per request.
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

  const call = (server: TestServer, key: string) =>
    fetch(`${server.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'per-call-model', messages: [{ role: 'user', content: 'hi' }] }),
    }).then(async (response) => {
      await response.arrayBuffer();
      return response.status;
    });

  it('takes each request from the period in Redis, so both nodes together stop at the plan’s quota', async () => {
    const plan = await root.post<{ id: number }>('/api/subscription/admin/plans', {
      plan: { title: 'Shared', price_amount: 0, total_amount: 5 * PER_CALL, quota_reset_period: 'daily' },
    });
    expect(plan.success, plan.message).toBe(true);
    const user = await signedInUser(first.baseUrl, first.ctx.repos, 'subnodes');
    const key = await addToken(user, { unlimited_quota: true });
    expect((await user.post('/api/subscription/balance/pay', { plan_id: plan.data.id })).success).toBe(true);
    expect(
      (await user.put('/api/subscription/self/preference', { billing_preference: 'subscription_only' })).success,
    ).toBe(true);
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, index) => call(index % 2 === 0 ? first : second, key)),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 403)).toHaveLength(7);
    await first.ctx.ledger.flush();
    await second.ctx.ledger.flush();
    const [sub] = await first.ctx.repos.subscriptions.listForUser(user.userId!);
    expect(Number(sub!.amount_used)).toBe(5 * PER_CALL);
    // The wallet was never touched (subscription_only), on either node.
    expect((await first.ctx.repos.users.findById(user.userId!))!.quota).toBe(0);
  });
});
