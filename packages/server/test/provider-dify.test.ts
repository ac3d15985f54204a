import { describe, expect, it } from 'vitest';
import { addChannel, priceModels } from './helpers/relay.js';
import { vendorChatSuite } from './helpers/vendor-chat.js';
import {
  DIFY_AGENT_KEY,
  DIFY_AGENT_THOUGHT,
  DIFY_APP,
  DIFY_KEY,
  startDifyMock,
} from './mock-upstream/providers/dify.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

describe('Dify chat apps (type 37) through the gateway', () => {
  const suite = vendorChatSuite({
    vendor: 'dify',
    type: 37,
    key: DIFY_KEY,
    model: 'dify-chat',
    replyModel: DIFY_APP,
    start: startDifyMock,
  });

  it('folds the conversation into one query and sends streaming chat-messages with the app key, whole answers too', async () => {
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
    await suite.openai.chat.completions.create({ model: 'dify-chat', messages, user: 'alice', temperature: 0.3 });
    const stream = await suite.openai.chat.completions.create({ model: 'dify-chat', messages, stream: true });
    for await (const _ of stream) {
      // drained
    }
    const [whole, streamed] = suite.mock.requests;
    expect(whole!.method).toBe('POST');
    expect(whole!.path).toBe('/v1/chat-messages');
    expect(whole!.headers.authorization).toBe(`Bearer ${DIFY_KEY}`);
    expect(whole!.body as WireJson).toEqual({
      inputs: {},
      query: 'SYSTEM: \nBe brief.\nUSER: \nHi\nASSISTANT: \nHello.\nUSER: \nSay hello\n',
      response_mode: 'streaming',
      user: 'alice',
      auto_generate_name: false,
      files: [{ type: 'image', transfer_mode: 'remote_url', url: 'https://example.com/cat.png' }],
    });
    expect((streamed!.body as WireJson).response_mode).toBe('streaming');
    expect((streamed!.body as WireJson).user).toMatch(/^gateway-[0-9a-f-]{36}$/);
  });

  it('uploads an inline image to the app first and attaches it by its file id', async () => {
    // ASCII bytes: the vendor mock reads bodies as UTF-8 text, which would garble a real PNG's bytes.
    const gif = Buffer.from('GIF89a mock image');
    const answer = await suite.openai.chat.completions.create({
      model: 'dify-chat',
      user: 'bob',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Say hello' },
            { type: 'image_url', image_url: { url: `data:image/gif;base64,${gif.toString('base64')}` } },
          ],
        },
      ],
    });
    expect(answer.choices[0]!.message.content).toBe(`Hello from dify mock: ${DIFY_APP}`);
    const [uploaded, chat] = suite.mock.requests;
    expect([uploaded!.method, uploaded!.path, uploaded!.headers.authorization]).toEqual([
      'POST',
      '/v1/files/upload',
      `Bearer ${DIFY_KEY}`,
    ]);
    const form = uploaded!.body as WireJson;
    expect(form.fields).toEqual({ user: 'bob' });
    expect(form.files[0]).toMatchObject({ field: 'file', filename: 'image.gif', contentType: 'image/gif' });
    expect(Buffer.compare(form.files[0].data, gif)).toBe(0);
    const fileId = (chat!.body as WireJson).files[0].upload_file_id;
    expect((chat!.body as WireJson).files).toEqual([
      { type: 'image', transfer_mode: 'local_file', upload_file_id: fileId },
    ]);
    expect(fileId).toMatch(/^file-mock-\d+$/);
  });

  it('shows the workflow and node progress as reasoning, apart from the answer', async () => {
    const stream = await suite.openai.chat.completions.create({
      model: 'dify-chat',
      messages: [{ role: 'user', content: 'Say hello' }],
      stream: true,
    });
    let reasoning = '';
    let content = '';
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
      reasoning += delta?.reasoning_content ?? '';
      content += delta?.content ?? '';
    }
    expect(reasoning).toBe('Workflow: wf-mock\nNode: llm\nNode: llm succeeded\nWorkflow: wf-mock succeeded\n');
    expect(content).toBe(`Hello from dify mock: ${DIFY_APP}`);
  });

  it("raises a stream's error event as an API error in the client", async () => {
    const stream = await suite.openai.chat.completions.create({
      model: 'dify-chat',
      messages: [{ role: 'user', content: 'Say hello [break]' }],
      stream: true,
    });
    let text = '';
    await expect(
      (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      })(),
    ).rejects.toThrow('model provider broke off');
    expect(text).toBe('Hello from ');
  });

  it('answers a whole-answer client from an agent app, which refuses blocking, by gathering its stream', async () => {
    await addChannel(suite.root, { type: 37, key: DIFY_AGENT_KEY, base_url: suite.mock.baseUrl, models: 'dify-agent' });
    await priceModels(suite.server, suite.root, { 'dify-agent': 1 });
    const whole = await suite.openai.chat.completions.create({
      model: 'dify-agent',
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    expect(whole.choices[0]!.message.content).toBe(`Hello from dify mock: ${DIFY_APP}`);
    expect((whole.choices[0]!.message as { reasoning_content?: string }).reasoning_content).toBe(DIFY_AGENT_THOUGHT);
    expect(whole.usage!.total_tokens).toBeGreaterThan(0);
    expect((suite.mock.requests.at(-1)!.body as WireJson).response_mode).toBe('streaming');

    const stream = await suite.openai.chat.completions.create({
      model: 'dify-agent',
      messages: [{ role: 'user', content: 'Say hello' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe(`Hello from dify mock: ${DIFY_APP}`);
  });

  it("turns a whole answer's stream error into the API error it means", async () => {
    const refused = await suite.openai.chat.completions
      .create({ model: 'dify-chat', messages: [{ role: 'user', content: 'Say hello [break]' }] })
      .catch((error: { status: number; message: string }) => error);
    expect((refused as { status: number }).status).toBeGreaterThanOrEqual(500);
  });
});
