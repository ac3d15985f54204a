import { describe, expect, it } from 'vitest';
import { addChannel, apiError, priceModels } from './helpers/relay.js';
import { vendorChatSuite } from './helpers/vendor-chat.js';
import { SPARK_APP_ID, SPARK_KEY, startSparkMock } from './mock-upstream/providers/xunfei.js';

describe('iFlytek Spark (type 18) over its WebSocket through the gateway', () => {
  const suite = vendorChatSuite({
    vendor: 'xunfei',
    type: 18,
    key: SPARK_KEY,
    model: 'SparkDesk-v3.5',
    replyModel: 'generalv3.5',
    start: startSparkMock,
  });

  it('opens the version in the model name with a signed URL and sends one request frame', async () => {
    suite.mock.sockets.length = 0;
    await suite.openai.chat.completions.create({
      model: 'SparkDesk-v3.5',
      messages: [{ role: 'user', content: 'Say hello' }],
      max_tokens: 100,
      temperature: 0.5,
    });
    const socket = suite.mock.sockets[0]!;
    expect(socket.path).toBe('/v3.5/chat');
    expect(Object.keys(socket.query).sort()).toEqual(['authorization', 'date', 'host']);
    expect(socket.frame).toEqual({
      header: { app_id: SPARK_APP_ID },
      parameter: { chat: { domain: 'generalv3.5', temperature: 0.5, max_tokens: 100 } },
      payload: { message: { text: [{ role: 'user', content: 'Say hello' }] } },
    });
  });

  it("takes the version from the channel's other when the model name has none", async () => {
    suite.mock.sockets.length = 0;
    await addChannel(suite.root, {
      type: 18,
      key: SPARK_KEY,
      base_url: suite.mock.baseUrl,
      models: 'SparkDesk',
      other: 'v4.0',
    });
    await priceModels(suite.server, suite.root, { SparkDesk: 1 });
    const answer = await suite.openai.chat.completions.create({
      model: 'SparkDesk',
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    expect(answer.choices[0]!.message.content).toBe('Hello from xunfei mock: 4.0Ultra');
    expect(suite.mock.sockets[0]!.path).toBe('/v4.0/chat');
  });

  it("a refused signature is the channel's failure: 503, Spark's message for the admin only", async () => {
    const wrong = SPARK_KEY.replace('spark-api-secret', 'wrong-secret');
    await addChannel(suite.root, { type: 18, key: wrong, base_url: suite.mock.baseUrl, models: 'SparkDesk-v1.1' });
    await priceModels(suite.server, suite.root, { 'SparkDesk-v1.1': 1 });
    const error = await apiError(
      suite.openai.chat.completions.create({ model: 'SparkDesk-v1.1', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error.status).toBe(503);
    expect(error.code).toBe('upstream_channel_unavailable');
    expect(error.message).not.toContain('HMAC signature does not match');
  });
});
