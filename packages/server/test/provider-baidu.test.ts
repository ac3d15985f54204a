import { describe, expect, it } from 'vitest';
import { addChannel, apiError, priceModels } from './helpers/relay.js';
import { vendorChatSuite } from './helpers/vendor-chat.js';
import { BAIDU_KEY, startBaiduMock } from './mock-upstream/providers/baidu.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

describe('Baidu ERNIE (type 15) through the gateway', () => {
  const suite = vendorChatSuite({
    vendor: 'baidu',
    type: 15,
    key: BAIDU_KEY,
    model: 'ERNIE-4.0-8K',
    // The mock repeats the endpoint the model maps to.
    replyModel: 'completions_pro',
    start: startBaiduMock,
  });
  const tokenRequests = () => suite.mock.requests.filter((request) => request.path === '/oauth/2.0/token');

  it('sends the ERNIE body to the model endpoint with the access token', async () => {
    await suite.openai.chat.completions.create({
      model: 'ERNIE-4.0-8K',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      max_tokens: 64,
    });
    const chat = suite.mock.requests.find((request) => request.path.includes('wenxinworkshop'))!;
    expect(chat.path).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro');
    expect(chat.query.access_token).toMatch(/^24\./);
    expect(chat.body as WireJson).toEqual({
      messages: [{ role: 'user', content: 'Say hello' }],
      system: 'Be brief.',
      max_output_tokens: 64,
    });
  });

  it('fetches one access token for concurrent requests on a new key, then reuses it', async () => {
    // Another origin for the same mock is another cache entry, so this channel starts without a token.
    const base = suite.mock.baseUrl.replace('127.0.0.1', 'localhost');
    await addChannel(suite.root, { type: 15, key: BAIDU_KEY, base_url: base, models: 'ERNIE-Speed-8K' });
    await priceModels(suite.server, suite.root, { 'ERNIE-Speed-8K': 1 });
    const ask = () =>
      suite.openai.chat.completions.create({ model: 'ERNIE-Speed-8K', messages: [{ role: 'user', content: 'hi' }] });
    await Promise.all([ask(), ask(), ask()]);
    await ask();
    expect(tokenRequests()).toHaveLength(1);
    expect(suite.mock.requests.filter((request) => request.path.endsWith('/chat/ernie_speed'))).toHaveLength(4);
  });

  it('serves embeddings in the OpenAI shape', async () => {
    await addChannel(suite.root, { type: 15, key: BAIDU_KEY, base_url: suite.mock.baseUrl, models: 'Embedding-V1' });
    await priceModels(suite.server, suite.root, { 'Embedding-V1': 1 });
    const answer = await suite.openai.embeddings.create({
      model: 'Embedding-V1',
      input: ['one two', 'three'],
      encoding_format: 'float',
    });
    expect(answer.data.map((item) => item.embedding)).toEqual([
      [0, 0.5, -0.5],
      [1, 0.5, -0.5],
    ]);
    expect(answer.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
    const request = suite.mock.requests.find((entry) => entry.path.includes('/embeddings/'))!;
    expect(request.path).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/embedding-v1');
    expect(request.body).toEqual({ input: ['one two', 'three'] });
  });

  it("gives the openai SDK's default base64 embeddings though ERNIE answers floats", async () => {
    // No encoding_format: the SDK asks for base64 and decodes the float32 bytes itself.
    const answer = await suite.openai.embeddings.create({ model: 'Embedding-V1', input: 'one two' });
    expect(answer.data[0]!.embedding).toEqual([0, 0.5, -0.5]);
    const raw = await fetch(`${suite.server.baseUrl}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.tokenKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'Embedding-V1', input: 'one two', encoding_format: 'base64' }),
    });
    const body = (await raw.json()) as { data: Array<{ embedding: string }> };
    expect(body.data[0]!.embedding).toBe(Buffer.from(Float32Array.from([0, 0.5, -0.5]).buffer).toString('base64'));
  });

  it("a refused API key is the channel's failure: 503, and the test button says why", async () => {
    const id = await addChannel(suite.root, {
      type: 15,
      key: 'wrong|pair',
      base_url: suite.mock.baseUrl,
      models: 'ERNIE-Lite-8K',
    });
    await priceModels(suite.server, suite.root, { 'ERNIE-Lite-8K': 1 });
    const error = await apiError(
      suite.openai.chat.completions.create({ model: 'ERNIE-Lite-8K', messages: [{ role: 'user', content: 'hi' }] }),
    );
    // The caller reads a generic 503; the admin's test button names Baidu's reason.
    expect(error.status).toBe(503);
    expect(error.code).toBe('upstream_channel_unavailable');
    expect(error.message).not.toContain('unknown client id');
    const test = await suite.root.get(`/api/channel/test/${id}`);
    expect(test).toMatchObject({ success: false, message: 'unknown client id' });
  });
});
