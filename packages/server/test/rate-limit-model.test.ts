import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OptionsStore } from '../src/cache/options-store.js';
import { connectRedis, type RedisPair } from '../src/cache/redis.js';
import { memoryWindowLog, redisWindowLog, type SlidingWindowLog } from '../src/cache/sliding-window-log.js';
import { ModelRequestLimiter } from '../src/relay/admission/limits/model-request-limit.js';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { REDIS_URL } from './helpers/databases.js';
import { requireRedisInCi } from './helpers/redis.js';
import { addChannel, addToken, apiError, openaiClient, plainMessage } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { until } from './helpers/wait.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const hasRedis = await requireRedisInCi('the Redis model rate limit tests are skipped');

const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hello there' }] };
const MINUTE = 60_000;

/** Options in memory only: the limiter reads nothing else. */
async function optionsWith(values: Record<string, string>): Promise<OptionsStore> {
  const rows = Object.entries(values).map(([key, value]) => ({ key, value }));
  const store = new OptionsStore({ all: async () => rows, upsert: async () => {} } as never, null);
  await store.load();
  return store;
}

// The same behaviour is required of both backends, with a controlled clock.
const backends: Array<[string, () => Promise<{ log: SlidingWindowLog; close(): Promise<void> }>]> = [
  ['memory', async () => ({ log: memoryWindowLog(), close: async () => {} })],
];
if (hasRedis) {
  backends.push([
    'redis',
    async () => {
      const redis: RedisPair = await connectRedis(REDIS_URL);
      // A prefix of its own per run: nothing from earlier runs or other files can be in the windows.
      const log = redisWindowLog(redis, `test:mrl:${Date.now()}:${Math.random().toString(36).slice(2)}`);
      return { log, close: () => redis.close() };
    },
  ]);
}

describe.each(backends)('model request limiter on %s', (_name, open) => {
  let backend: Awaited<ReturnType<typeof open>>;
  let clock = 1_000_000;
  const limiterWith = async (values: Record<string, string>) =>
    new ModelRequestLimiter(
      await optionsWith({ ModelRequestRateLimitEnabled: 'true', ...values }),
      backend.log,
      () => clock,
    );

  beforeAll(async () => {
    backend = await open();
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('allows Count requests per window, failures included, and slides the window', async () => {
    const limiter = await limiterWith({ ModelRequestRateLimitCount: '2', ModelRequestRateLimitDurationMinutes: '1' });
    clock = 1_000_000;
    expect(await limiter.admit(1, 'default')).toBeNull();
    clock += 10_000;
    expect(await limiter.admit(1, 'default')).toBeNull();
    expect(await limiter.admit(1, 'default')).toEqual({ kind: 'total', max: 2, minutes: 1 });
    // Another user has a window of their own.
    expect(await limiter.admit(2, 'default')).toBeNull();
    // The first request leaves the window a minute after it was made: one slot again, then full.
    clock = 1_000_000 + MINUTE + 1;
    expect(await limiter.admit(1, 'default')).toBeNull();
    expect(await limiter.admit(1, 'default')).toEqual({ kind: 'total', max: 2, minutes: 1 });
  });

  it('allows SuccessCount successful requests per window; Count 0 is unlimited', async () => {
    const limiter = await limiterWith({
      ModelRequestRateLimitCount: '0',
      ModelRequestRateLimitSuccessCount: '2',
      ModelRequestRateLimitDurationMinutes: '2',
    });
    clock = 5_000_000;
    // Admitted requests that fail do not count towards the success limit.
    for (let index = 0; index < 5; index++) expect(await limiter.admit(3, 'default')).toBeNull();
    limiter.succeeded(3);
    limiter.succeeded(3);
    await until(async () => (await limiter.admit(3, 'default')) !== null);
    expect(await limiter.admit(3, 'default')).toEqual({ kind: 'success', max: 2, minutes: 2 });
    clock += 2 * MINUTE + 1;
    expect(await limiter.admit(3, 'default')).toBeNull();
  });

  it("takes the caller's group override over both numbers", async () => {
    const limiter = await limiterWith({
      ModelRequestRateLimitCount: '100',
      ModelRequestRateLimitDurationMinutes: '1',
      ModelRequestRateLimitGroup: JSON.stringify({ vip: [1, 1] }),
    });
    clock = 9_000_000;
    expect(await limiter.admit(4, 'vip')).toBeNull();
    expect(await limiter.admit(4, 'vip')).toEqual({ kind: 'total', max: 1, minutes: 1 });
    // The same user through a default-group token falls under the general limit again.
    expect(await limiter.admit(4, 'default')).toBeNull();
  });

  it('never admits more than the limit to concurrent requests', async () => {
    const limiter = await limiterWith({ ModelRequestRateLimitCount: '3', ModelRequestRateLimitDurationMinutes: '1' });
    clock = 20_000_000;
    const results = await Promise.all(Array.from({ length: 12 }, () => limiter.admit(5, 'default')));
    expect(results.filter((result) => result === null)).toHaveLength(3);
  });

  it('counts nothing while off, and is off with a duration of 0', async () => {
    const off = new ModelRequestLimiter(
      await optionsWith({ ModelRequestRateLimitEnabled: 'false', ModelRequestRateLimitCount: '1' }),
      backend.log,
      () => clock,
    );
    expect(off.admit(6, 'default')).toBeNull();
    const zero = await limiterWith({ ModelRequestRateLimitCount: '1', ModelRequestRateLimitDurationMinutes: '0' });
    expect(zero.admit(6, 'default')).toBeNull();
  });
});

async function enableLimit(root: ApiClient, values: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries({ ...values, ModelRequestRateLimitEnabled: 'true' })) {
    const saved = await root.put('/api/option/', { key, value });
    expect(saved.success, `${key}: ${saved.message}`).toBe(true);
  }
}

describe('model request rate limit through the relay (memory)', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: 'k', base_url: mock.baseUrl, models: 'gpt-4o-mini', group: 'default,vip' });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  it('counts failed requests towards the total but not towards the successful ones, with their own messages', async () => {
    const client = openaiClient(server, await addToken(root, { unlimited_quota: true }));
    await enableLimit(root, {
      ModelRequestRateLimitCount: '3',
      ModelRequestRateLimitSuccessCount: '1',
      ModelRequestRateLimitDurationMinutes: '1',
    });
    mock.enqueue('openai.chat', { kind: 'status', status: 500, message: 'the upstream is down' });
    expect((await apiError(client.chat.completions.create(ask))).status).toBe(500);
    expect((await client.chat.completions.create(ask)).choices).toHaveLength(1);
    const successLimited = await apiError(client.chat.completions.create(ask));
    expect([successLimited.status, plainMessage(successLimited)]).toEqual([
      429,
      'Successful request limit reached: at most 1 successful requests in 1 minutes',
    ]);

    await enableLimit(root, { ModelRequestRateLimitSuccessCount: '1000' });
    // Two requests so far (one failed, one answered): the third is the last one allowed.
    expect((await client.chat.completions.create(ask)).choices).toHaveLength(1);
    const totalLimited = await apiError(client.chat.completions.create(ask));
    expect([totalLimited.status, plainMessage(totalLimited)]).toEqual([
      429,
      'Request limit reached: at most 3 requests in 1 minutes',
    ]);
    await root.put('/api/option/', { key: 'ModelRequestRateLimitEnabled', value: 'false' });
  });

  it("applies the token group's override, and the refused request costs nothing", async () => {
    await root.put('/api/option/', { key: 'ModelRequestRateLimitEnabled', value: 'false' });
    const vipKey = await addToken(root, { group: 'vip', remain_quota: 1_000_000 });
    await enableLimit(root, {
      ModelRequestRateLimitCount: '100',
      ModelRequestRateLimitDurationMinutes: '5',
      ModelRequestRateLimitGroup: JSON.stringify({ vip: [1, 100] }),
    });
    const vip = openaiClient(server, vipKey);
    // The user made requests in the previous test; the override's count of 1 is already used up.
    const refused = await apiError(vip.chat.completions.create(ask));
    expect([refused.status, plainMessage(refused), refused.code]).toEqual([
      429,
      'Request limit reached: at most 1 requests in 5 minutes',
      'rate_limit_exceeded',
    ]);
    await server.ctx.ledger.flush();
    const token = await server.ctx.repos.tokens.findByKey(vipKey.replace(/^sk-/, ''));
    expect([token?.remain_quota, token?.used_quota]).toEqual([1_000_000, 0]);
    await root.put('/api/option/', { key: 'ModelRequestRateLimitEnabled', value: 'false' });
  });
});

describe.skipIf(!hasRedis)('model request rate limit shared through Redis', () => {
  let first: TestServer;
  let second: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let redis: Redis;

  beforeAll(async () => {
    mock = await startMockUpstream();
    const env = { REDIS_CONN_STRING: REDIS_URL };
    first = await startTestServer('sqlite', env);
    second = await startTestServer('sqlite', env, first.database);
    root = await setupAndLogin(first.baseUrl);
    await addChannel(root, { type: 1, key: 'k', base_url: mock.baseUrl, models: 'gpt-4o-mini' });
    // The root user is id 1 in every test database: start from empty windows for it.
    redis = new Redis(REDIS_URL);
    await redis.del('gateway:mrl:total:1', 'gateway:mrl:success:1');
  });
  afterAll(async () => {
    await redis?.del('gateway:mrl:total:1', 'gateway:mrl:success:1');
    redis?.disconnect();
    await second?.close();
    await first?.close();
    await mock?.close();
  });

  it('counts one user across both nodes', async () => {
    const key = await addToken(root, { unlimited_quota: true });
    await enableLimit(root, { ModelRequestRateLimitCount: '2', ModelRequestRateLimitDurationMinutes: '1' });
    await until(async () => second.ctx.options.bool('ModelRequestRateLimitEnabled'));
    expect((await openaiClient(first, key).chat.completions.create(ask)).choices).toHaveLength(1);
    expect((await openaiClient(second, key).chat.completions.create(ask)).choices).toHaveLength(1);
    const refused = await apiError(openaiClient(first, key).chat.completions.create(ask));
    expect([refused.status, plainMessage(refused)]).toEqual([
      429,
      'Request limit reached: at most 2 requests in 1 minutes',
    ]);
    expect((await apiError(openaiClient(second, key).chat.completions.create(ask))).status).toBe(429);
    await root.put('/api/option/', { key: 'ModelRequestRateLimitEnabled', value: 'false' });
  });
});
