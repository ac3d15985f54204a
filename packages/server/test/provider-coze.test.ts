import { describe, expect, it } from 'vitest';
import { apiError } from './helpers/relay.js';
import { vendorChatSuite } from './helpers/vendor-chat.js';
import { COZE_BOT, COZE_KEY, startCozeMock } from './mock-upstream/providers/coze.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

describe('Coze bots (type 49) through the gateway', () => {
  const suite = vendorChatSuite({
    vendor: 'coze',
    type: 49,
    key: COZE_KEY,
    model: 'coze-bot',
    replyModel: COZE_BOT,
    other: COZE_BOT,
    start: startCozeMock,
  });

  it('sends the bot from `other` and the user and assistant turns, streaming or polling the chat', async () => {
    const messages = [
      { role: 'system' as const, content: 'Be brief.' },
      { role: 'user' as const, content: 'Hi' },
      { role: 'assistant' as const, content: 'Hello.' },
      {
        role: 'user' as const,
        content: [
          { type: 'text' as const, text: 'Say hello' },
          { type: 'image_url' as const, image_url: { url: 'https://example.com/cat.png' } },
        ],
      },
    ];
    await suite.openai.chat.completions.create({ model: 'coze-bot', messages, user: 'alice' });
    const stream = await suite.openai.chat.completions.create({ model: 'coze-bot', messages, stream: true });
    for await (const _ of stream) {
      // drained
    }
    const [created, retrieved, listed, streamed] = suite.mock.requests;
    expect(created!.method).toBe('POST');
    expect(created!.path).toBe('/v3/chat');
    expect(created!.headers.authorization).toBe(`Bearer ${COZE_KEY}`);
    expect(created!.body as WireJson).toEqual({
      bot_id: COZE_BOT,
      user_id: 'alice',
      additional_messages: [
        { role: 'user', content: 'Hi', content_type: 'text' },
        { role: 'assistant', type: 'answer', content: 'Hello.', content_type: 'text' },
        {
          role: 'user',
          content: JSON.stringify([
            { type: 'text', text: 'Say hello' },
            { type: 'image', file_url: 'https://example.com/cat.png' },
          ]),
          content_type: 'object_string',
        },
      ],
      stream: false,
    });
    const ids = { conversation_id: expect.stringMatching(/^conv-\d+$/), chat_id: expect.stringMatching(/^chat-\d+$/) };
    expect([retrieved, listed].map((request) => [request!.method, request!.path, request!.query])).toEqual([
      ['GET', '/v3/chat/retrieve', ids],
      ['GET', '/v3/chat/message/list', ids],
    ]);
    expect(listed!.query).toEqual(retrieved!.query);
    expect(retrieved!.headers.authorization).toBe(`Bearer ${COZE_KEY}`);
    expect((streamed!.body as WireJson).stream).toBe(true);
    expect((streamed!.body as WireJson).user_id).toMatch(/^gateway-[0-9a-f-]{36}$/);
  });

  it('asks again while the chat is in progress, and answers only the bot answer', async () => {
    const answer = await suite.openai.chat.completions.create({
      model: 'coze-bot',
      messages: [{ role: 'user', content: 'Say hello [slow]' }],
    });
    expect(answer.choices[0]!.message.content).toBe(`Hello from coze mock: ${COZE_BOT}`);
    expect(suite.mock.requests.map((request) => request.path)).toEqual([
      '/v3/chat',
      '/v3/chat/retrieve',
      '/v3/chat/retrieve',
      '/v3/chat/message/list',
    ]);
  });

  it('reads a refusal that comes as JSON with HTTP 200 to a streamed request too', async () => {
    const error = await apiError(
      suite.openai.chat.completions.create({
        model: 'coze-bot',
        messages: [{ role: 'user', content: 'Say hello [limit]' }],
        stream: true,
      }),
    );
    expect(error.status).toBe(429);
    expect(error.message).toContain('The request rate exceeds the limit');
  });

  it("answers a failed chat with the chat's error, whole or streamed", async () => {
    const error = await apiError(
      suite.openai.chat.completions.create({
        model: 'coze-bot',
        messages: [{ role: 'user', content: 'Say hello [fail]' }],
      }),
    );
    expect(error.status).toBe(500);
    expect(error.message).toContain('model overloaded, try later');
    const stream = await suite.openai.chat.completions.create({
      model: 'coze-bot',
      messages: [{ role: 'user', content: 'Say hello [fail]' }],
      stream: true,
    });
    await expect(
      (async () => {
        for await (const _ of stream) {
          // read until the error
        }
      })(),
    ).rejects.toThrow('model overloaded, try later');
  });
});
