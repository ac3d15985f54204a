import type { ModelHealthResponse } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelHealth } from '../src/metrics/model-health.js';
import { setupAndLogin } from './helpers/client.js';
import { REDIS_URL } from './helpers/databases.js';
import { requireRedisInCi } from './helpers/redis.js';
import { addChannel, addToken, openaiClient, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { until } from './helpers/wait.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const hasRedis = await requireRedisInCi('the shared model health test is skipped (it runs in CI)');

describe('model health: the last hour per model', () => {
  it('counts successes and failures, the median time to first token and the speed of streams', () => {
    let now = Date.UTC(2026, 10, 28, 12, 0, 0);
    const health = new ModelHealth(() => now);
    health.record('m', 'success', 200, 100, 1200);
    health.record('m', 'success', 210, 50, 710);
    health.record('m', 'success', 5000, 10, 6000);
    health.record('m', 'error', null, 0, 50);
    // Abandoned by its client: says nothing of the model.
    health.record('m', 'cancelled', null, 0, 10);
    // A whole (unstreamed) answer: counted, but no speed (its time holds the prompt's processing).
    health.record('m', 'success', null, 999, 100);
    const figures = health.snapshot().m!;
    expect(figures.requests).toBe(5);
    expect(figures.success_rate).toBe(0.8);
    // 200 ms and 210 ms share a half-octave bucket (177–250 ms): its middle.
    expect(figures.ttft_p50_ms).toBeGreaterThan(177);
    expect(figures.ttft_p50_ms).toBeLessThan(250);
    // 160 tokens over 1000 + 500 + 1000 ms after the first token.
    expect(figures.tokens_per_second).toBe(64);
    now += 61 * 60_000;
    expect(health.snapshot()).toEqual({});
  });
});

describe('GET /api/pricing/health', () => {
  let mock: MockUpstream;
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    const root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: 'sk-a', base_url: mock.baseUrl, models: 'health-model,quiet-model' });
    await priceModels(server, root, { 'health-model': 1, 'quiet-model': 1 });
    key = await addToken(root, { unlimited_quota: true });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  it('shows a streamed model with traffic, and leaves out a model without', async () => {
    mock.enqueue('openai.chat', { kind: 'ok', text: 'one two three four', chunkDelayMs: 20 });
    const stream = await openaiClient(server, key).chat.completions.create({
      model: 'health-model',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    for await (const _chunk of stream) {
      // read to the end
    }
    mock.enqueue('openai.chat', { kind: 'status', status: 500, message: 'down' });
    await openaiClient(server, key)
      .chat.completions.create({ model: 'health-model', messages: [{ role: 'user', content: 'hi' }] })
      .catch(() => null);
    const response = await fetch(`${server.baseUrl}/api/pricing/health`);
    const body = (await response.json()) as { success: boolean; data: ModelHealthResponse };
    expect(body.success).toBe(true);
    expect(body.data.window_seconds).toBe(3600);
    const figures = body.data.models['health-model']!;
    expect(figures.requests).toBe(2);
    expect(figures.success_rate).toBe(0.5);
    expect(figures.ttft_p50_ms).toBeGreaterThan(0);
    expect(figures.tokens_per_second).toBeGreaterThan(0);
    expect(body.data.models['quiet-model']).toBeUndefined();
  });
});

describe.skipIf(!hasRedis)('model health over two nodes sharing Redis', () => {
  let mock: MockUpstream;
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    mock = await startMockUpstream();
    const env = { REDIS_CONN_STRING: REDIS_URL };
    first = await startTestServer('sqlite', env);
    second = await startTestServer('sqlite', env, first.database);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await mock?.close();
  });

  it("sums both nodes' calls on either node", async () => {
    const model = `shared-health-${Date.now().toString(36)}`;
    const root = await setupAndLogin(first.baseUrl);
    await addChannel(root, { type: 1, key: 'sk-a', base_url: mock.baseUrl, models: model });
    await priceModels(first, root, { [model]: 1 });
    const key = await addToken(root, { unlimited_quota: true });
    // The second node learns of the channel and the price as any node does (through Redis).
    await until(() => second.ctx.channelCache.candidates('default', model).length === 1);
    await until(() => second.ctx.options.get('ModelRatio').includes(model));
    for (const node of [first, second, second]) {
      await openaiClient(node, key)
        .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
        .catch(() => null);
    }
    const read = async (node: TestServer) =>
      ((await (await fetch(`${node.baseUrl}/api/pricing/health`)).json()) as { data: ModelHealthResponse }).data.models[
        model
      ];
    // Each node's own figures reach Redis when it pushes (every 15 s, or now).
    await first.ctx.modelHealth.push();
    await second.ctx.modelHealth.push();
    expect((await first.ctx.modelHealth.snapshot())[model]?.requests).toBe(3);
    expect((await read(second))?.requests).toBe(3);
  });
});
