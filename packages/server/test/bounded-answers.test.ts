import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { clientRequest, type Format } from './helpers/client-formats.js';
import { addChannel, addToken, flushBilling, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type AnswerName, type OversizedUpstream, startOversizedUpstream } from './mock-upstream/oversized-upstream.js';

// An upstream answer past its limit (a whole body past MAX_UPSTREAM_RESPONSE_MB, one event past
// STREAM_SCANNER_MAX_BUFFER_MB) is not read to its end: the caller gets a 502 in its route's own shape and pays
// nothing. Both limits are 1 MiB here; the answers are a few MiB over them, or a little under them.

const MIB = 1024 * 1024;
const OVER = 24 * MIB;
const UNDER = MIB - 4096;

/** The models of the test: each is served by one channel whose base URL names the mock's answer and its size. */
const MODELS: Record<string, { answer: AnswerName; bytes: number }> = {
  'json-over': { answer: 'json', bytes: OVER },
  'json-under': { answer: 'json', bytes: UNDER },
  'error-over': { answer: 'error-json', bytes: OVER },
  'first-event-over': { answer: 'first-event', bytes: OVER },
  'first-event-under': { answer: 'first-event', bytes: UNDER },
  'later-event-over': { answer: 'later-event', bytes: OVER },
  'endless-line': { answer: 'endless-line', bytes: OVER },
  'tts-1': { answer: 'audio', bytes: 3 * MIB },
};

/** The error of a body in the format's own shape (undefined when it has another shape). */
function errorOf(format: Format, json: Record<string, unknown>) {
  const error = json.error as { message?: string; type?: unknown; status?: unknown; code?: unknown } | undefined;
  if (format === 'claude') return json.type === 'error' && typeof error?.type === 'string' ? error : undefined;
  if (format === 'gemini')
    return typeof error?.status === 'string' && typeof error.code === 'number' ? error : undefined;
  return typeof error?.type === 'string' && 'code' in error ? error : undefined;
}

describe('upstream answers past their size limit', () => {
  let server: TestServer;
  let upstream: OversizedUpstream;
  let root: ApiClient;
  let key: string;

  beforeAll(async () => {
    upstream = await startOversizedUpstream();
    server = await startTestServer('sqlite', { MAX_UPSTREAM_RESPONSE_MB: '1', STREAM_SCANNER_MAX_BUFFER_MB: '1' });
    root = await setupAndLogin(server.baseUrl);
    for (const [model, { answer, bytes }] of Object.entries(MODELS)) {
      await addChannel(root, {
        type: 1,
        key: 'sk-oversized',
        base_url: `${upstream.baseUrl}/${answer}/${bytes}`,
        models: model,
      });
    }
    await priceModels(server, root, Object.fromEntries(Object.keys(MODELS).map((model) => [model, 1])));
    key = await addToken(root, { name: 'oversized', remain_quota: 1_000_000 });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  /** The user's quota and the key's remaining quota, as the console reads them. */
  const balances = async () => {
    await flushBilling(server);
    const self = await root.get<{ quota: number }>('/api/user/self');
    const tokens = await root.get<{ items: Array<{ remain_quota: number }> }>(`/api/token/search?token=${key}`);
    return { user: self.data.quota, token: tokens.data.items[0]!.remain_quota };
  };

  const call = (format: Format, model: string, stream: boolean) => {
    const ask = clientRequest(format, model, key, stream);
    return fetch(`${server.baseUrl}${ask.path}`, {
      method: 'POST',
      // English messages: the tests read them.
      headers: { 'content-type': 'application/json', 'accept-language': 'en', ...ask.headers },
      body: JSON.stringify(ask.body),
    });
  };

  it.each(['openai', 'claude', 'gemini'] as const)(
    'a whole answer over the limit is a 502 in the %s shape, read no further and not charged',
    async (format) => {
      const before = await balances();
      const sentBefore = upstream.sent.length;
      const answer = await call(format, 'json-over', false);
      expect(answer.status).toBe(502);
      const error = errorOf(format, (await answer.json()) as Record<string, unknown>);
      expect(error?.message).toMatch(/too large/);
      if (format === 'openai') expect(error?.code).toBe('upstream_response_too_large');
      expect(await balances()).toEqual(before);
      // The upstream was cut off near the limit, not read to its 24 MiB end (socket buffers hold a few MiB).
      await expect.poll(() => upstream.sent[sentBefore]).toBeGreaterThan(0);
      expect(upstream.sent[sentBefore]).toBeLessThan(OVER / 2);
    },
  );

  it('a whole answer just under the limit is relayed and charged', async () => {
    const before = await balances();
    const answer = await call('openai', 'json-under', false);
    expect(answer.status).toBe(200);
    const json = (await answer.json()) as { choices: Array<{ message: { content: string } }> };
    expect(json.choices[0]!.message.content.length).toBeGreaterThan(MIB - 8192);
    // 10 prompt + 20 completion tokens at ratio 1 (completion ratio 1 for an unknown model) = 30
    expect(await balances()).toEqual({ user: before.user - 30, token: before.token - 30 });
  });

  it('an error answer over the limit keeps its status, with a generic message', async () => {
    const before = await balances();
    const answer = await call('openai', 'error-over', false);
    expect(answer.status).toBe(500);
    const error = errorOf('openai', (await answer.json()) as Record<string, unknown>);
    expect(error?.message).not.toContain('xxxx');
    expect(await balances()).toEqual(before);
  });

  it.each(['openai', 'claude', 'gemini'] as const)(
    'a first stream event over the limit is a 502 in the %s shape before the stream begins, not charged',
    async (format) => {
      const before = await balances();
      const answer = await call(format, 'first-event-over', true);
      expect(answer.status).toBe(502);
      const error = errorOf(format, (await answer.json()) as Record<string, unknown>);
      expect(error?.message).toMatch(/too large/);
      expect(await balances()).toEqual(before);
    },
  );

  it('an event stream without a line end is refused at the event limit too', async () => {
    const before = await balances();
    const answer = await call('openai', 'endless-line', true);
    expect(answer.status).toBe(502);
    expect(errorOf('openai', (await answer.json()) as Record<string, unknown>)?.code).toBe(
      'upstream_response_too_large',
    );
    expect(await balances()).toEqual(before);
  });

  it('a stream event just under the limit is relayed and charged', async () => {
    const before = await balances();
    const answer = await call('openai', 'first-event-under', true);
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(text.length).toBeGreaterThan(MIB - 8192);
    expect(text.trim().endsWith('data: [DONE]')).toBe(true);
    // The stream's reported usage: 10 prompt + 20 completion tokens at ratio 1 = 30
    expect(await balances()).toEqual({ user: before.user - 30, token: before.token - 30 });
  });

  it.each(['openai', 'claude'] as const)(
    'an event over the limit after the stream began ends the %s stream with its error event',
    async (format) => {
      const answer = await call(format, 'later-event-over', true);
      expect(answer.status).toBe(200);
      const events = (await answer.text()).trim().split('\n\n');
      // What came before the oversized event reached the client.
      expect(events.slice(0, -1).join('\n\n')).toContain('Hello');
      const last = events.at(-1)!;
      if (format === 'claude') expect(last.startsWith('event: error\n')).toBe(true);
      const error = errorOf(format, JSON.parse(last.slice(last.indexOf('data: ') + 6)) as Record<string, unknown>);
      expect(error?.message).toMatch(/too large/);
    },
  );

  it('speech audio streams through whatever its length: bytes are never held whole', async () => {
    const answer = await fetch(`${server.baseUrl}/v1/audio/speech`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input: 'Hello world' }),
    });
    expect(answer.status).toBe(200);
    expect((await answer.arrayBuffer()).byteLength).toBe(3 * MIB);
  });

  it('tells the admin, in the error log only, which limit the answer crossed', async () => {
    await flushBilling(server);
    type Row = { other: string; model_name: string };
    const rows = await root.get<{ items: Row[] }>('/api/log/?type=5&p=1&page_size=100');
    const row = rows.data.items.find((item) => item.model_name === 'json-over');
    const detail = (JSON.parse(row!.other) as { admin_info: { upstream_detail?: string } }).admin_info.upstream_detail;
    expect(detail).toBe('HTTP 200: upstream answer body exceeded 1 MiB');
  });
});
