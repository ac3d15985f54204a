import { describe, expect, it } from 'vitest';
import { vendorChatSuite } from './helpers/vendor-chat.js';
import { startZhipuMock, ZHIPU_KEY } from './mock-upstream/providers/zhipu.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

describe("Zhipu's legacy ChatGLM API (type 16) through the gateway", () => {
  const suite = vendorChatSuite({
    vendor: 'zhipu',
    type: 16,
    key: ZHIPU_KEY,
    model: 'chatglm_turbo',
    start: startZhipuMock,
  });

  it('calls invoke and sse-invoke with the signed token, reused while it is valid', async () => {
    const messages = [
      { role: 'system' as const, content: 'Be brief.' },
      { role: 'user' as const, content: 'Say hello' },
    ];
    await suite.openai.chat.completions.create({ model: 'chatglm_turbo', messages, temperature: 1.5 });
    const stream = await suite.openai.chat.completions.create({ model: 'chatglm_turbo', messages, stream: true });
    for await (const _ of stream) {
      // drained
    }
    const [whole, streamed] = suite.mock.requests;
    expect(whole!.path).toBe('/api/paas/v3/model-api/chatglm_turbo/invoke');
    expect(whole!.body as WireJson).toEqual({
      prompt: [
        { role: 'user', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      temperature: 1,
    });
    expect(streamed!.path).toBe('/api/paas/v3/model-api/chatglm_turbo/sse-invoke');
    expect((streamed!.body as WireJson).incremental).toBe(true);
    expect(whole!.headers.authorization).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(streamed!.headers.authorization).toBe(whole!.headers.authorization);
  });
});
