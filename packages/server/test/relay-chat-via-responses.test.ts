import type { ChatCompletion } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { addChannel, addToken, balances, flushBilling, openaiClient, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

// A chat client (the official openai SDK's chat.completions) on a model that only answers through the Responses API
// (o1-pro): the operator's `global.chat_completions_to_responses_policy` names the channel and the model, and the
// gateway converts both ways, tools, reasoning and cached tokens included.
const MODEL = 'o1-pro';
// 300 prompt tokens of which 100 cached (cache ratio 0.5) + 60 completion (ratio 1): 200 + 50 + 60 = 310.
const USAGE = { prompt: 300, completion: 60, cached: 100 };
const EXPECTED = 310;

describe('Chat clients through the Responses API', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;
  let channelId: number;

  const spent = async (run: () => Promise<unknown>) => {
    const before = await balances(server, root.userId!, key);
    await run();
    const after = await balances(server, root.userId!, key);
    return before.user.quota - after.user.quota;
  };

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    channelId = await addChannel(root, {
      type: 1,
      key: 'sk-openai',
      base_url: mock.baseUrl,
      models: `${MODEL},gpt-4o`,
    });
    await priceModels(server, root, { [MODEL]: 1, 'gpt-4o': 1 });
    for (const [option, value] of [
      ['CompletionRatio', { [MODEL]: 1, 'gpt-4o': 1 }],
      ['CacheRatio', { [MODEL]: 0.5 }],
      [
        'global.chat_completions_to_responses_policy',
        // Go's inline case flag, as scripts written for the family store it.
        { enabled: true, channel_ids: [channelId], model_patterns: ['(?i)^O1-PRO$'] },
      ],
    ] as const) {
      const saved = await root.put('/api/option/', { key: option, value: JSON.stringify(value) });
      expect(saved.success, saved.message).toBe(true);
    }
    key = await addToken(root, { remain_quota: 1_000_000 });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  const weatherTool = {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      description: 'Weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  };

  it('answers a whole chat from a Responses answer: tool call, reasoning, usage with cached tokens, billed exactly', async () => {
    mock.enqueue('openai.responses', {
      kind: 'ok',
      text: 'Checking.',
      reasoning: 'The user wants the weather.',
      toolCall: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      usage: USAGE,
    });
    let answer: ChatCompletion | undefined;
    const cost = await spent(async () => {
      answer = await openaiClient(server, key).chat.completions.create({
        model: MODEL,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
        ],
        tools: [weatherTool],
        tool_choice: 'auto',
        max_completion_tokens: 500,
        reasoning_effort: 'high',
        response_format: { type: 'json_object' },
      });
    });
    const upstream = mock.requests[0]!;
    expect(upstream.path).toBe('/v1/responses');
    expect(upstream.body).toEqual({
      model: MODEL,
      instructions: 'Be brief.',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] }],
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: weatherTool.function.parameters,
          strict: false,
        },
      ],
      tool_choice: 'auto',
      max_output_tokens: 500,
      reasoning: { effort: 'high' },
      text: { format: { type: 'json_object' } },
    });
    const choice = answer!.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBe('Checking.');
    expect(choice.message.tool_calls?.[0]).toMatchObject({
      type: 'function',
      function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
    });
    expect((choice.message as unknown as { reasoning_content: string }).reasoning_content).toBe(
      'The user wants the weather.',
    );
    expect(answer!.usage).toMatchObject({
      prompt_tokens: 300,
      completion_tokens: 60,
      total_tokens: 360,
      prompt_tokens_details: { cached_tokens: 100 },
    });
    expect(cost).toBe(EXPECTED);
    await flushBilling(server);
    const log = (await server.ctx.repos.logs.list({ type: 2 }, 0, 1)).items[0]!;
    expect(log).toMatchObject({ model_name: MODEL, quota: EXPECTED, prompt_tokens: 300, completion_tokens: 60 });
  });

  it('streams chunks as the events arrive (tool call and its argument deltas, finish, usage) and replays the tool turn', async () => {
    mock.enqueue('openai.responses', {
      kind: 'ok',
      toolCall: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
      usage: USAGE,
    });
    const chunks: Array<{
      choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }>;
      usage?: unknown;
    }> = [];
    const cost = await spent(async () => {
      const stream = await openaiClient(server, key).chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'Weather in Oslo?' }],
        tools: [weatherTool],
        stream: true,
        stream_options: { include_usage: true },
      });
      for await (const chunk of stream) chunks.push(chunk as never);
    });
    expect(cost).toBe(EXPECTED);
    expect((mock.requests[0]!.body as { stream: boolean }).stream).toBe(true);
    const calls = chunks.flatMap((chunk) => (chunk.choices[0]?.delta.tool_calls as unknown[] | undefined) ?? []);
    expect(calls[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'get_weather', arguments: '' } });
    const callId = (calls[0] as { id: string }).id;
    expect(callId).toMatch(/^call_/);
    expect(
      calls
        .slice(1)
        .map((call) => (call as { function: { arguments: string } }).function.arguments)
        .join(''),
    ).toBe('{"city":"Oslo"}');
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason).filter(Boolean)).toEqual(['tool_calls']);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 300, completion_tokens: 60 } });

    mock.enqueue('openai.responses', { kind: 'ok', text: 'Cold and clear.', usage: USAGE });
    const second = await openaiClient(server, key).chat.completions.create({
      model: MODEL,
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: callId, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          ],
        },
        { role: 'tool', tool_call_id: callId, content: '-3 °C, clear' },
      ],
      tools: [weatherTool],
    });
    expect(second.choices[0]!.message.content).toBe('Cold and clear.');
    expect((mock.requests[1]!.body as { input: unknown }).input).toEqual([
      { type: 'message', role: 'user', content: 'Weather in Oslo?' },
      { type: 'function_call', call_id: callId, name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call_output', call_id: callId, output: '-3 °C, clear' },
    ]);
  });

  it('leaves models and channels the policy does not name on chat completions', async () => {
    const answer = await openaiClient(server, key).chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(answer.choices[0]!.message.content).toBeTruthy();
    expect(mock.requests[0]!.path).toBe('/v1/chat/completions');
  });

  it('refuses what the Responses API cannot express, naming it, and charges nothing', async () => {
    const cost = await spent(async () => {
      const response = await fetch(`${server.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stop: ['\n\n'] }),
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).toContain('stop sequences');
    });
    expect(cost).toBe(0);
    expect(mock.requests).toHaveLength(0);
  });

  it('refuses a policy whose model pattern is not a regular expression, keeping the stored one', async () => {
    const refused = await root.put('/api/option/', {
      key: 'global.chat_completions_to_responses_policy',
      value: JSON.stringify({ enabled: true, all_channels: true, model_patterns: ['(unclosed'] }),
    });
    expect(refused.success).toBe(false);
    expect(refused.message).toContain('model_patterns');
    expect(server.ctx.options.get('global.chat_completions_to_responses_policy')).toContain('O1-PRO');
  });
});
