import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { addChannel, addToken, balances, lastCallLog, openaiClient, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

// A Responses client (the official openai SDK's responses API, what Codex CLI speaks) on a model that only a
// chat-only OpenAI-compatible channel serves (DeepSeek, type 43): the gateway converts both ways, tools included.
const MODEL = 'deepseek-chat';
// Ratio 1, completion ratio 1 (set below): 300 + 60 = 360 quota per call with this usage.
const USAGE = { prompt: 300, completion: 60 };
const EXPECTED = 360;

describe('Responses API clients through a chat-only channel', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;

  const lastLog = () => lastCallLog(server);

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 43, key: 'sk-ds', base_url: mock.baseUrl, models: MODEL });
    await priceModels(server, root, { [MODEL]: 1 });
    const completion = await root.put('/api/option/', {
      key: 'CompletionRatio',
      value: JSON.stringify({ [MODEL]: 1 }),
    });
    expect(completion.success).toBe(true);
    key = await addToken(root, { remain_quota: 1_000_000 });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  const shellTool = {
    type: 'function' as const,
    name: 'shell',
    description: 'Runs a command',
    parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } },
    strict: false,
  };

  it('answers with output items (function call, usage) and sends the chat upstream the tools and instructions', async () => {
    const before = await balances(server, root.userId!, key);
    mock.enqueue('openai.chat', {
      kind: 'ok',
      text: 'Running it.',
      toolCall: { name: 'shell', arguments: '{"command":["ls"]}' },
      usage: USAGE,
    });
    const response = await openaiClient(server, key).responses.create({
      model: MODEL,
      instructions: 'You are a coding agent.',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'List the files' }] }],
      tools: [shellTool],
      store: false,
    });
    expect(response.status).toBe('completed');
    expect(response.output_text).toBe('Running it.');
    const call = response.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({ name: 'shell', arguments: '{"command":["ls"]}' });
    expect(response.usage).toMatchObject({ input_tokens: 300, output_tokens: 60, total_tokens: 360 });
    const upstream = mock.requests[0]!;
    expect(upstream.path).toBe('/v1/chat/completions');
    expect(upstream.body).toMatchObject({
      model: MODEL,
      messages: [
        { role: 'system', content: 'You are a coding agent.' },
        { role: 'user', content: 'List the files' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'shell', description: 'Runs a command', parameters: shellTool.parameters, strict: false },
        },
      ],
    });
    const after = await balances(server, root.userId!, key);
    expect(before.user.quota - after.user.quota).toBe(EXPECTED);
    expect((await lastLog()).quota).toBe(EXPECTED);
  });

  it('streams the typed event sequence with sequence numbers, and replays calls and their outputs as chat turns', async () => {
    mock.enqueue('openai.chat', {
      kind: 'ok',
      toolCall: { name: 'shell', arguments: '{"command":["pwd"]}' },
      usage: USAGE,
    });
    const stream = await openaiClient(server, key).responses.create({
      model: MODEL,
      input: 'Where am I?',
      tools: [shellTool],
      stream: true,
      store: false,
    });
    const events: Array<{ type: string; sequence_number: number }> = [];
    type Completed = { output: Array<{ type: string; call_id?: string }>; usage: { total_tokens: number } | null };
    const seen: { completed?: Completed } = {};
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'response.completed') seen.completed = event.response as unknown as Completed;
    }
    const completed = seen.completed;
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    expect(completed?.usage?.total_tokens).toBe(360);
    expect((await lastLog()).quota).toBe(EXPECTED);
    const callId = completed!.output[0]!.call_id!;

    mock.enqueue('openai.chat', { kind: 'ok', text: 'You are in /work.', usage: USAGE });
    const second = await openaiClient(server, key).responses.create({
      model: MODEL,
      input: [
        { role: 'user', content: 'Where am I?' },
        { type: 'function_call', call_id: callId, name: 'shell', arguments: '{"command":["pwd"]}' },
        { type: 'function_call_output', call_id: callId, output: '/work' },
      ],
      tools: [shellTool],
      store: false,
    });
    expect(second.output_text).toBe('You are in /work.');
    expect((mock.requests[1]!.body as { messages: unknown }).messages).toEqual([
      { role: 'user', content: 'Where am I?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: callId, type: 'function', function: { name: 'shell', arguments: '{"command":["pwd"]}' } }],
      },
      { role: 'tool', tool_call_id: callId, content: '/work' },
    ]);
  });

  it('carries a freeform (custom) tool as a one-argument function and turns its call back into a custom tool call', async () => {
    mock.enqueue('openai.chat', {
      kind: 'ok',
      toolCall: { name: 'apply_patch', arguments: JSON.stringify({ input: '*** Begin Patch\n*** End Patch' }) },
      usage: USAGE,
    });
    const response = await openaiClient(server, key).responses.create({
      model: MODEL,
      input: 'Patch it',
      tools: [{ type: 'custom', name: 'apply_patch', description: 'Applies a patch' }],
      store: false,
    });
    expect(response.output.find((item) => item.type === 'custom_tool_call')).toMatchObject({
      name: 'apply_patch',
      input: '*** Begin Patch\n*** End Patch',
    });
    const sent = (mock.requests[0]!.body as { tools: Array<{ function: { name: string; parameters: unknown } }> })
      .tools;
    expect(sent[0]!.function).toMatchObject({
      name: 'apply_patch',
      parameters: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
    });
  });

  it('refuses a stored conversation a chat-only channel cannot continue, and charges nothing', async () => {
    const before = await balances(server, root.userId!, key);
    for (const extra of [{ previous_response_id: 'resp_123' }]) {
      const response = await fetch(`${server.baseUrl}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, input: 'hi', ...extra }),
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { message: string; code: string } };
      expect(body.error.code).toBe('conversion_unsupported');
    }
    expect(mock.requests).toHaveLength(0);
    const after = await balances(server, root.userId!, key);
    expect(after.user.quota).toBe(before.user.quota);
  });
});
