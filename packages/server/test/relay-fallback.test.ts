import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { addChannel, addToken, apiError, balances, flushBilling, openaiClient, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

// Model fallback over real HTTP with the official OpenAI SDK: when every channel of the requested model fails, the
// token's (else the group's) fallback models are tried in order, each reserved and billed at its own price.

const dialects = await availableDialects();

const ask = { messages: [{ role: 'user' as const, content: 'hello there' }] };
/** Usage every successful mock answer reports, so bills can be worked out by hand. */
const USAGE = { prompt: 100, completion: 40 };
const GROUP_RATIO = 2;
/** model-a and model-b are priced per token, model-c per call ($0.01). */
const RATIOS = { 'model-a': 2, 'model-b': 3, 'model-d': 1 };
const PER_CALL_USD = 0.01;
/** (prompt + completion × completion ratio 1) × model ratio × group ratio. */
const tokenBill = (ratio: number) => (USAGE.prompt + USAGE.completion) * ratio * GROUP_RATIO;

interface LogOther {
  requested_model?: string;
  fallback_chain?: string[];
  model_ratio?: number;
  model_price?: number;
  group_ratio: number;
  admin_info: { use_channel: string[] };
}

describe.each(dialects)('model fallback on %s', (dialect) => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  const channels: Record<string, number> = {};

  /** The newest log row of a type for a token (each test has its own token), once it has been written. */
  const lastLog = async (type: 2 | 5, tokenName: string) => {
    const find = async () => {
      await flushBilling(server);
      return (await server.ctx.repos.logs.list({ type, tokenName }, 0, 1)).items[0];
    };
    await expect.poll(find, { timeout: 5000 }).toBeDefined();
    const log = (await find())!;
    return { log, other: JSON.parse(log.other!) as LogOther };
  };
  const upstreamModels = () => mock.requests.map((request) => (request.body as { model: string }).model);
  const setOption = async (key: string, value: string) => {
    const saved = await root.put('/api/option/', { key, value });
    expect(saved.success, saved.message).toBe(true);
  };

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
    for (const model of ['model-a', 'model-b', 'model-c', 'model-d', 'model-unpriced']) {
      channels[model] = await addChannel(root, { type: 1, key: `key-${model}`, base_url: mock.baseUrl, models: model });
    }
    // A second channel of model-a, so RetryTimes has another channel to go to.
    channels['model-a-2'] = await addChannel(root, {
      type: 1,
      key: 'key-model-a-2',
      base_url: mock.baseUrl,
      models: 'model-a',
      priority: -1,
    });
    await priceModels(server, root, RATIOS);
    await setOption('ModelPrice', JSON.stringify({ 'model-c': PER_CALL_USD }));
    await setOption('GroupRatio', JSON.stringify({ default: GROUP_RATIO }));
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(async () => {
    mock.reset();
    mock.setDefault('openai.chat', { kind: 'ok', usage: USAGE });
    await setOption('RetryTimes', '0');
    await setOption('FallbackStatusCodes', '');
    await setOption('GroupFallbackModels', '{}');
  });

  it('keeps a token’s list normalised, shows it on reads and lists, keeps it when an edit leaves it out', async () => {
    const created = await root.post<Array<{ key: string }>>('/api/token/', {
      name: 'stored',
      fallback_models: ' model-b , model-c,model-b',
    });
    expect(created.success, created.message).toBe(true);
    const listed = await root.get<{ items: Array<{ id: number; name: string; fallback_models: string }> }>(
      '/api/token/?size=100',
    );
    const row = listed.data.items.find((token) => token.name === 'stored')!;
    expect(row.fallback_models).toBe('model-b,model-c');
    // A family script's edit without the field keeps it; an empty string clears it.
    expect((await root.put('/api/token/', { id: row.id, name: 'stored', remain_quota: 10 })).success).toBe(true);
    expect((await root.get<{ fallback_models: string }>(`/api/token/${row.id}`)).data.fallback_models).toBe(
      'model-b,model-c',
    );
    expect((await root.put('/api/token/', { id: row.id, name: 'stored', fallback_models: '' })).success).toBe(true);
    expect((await root.get<{ fallback_models: string }>(`/api/token/${row.id}`)).data.fallback_models).toBe('');
    const refused = await root.put('/api/token/', { id: row.id, name: 'stored', fallback_models: 'a,b,c,d,e,f' });
    expect([refused.success, refused.message]).toEqual([
      false,
      '备用模型须为逗号分隔的模型名，最多 5 个，每个不超过 128 个字符且不重复',
    ]);
  });

  it('serves with the fallback when the requested model fails, says so, and bills the fallback’s price to the unit', async () => {
    const key = await addToken(root, { name: 'fb', remain_quota: 1_000_000, fallback_models: 'model-b' });
    const before = await balances(server, root.userId!, key);
    mock.enqueue('openai.chat', { kind: 'status', status: 500, message: 'model-a is down' });

    const { data, response } = await openaiClient(server, key)
      .chat.completions.create({ model: 'model-a', ...ask })
      .withResponse();

    expect(response.status).toBe(200);
    expect(response.headers.get('x-gateway-served-model')).toBe('model-b');
    expect(data.choices[0]!.message.content).toBe('Hello from openai mock: model-b');
    expect(upstreamModels()).toEqual(['model-a', 'model-b']);
    const after = await balances(server, root.userId!, key);
    expect(before.token.remain_quota - after.token.remain_quota).toBe(tokenBill(3));
    expect(after.user.used_quota - before.user.used_quota).toBe(tokenBill(3));
    const { log, other } = await lastLog(2, 'fb');
    expect([log.model_name, log.quota, log.channel_id]).toEqual(['model-b', tokenBill(3), channels['model-b']]);
    expect(other).toMatchObject({
      requested_model: 'model-a',
      fallback_chain: ['model-a', 'model-b'],
      model_ratio: 3,
      group_ratio: GROUP_RATIO,
      admin_info: { use_channel: [String(channels['model-a']), String(channels['model-b'])] },
    });
  });

  it('names the served model on an ordinary answer too, with no fallback facts in its log', async () => {
    const key = await addToken(root, { name: 'plain', unlimited_quota: true, fallback_models: 'model-b' });
    const { response } = await openaiClient(server, key)
      .chat.completions.create({ model: 'model-a', ...ask })
      .withResponse();
    expect(response.headers.get('x-gateway-served-model')).toBe('model-a');
    const { log, other } = await lastLog(2, 'plain');
    expect([log.model_name, log.quota]).toEqual(['model-a', tokenBill(2)]);
    expect(other.requested_model).toBeUndefined();
    expect(other.fallback_chain).toBeUndefined();
  });

  it('walks a chain of two fallbacks, each model with its own RetryTimes, and bills the last one’s per-call price', async () => {
    await setOption('RetryTimes', '1');
    const key = await addToken(root, { name: 'chain', remain_quota: 1_000_000, fallback_models: 'model-b, model-c' });
    const before = await balances(server, root.userId!, key);
    mock.enqueue(
      'openai.chat',
      { kind: 'status', status: 500 },
      { kind: 'status', status: 502 },
      { kind: 'status', status: 429 },
    );

    const { data, response } = await openaiClient(server, key)
      .chat.completions.create({ model: 'model-a', ...ask })
      .withResponse();

    expect(response.headers.get('x-gateway-served-model')).toBe('model-c');
    expect(data.choices[0]!.message.content).toBe('Hello from openai mock: model-c');
    // model-a: both its channels (RetryTimes 1); model-b: its one channel (a failed channel is never tried twice).
    expect(upstreamModels()).toEqual(['model-a', 'model-a', 'model-b', 'model-c']);
    const perCall = Math.round(PER_CALL_USD * 500_000 * GROUP_RATIO);
    const after = await balances(server, root.userId!, key);
    expect(before.token.remain_quota - after.token.remain_quota).toBe(perCall);
    const { log, other } = await lastLog(2, 'chain');
    expect([log.model_name, log.quota]).toEqual(['model-c', perCall]);
    expect(other).toMatchObject({
      requested_model: 'model-a',
      fallback_chain: ['model-a', 'model-b', 'model-c'],
      model_price: PER_CALL_USD,
    });
    expect(other.admin_info.use_channel).toEqual(
      [channels['model-a'], channels['model-a-2'], channels['model-b'], channels['model-c']].map(String),
    );
  });

  it('returns the failure as it is when the request opts out with X-Gateway-Fallback: off, and charges nothing', async () => {
    const key = await addToken(root, { name: 'optout', remain_quota: 1_000_000, fallback_models: 'model-b' });
    const before = await balances(server, root.userId!, key);
    mock.enqueue('openai.chat', { kind: 'status', status: 500, message: 'model-a is down' });

    const failure = await apiError(
      openaiClient(server, key).chat.completions.create(
        { model: 'model-a', ...ask },
        { headers: { 'X-Gateway-Fallback': 'off' } },
      ),
    );

    expect(failure.status).toBe(500);
    expect(upstreamModels()).toEqual(['model-a']);
    const after = await balances(server, root.userId!, key);
    expect([after.token.remain_quota, after.user.used_quota]).toEqual([
      before.token.remain_quota,
      before.user.used_quota,
    ]);
    const { log, other } = await lastLog(5, 'optout');
    expect(log.model_name).toBe('model-a');
    expect(other.fallback_chain).toBeUndefined();
  });

  it('never falls back on a 400: the request itself is what the upstream refused', async () => {
    const key = await addToken(root, { name: 'bad', unlimited_quota: true, fallback_models: 'model-b' });
    mock.enqueue('openai.chat', { kind: 'status', status: 400, message: 'bad request body' });
    const failure = await apiError(openaiClient(server, key).chat.completions.create({ model: 'model-a', ...ask }));
    expect([failure.status, failure.message]).toEqual([400, expect.stringContaining('bad request body')]);
    expect(upstreamModels()).toEqual(['model-a']);
  });

  it('falls back only on the statuses FallbackStatusCodes names', async () => {
    await setOption('FallbackStatusCodes', '429');
    const key = await addToken(root, { name: 'codes', unlimited_quota: true, fallback_models: 'model-b' });

    mock.enqueue('openai.chat', { kind: 'status', status: 500 });
    const failure = await apiError(openaiClient(server, key).chat.completions.create({ model: 'model-a', ...ask }));
    expect(failure.status).toBe(500);
    expect(upstreamModels()).toEqual(['model-a']);

    mock.reset();
    mock.setDefault('openai.chat', { kind: 'ok', usage: USAGE });
    mock.enqueue('openai.chat', { kind: 'status', status: 429 });
    const { response } = await openaiClient(server, key)
      .chat.completions.create({ model: 'model-a', ...ask })
      .withResponse();
    expect(response.headers.get('x-gateway-served-model')).toBe('model-b');
    expect(upstreamModels()).toEqual(['model-a', 'model-b']);

    expect((await root.put('/api/option/', { key: 'FallbackStatusCodes', value: '400,500' })).success).toBe(false);
  });

  it('skips a fallback outside the token’s model limits, and one without a price', async () => {
    const key = await addToken(root, {
      name: 'limited',
      unlimited_quota: true,
      model_limits_enabled: true,
      model_limits: 'model-a,model-d,model-unpriced',
      fallback_models: 'model-b,model-unpriced,model-d',
    });
    mock.enqueue('openai.chat', { kind: 'status', status: 503 });
    const { response } = await openaiClient(server, key)
      .chat.completions.create({ model: 'model-a', ...ask })
      .withResponse();
    expect(response.headers.get('x-gateway-served-model')).toBe('model-d');
    expect(upstreamModels()).toEqual(['model-a', 'model-d']);
    const { other } = await lastLog(2, 'limited');
    expect(other.fallback_chain).toEqual(['model-a', 'model-d']);
  });

  it('uses the group’s list when the token has none; the token’s own list wins over it', async () => {
    await setOption('GroupFallbackModels', JSON.stringify({ default: ['model-d'] }));
    const groupKey = await addToken(root, { name: 'group', unlimited_quota: true });
    mock.enqueue('openai.chat', { kind: 'status', status: 500 });
    const viaGroup = await openaiClient(server, groupKey)
      .chat.completions.create({ model: 'model-a', ...ask })
      .withResponse();
    expect(viaGroup.response.headers.get('x-gateway-served-model')).toBe('model-d');

    mock.reset();
    mock.setDefault('openai.chat', { kind: 'ok', usage: USAGE });
    const ownKey = await addToken(root, { name: 'own', unlimited_quota: true, fallback_models: 'model-b' });
    mock.enqueue('openai.chat', { kind: 'status', status: 500 });
    const viaToken = await openaiClient(server, ownKey)
      .chat.completions.create({ model: 'model-a', ...ask })
      .withResponse();
    expect(viaToken.response.headers.get('x-gateway-served-model')).toBe('model-b');
    expect(upstreamModels()).toEqual(['model-a', 'model-b']);
  });

  it('returns the last failure and refunds every reservation when no model serves', async () => {
    const key = await addToken(root, { name: 'none', remain_quota: 1_000_000, fallback_models: 'model-b,model-c' });
    const before = await balances(server, root.userId!, key);
    mock.enqueue(
      'openai.chat',
      { kind: 'status', status: 500 },
      { kind: 'status', status: 502 },
      {
        kind: 'status',
        status: 503,
      },
    );
    const failure = await apiError(openaiClient(server, key).chat.completions.create({ model: 'model-a', ...ask }));
    expect(failure.status).toBe(503);
    expect(upstreamModels()).toEqual(['model-a', 'model-b', 'model-c']);
    const after = await balances(server, root.userId!, key);
    expect([after.token.remain_quota, after.user.used_quota]).toEqual([
      before.token.remain_quota,
      before.user.used_quota,
    ]);
    const { log, other } = await lastLog(5, 'none');
    expect(log.model_name).toBe('model-a');
    expect(other).toMatchObject({ requested_model: 'model-a', fallback_chain: ['model-a', 'model-b', 'model-c'] });
  });

  it('falls back on the Anthropic Messages route too, answering in Claude’s shape', async () => {
    const key = await addToken(root, { name: 'claude', unlimited_quota: true, fallback_models: 'model-b' });
    mock.enqueue('openai.chat', { kind: 'status', status: 503 });
    const anthropic = new Anthropic({ apiKey: key, baseURL: server.baseUrl, maxRetries: 0 });
    const { data, response } = await anthropic.messages
      .create({ model: 'model-a', max_tokens: 64, messages: [{ role: 'user', content: 'hello there' }] })
      .withResponse();
    expect(response.headers.get('x-gateway-served-model')).toBe('model-b');
    expect(data.content).toEqual([{ type: 'text', text: 'Hello from openai mock: model-b' }]);
    expect(upstreamModels()).toEqual(['model-a', 'model-b']);
    const { log } = await lastLog(2, 'claude');
    expect([log.model_name, log.quota]).toEqual(['model-b', tokenBill(3)]);
  });

  it('streams from the fallback when the requested model fails before the first byte', async () => {
    const key = await addToken(root, { name: 'stream', remain_quota: 1_000_000, fallback_models: 'model-b' });
    const before = await balances(server, root.userId!, key);
    mock.enqueue('openai.chat', { kind: 'status', status: 502 });
    const { data: stream, response } = await openaiClient(server, key)
      .chat.completions.create({ model: 'model-a', ...ask, stream: true, stream_options: { include_usage: true } })
      .withResponse();
    expect(response.headers.get('x-gateway-served-model')).toBe('model-b');
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Hello from openai mock: model-b');
    expect(upstreamModels()).toEqual(['model-a', 'model-b']);
    const after = await balances(server, root.userId!, key);
    expect(before.token.remain_quota - after.token.remain_quota).toBe(tokenBill(3));
    const { log, other } = await lastLog(2, 'stream');
    expect([log.model_name, log.is_stream]).toEqual(['model-b', 1]);
    expect(other.fallback_chain).toEqual(['model-a', 'model-b']);
  });

  it('never falls back once a stream has begun: the client keeps what it got from the requested model', async () => {
    const key = await addToken(root, { name: 'midstream', unlimited_quota: true, fallback_models: 'model-b' });
    mock.enqueue('openai.chat', { kind: 'reset-after-chunks', chunks: 2 });
    const stream = await openaiClient(server, key).chat.completions.create({ model: 'model-a', ...ask, stream: true });
    let text = '';
    try {
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    } catch {
      // The gateway ends a broken stream with an error event; the SDK may raise it.
    }
    expect(text).toBe('Hello from ');
    expect(upstreamModels()).toEqual(['model-a']);
    const { log, other } = await lastLog(2, 'midstream');
    expect(log.model_name).toBe('model-a');
    expect(other.fallback_chain).toBeUndefined();
  });
});
