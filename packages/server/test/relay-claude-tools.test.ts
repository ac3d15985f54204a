import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { addChannel, addToken, balances, lastCallLog, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

// A Claude client (the official SDK, as Claude Code uses it) holding a tool-using conversation with a model that an
// OpenAI-format channel serves: the tools, the model's tool call and the tool's result must cross the conversion.
const MODEL = 'claude-on-openai';
// Ratio 2, completion ratio 1 (unknown model): (800 + 200) × 2 = 2000 quota per call with this usage.
const USAGE = { prompt: 800, completion: 200 };
const EXPECTED = 2000;

const writeFile: Anthropic.Tool = {
  name: 'write_file',
  description: 'Writes text to a file',
  input_schema: {
    type: 'object',
    properties: { path: { type: 'string' }, content: { type: 'string' } },
    required: ['path', 'content'],
  },
};

describe('Claude clients with tools through an OpenAI-format channel', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;
  let anthropic: Anthropic;

  const lastLog = () => lastCallLog(server);

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: 'sk-oa', base_url: mock.baseUrl, models: MODEL });
    await priceModels(server, root, { [MODEL]: 2 });
    key = await addToken(root, { remain_quota: 1_000_000 });
    anthropic = new Anthropic({ apiKey: key, baseURL: server.baseUrl, maxRetries: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('counts a streamed answer without usage from all of its text, through the Claude conversion', async () => {
    const text = 'First words, then more words, and a last few words to finish the answer.';
    mock.enqueue('openai.chat', { kind: 'ok', text, usage: 'none' });
    await anthropic.messages.create({ model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'go' }] });
    const whole = (await lastLog()).completion_tokens;
    mock.enqueue('openai.chat', { kind: 'ok', text, usage: 'none' });
    const stream = anthropic.messages.stream({
      model: MODEL,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'go' }],
    });
    expect(await stream.finalText()).toBe(text);
    const log = await lastLog();
    expect(JSON.parse(log.other!).local_count).toBe(true);
    expect(whole).toBeGreaterThan(10);
    expect(log.completion_tokens).toBe(whole);
  });

  it('sends the tools upstream and answers the model’s call as a tool_use block, billed exactly', async () => {
    const before = await balances(server, root.userId!, key);
    mock.enqueue('openai.chat', {
      kind: 'ok',
      text: 'Writing it.',
      toolCall: { name: 'write_file', arguments: '{"path":"notes.txt","content":"hello"}' },
      usage: USAGE,
    });
    const message = await anthropic.messages.create({
      model: MODEL,
      max_tokens: 1000,
      system: [{ type: 'text', text: 'You can write files.', cache_control: { type: 'ephemeral' } }],
      tools: [writeFile],
      tool_choice: { type: 'auto' },
      messages: [{ role: 'user', content: 'Save "hello" to notes.txt' }],
    });
    expect(message.stop_reason).toBe('tool_use');
    const call = message.content.find((block) => block.type === 'tool_use');
    expect(call).toMatchObject({ name: 'write_file', input: { path: 'notes.txt', content: 'hello' } });
    expect(message.content.find((block) => block.type === 'text')).toMatchObject({ text: 'Writing it.' });
    expect(message.usage).toMatchObject({ input_tokens: 800, output_tokens: 200 });

    const sent = mock.requests[0]!.body as Record<string, unknown>;
    expect(sent.tools).toEqual([
      {
        type: 'function',
        function: { name: 'write_file', description: 'Writes text to a file', parameters: writeFile.input_schema },
      },
    ]);
    expect(sent.tool_choice).toBe('auto');
    expect(sent.messages).toEqual([
      { role: 'system', content: 'You can write files.' },
      { role: 'user', content: 'Save "hello" to notes.txt' },
    ]);

    const after = await balances(server, root.userId!, key);
    expect(before.user.quota - after.user.quota).toBe(EXPECTED);
    expect((await lastLog()).quota).toBe(EXPECTED);
  });

  it('streams the tool call as input_json_delta and carries the tool result back on the next turn', async () => {
    mock.enqueue('openai.chat', {
      kind: 'ok',
      toolCall: { name: 'write_file', arguments: '{"path":"a.txt","content":"x"}' },
      usage: USAGE,
    });
    const stream = anthropic.messages.stream({
      model: MODEL,
      max_tokens: 1000,
      tools: [writeFile],
      messages: [{ role: 'user', content: 'Write x to a.txt' }],
    });
    const jsonDeltas: string[] = [];
    stream.on('inputJson', (partial) => jsonDeltas.push(partial));
    const first = await stream.finalMessage();
    const toolUse = first.content.find((block) => block.type === 'tool_use') as Anthropic.ToolUseBlock;
    expect(toolUse).toMatchObject({ name: 'write_file', input: { path: 'a.txt', content: 'x' } });
    expect(jsonDeltas.join('')).toBe('{"path":"a.txt","content":"x"}');
    expect(first.stop_reason).toBe('tool_use');
    expect(first.usage).toMatchObject({ input_tokens: 800, output_tokens: 200 });
    expect((await lastLog()).quota).toBe(EXPECTED);

    mock.enqueue('openai.chat', { kind: 'ok', text: 'Done: a.txt written.', usage: USAGE });
    const second = await anthropic.messages
      .stream({
        model: MODEL,
        max_tokens: 1000,
        tools: [writeFile],
        messages: [
          { role: 'user', content: 'Write x to a.txt' },
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'ok, 1 byte written' }] },
        ],
      })
      .finalMessage();
    expect(second.content).toMatchObject([{ type: 'text', text: 'Done: a.txt written.' }]);
    expect(second.stop_reason).toBe('end_turn');
    const replay = (mock.requests[1]!.body as { messages: unknown[] }).messages;
    expect(replay).toEqual([
      { role: 'user', content: 'Write x to a.txt' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: toolUse.id,
            type: 'function',
            function: { name: 'write_file', arguments: '{"path":"a.txt","content":"x"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: toolUse.id, content: 'ok, 1 byte written' },
    ]);
  });

  it('leaves an Anthropic server tool out, says so in a header, and still serves the request', async () => {
    mock.enqueue('openai.chat', { kind: 'ok', text: 'No search here.', usage: USAGE });
    const { data, response } = await anthropic.messages
      .create({
        model: MODEL,
        max_tokens: 100,
        tools: [{ type: 'web_search_20250305', name: 'web_search' }, writeFile],
        messages: [{ role: 'user', content: 'search' }],
      })
      .withResponse();
    expect(data.content).toMatchObject([{ type: 'text', text: 'No search here.' }]);
    expect(response.headers.get('x-gateway-omitted-tools')).toBe('web_search');
    const sent = (mock.requests[0]!.body as { tools: Array<{ function: { name: string } }> }).tools;
    expect(sent.map((tool) => tool.function.name)).toEqual(['write_file']);
  });

  it('refuses what the model would have to read but the channel cannot carry (an image in a tool result)', async () => {
    const before = await balances(server, root.userId!, key);
    const error = await anthropic.messages
      .create({
        model: MODEL,
        max_tokens: 100,
        messages: [
          { role: 'user', content: 'look' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_x', name: 'write_file', input: {} }] },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 'toolu_x',
                content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }],
              },
            ],
          },
        ],
      })
      .then(
        () => null,
        (caught: unknown) => caught as { status: number; error: { error: { type: string; message: string } } },
      );
    expect(error?.status).toBe(400);
    expect(error?.error.error.type).toBe('invalid_request_error');
    expect(error?.error.error.message).toContain('tool result');
    expect(mock.requests).toHaveLength(0);
    const after = await balances(server, root.userId!, key);
    expect(after.user.quota).toBe(before.user.quota);
  });

  it('counts a conversation’s tokens for /v1/messages/count_tokens without calling an upstream or charging', async () => {
    const before = await balances(server, root.userId!, key);
    const counted = await anthropic.messages.countTokens({
      model: MODEL,
      tools: [writeFile],
      messages: [{ role: 'user', content: 'Save "hello" to notes.txt' }],
    });
    expect(counted.input_tokens).toBeGreaterThan(10);
    expect(mock.requests).toHaveLength(0);
    const after = await balances(server, root.userId!, key);
    expect(after.user.quota).toBe(before.user.quota);
  });
});
