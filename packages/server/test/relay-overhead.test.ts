import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupAndLogin } from './helpers/client.js';
import { parsePrometheusText } from './helpers/prometheus-text.js';
import { addChannel, addToken, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const METRICS_TOKEN = 'overhead-metrics-0123456789';
const MODEL = 'overhead-model';
const UPSTREAM_DELAY_MS = 800;

/**
 * Every relay answer says how long the gateway itself worked on it (its time minus the waits on the upstream), and
 * /metrics keeps the same figure as a histogram: operators can check the benchmark on their own traffic.
 */
describe('the gateway’s own time on a relay request', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let key: string;

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite', { METRICS_TOKEN });
    const root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: 'sk-overhead', base_url: mock.baseUrl, models: MODEL });
    await priceModels(server, root, { [MODEL]: 1 });
    key = await addToken(root, { unlimited_quota: true });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  const chat = async (body: Record<string, unknown>) => {
    const started = performance.now();
    const response = await fetch(`${server.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], ...body }),
    });
    await response.text();
    return { response, elapsedMs: performance.now() - started };
  };

  const overheadOf = (response: Response) => {
    const value = response.headers.get('x-gateway-overhead-ms');
    expect(value).toMatch(/^\d+\.\d{2}$/);
    return Number(value);
  };

  it('leaves out the wait for a slow upstream’s answer', async () => {
    mock.enqueue('openai.chat', { kind: 'ok', delayMs: UPSTREAM_DELAY_MS });
    const { response, elapsedMs } = await chat({ model: MODEL });
    expect(response.status).toBe(200);
    expect(elapsedMs).toBeGreaterThanOrEqual(UPSTREAM_DELAY_MS);
    // The upstream's 800 ms are not the gateway's: what is left is a small part of the whole.
    expect(overheadOf(response)).toBeLessThan(elapsedMs - UPSTREAM_DELAY_MS / 2);
  });

  it('leaves out the pauses between a stream’s chunks, and comes with the stream’s head', async () => {
    mock.enqueue('openai.chat', { kind: 'ok', text: 'one two three four', chunkDelayMs: 200 });
    const { response, elapsedMs } = await chat({ model: MODEL, stream: true });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(elapsedMs).toBeGreaterThanOrEqual(400);
    expect(overheadOf(response)).toBeLessThan(elapsedMs - 200);
  });

  it('comes with refusals too', async () => {
    const { response } = await chat({ model: 'no-such-model' });
    expect(response.status).toBe(404);
    overheadOf(response);
  });

  it('is a histogram per route in /metrics, counting every request', async () => {
    const scrape = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const families = parsePrometheusText(await scrape.text());
    const family = families.get('gateway_relay_overhead_seconds');
    expect(family?.type).toBe('histogram');
    const count = family!.samples.find(
      (sample) =>
        sample.name === 'gateway_relay_overhead_seconds_count' && sample.labels.route === '/v1/chat/completions',
    );
    expect(count?.value).toBe(3);
  });
});
