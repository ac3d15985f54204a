import { describe, expect, it } from 'vitest';
import { newStreamState } from '../../stream/stream-state.js';
import type { ChatRequest, ChatResponse } from '../../types.js';
import { omittedTools } from '../openai-chat/omitted-tools.js';
import { openAiPassThrough } from '../openai-chat/stream.js';
import { claudeToOpenAiRequest } from './from-claude.js';
import { toClaudeRequest } from './request.js';
import { fromClaudeResponse } from './response.js';
import { openAiChunksToClaude } from './stream-from-openai.js';
import { claudeToOpenAi } from './stream-to-openai.js';
import { openAiToClaudeResponse } from './to-claude.js';
import type { ClaudeRequest } from './wire.js';

/** Feeds SSE `data` payloads through a converter and returns what the client would read, as parsed events. */
function run(converter: ReturnType<typeof claudeToOpenAi>, events: Array<{ event?: string; data: unknown }>) {
  const state = newStreamState();
  let out = '';
  for (const { event, data } of events)
    out += converter.push({ event, data: typeof data === 'string' ? data : JSON.stringify(data) }, state, 5);
  out += converter.end(state);
  return { out, state };
}

const sseEvents = (text: string) =>
  text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const name = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
      return { name, data: data === '[DONE]' ? data : (JSON.parse(data) as Record<string, unknown>) };
    });

describe('Claude client → hub (OpenAI chat)', () => {
  const conversation: ClaudeRequest = {
    model: 'claude-sonnet-4',
    max_tokens: 2000,
    system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
    tools: [
      {
        name: 'write_file',
        description: 'Writes a file',
        input_schema: { type: 'object', properties: { path: { type: 'string' } } },
      },
    ],
    tool_choice: { type: 'any', disable_parallel_tool_use: true },
    thinking: { type: 'enabled', budget_tokens: 8000 },
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Save this picture' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'I should write it.', signature: 'sig-1' },
          { type: 'text', text: 'Writing.' },
          { type: 'tool_use', id: 'toolu_1', name: 'write_file', input: { path: 'a.png' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'disk full', is_error: true },
          { type: 'text', text: 'Try again' },
        ],
      },
    ],
  };

  it('carries system, images, tools, tool choice, tool calls and results, and thinking', () => {
    const chat = claudeToOpenAiRequest(conversation, 'gpt-4o');
    expect(chat.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Save this picture' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR' } },
        ],
      },
      {
        role: 'assistant',
        content: 'Writing.',
        reasoning_content: 'I should write it.',
        reasoning_signature: 'sig-1',
        tool_calls: [
          { id: 'toolu_1', type: 'function', function: { name: 'write_file', arguments: '{"path":"a.png"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'Error: disk full' },
      { role: 'user', content: 'Try again' },
    ]);
    expect(chat.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'write_file',
          description: 'Writes a file',
          parameters: conversation.tools![0]!.input_schema,
        },
      },
    ]);
    expect(chat.tool_choice).toBe('required');
    expect(chat.parallel_tool_calls).toBe(false);
    // 8000 tokens of thinking budget is a medium effort.
    expect(chat.reasoning_effort).toBe('medium');
    expect(chat).toMatchObject({ model: 'gpt-4o', max_tokens: 2000, stream: false });
  });

  it.each([
    [{ type: 'auto' }, 'auto'],
    [{ type: 'none' }, 'none'],
    [
      { type: 'tool', name: 'write_file' },
      { type: 'function', function: { name: 'write_file' } },
    ],
  ])('tool_choice %j → %j', (choice, expected) => {
    expect(
      claudeToOpenAiRequest({ ...conversation, tool_choice: choice as ClaudeRequest['tool_choice'] }, 'm').tool_choice,
    ).toEqual(expected);
  });

  it("leaves Claude Code's per-request billing header out when asked, block or first line, and nothing else", () => {
    const billing = 'x-anthropic-billing-header: cc_version=2.1.81.a1b; cc_entrypoint=cli; cch=0f3c2;';
    const blocks = {
      model: 'm',
      max_tokens: 10,
      messages: [{ role: 'user' as const, content: 'hi' }],
      system: [
        { type: 'text', text: billing },
        { type: 'text', text: 'You are Claude Code.' },
        { type: 'text', text: 'Rules.', cache_control: { type: 'ephemeral' } },
      ],
    };
    const system = (request: ClaudeRequest, strip: boolean) =>
      claudeToOpenAiRequest(request, 'm', { stripBillingHeader: strip }).messages[0]!.content;
    expect(system(blocks, true)).toBe('You are Claude Code.\nRules.');
    expect(system(blocks, false)).toBe(`${billing}\nYou are Claude Code.\nRules.`);
    expect(system({ ...blocks, system: `${billing}\nYou are Claude Code.` }, true)).toBe('You are Claude Code.');
    expect(system({ ...blocks, system: 'Mentions x-anthropic-billing-header: later' }, true)).toBe(
      'Mentions x-anthropic-billing-header: later',
    );
    // Only the billing block: no system message at all rather than an empty one.
    const only = claudeToOpenAiRequest({ ...blocks, system: [{ type: 'text', text: billing }] }, 'm', {
      stripBillingHeader: true,
    });
    expect(only.messages.map((message) => message.role)).toEqual(['user']);
  });

  it('leaves Anthropic server tools out (noted for the answer header) and refuses what the model must read', () => {
    const serverTool = {
      ...conversation,
      tools: [{ type: 'web_search_20250305', name: 'web_search' }, ...conversation.tools!],
    };
    const converted = claudeToOpenAiRequest(serverTool, 'm');
    expect(converted.tools?.map((tool) => tool.function.name)).toEqual(['write_file']);
    expect(omittedTools(converted)).toEqual(['web_search']);
    const imageResult: ClaudeRequest = {
      model: 'm',
      max_tokens: 10,
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't',
              content: [{ type: 'image', source: { type: 'url', url: 'https://x/y.png' } }],
            },
          ],
        },
      ],
    };
    expect(() => claudeToOpenAiRequest(imageResult, 'm')).toThrow(/tool result/);
  });

  it('answers in Claude blocks: thinking with its signature, text, tool_use with parsed input; stop reason and cache usage', () => {
    const answer: ChatResponse = {
      id: 'chatcmpl-9',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4o',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'On it.',
            reasoning_content: 'Need a tool.',
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'write_file', arguments: '{"path":"b.txt"}' } },
            ],
          },
        },
      ],
      usage: {
        prompt_tokens: 120,
        completion_tokens: 30,
        total_tokens: 150,
        prompt_tokens_details: { cached_tokens: 100 },
      },
    };
    expect(openAiToClaudeResponse(answer, 'claude-sonnet-4')).toEqual({
      id: 'msg_chatcmpl-9',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4',
      content: [
        { type: 'thinking', thinking: 'Need a tool.', signature: '' },
        { type: 'text', text: 'On it.' },
        { type: 'tool_use', id: 'call_1', name: 'write_file', input: { path: 'b.txt' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: 30, cache_read_input_tokens: 100, cache_creation_input_tokens: 0 },
    });
  });

  it('streams blocks in the order the Anthropic SDK expects, with tool arguments as input_json_delta', () => {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      data: { id: 'c1', choices: [{ index: 0, delta, finish_reason: finish }] },
    });
    const { out } = run(openAiChunksToClaude(openAiPassThrough(true), 'claude-x'), [
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning_content: 'think' }),
      chunk({ content: 'Hi' }),
      chunk({
        tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'write_file', arguments: '' } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"c.txt"}' } }] }),
      chunk({}, 'tool_calls'),
      { data: { id: 'c1', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } } },
      { data: '[DONE]' },
    ]);
    const events = sseEvents(out);
    expect(
      events.map(
        (e) =>
          `${e.name}${(e.data as { delta?: { type?: string } }).delta?.type ? `:${(e.data as { delta: { type: string } }).delta.type}` : ''}`,
      ),
    ).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta:thinking_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta:text_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta:input_json_delta',
      'content_block_delta:input_json_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[7]!.data).toMatchObject({
      index: 2,
      content_block: { type: 'tool_use', id: 'call_a', name: 'write_file', input: {} },
    });
    expect(events[11]!.data).toMatchObject({
      delta: { stop_reason: 'tool_use' },
      usage: { input_tokens: 10, output_tokens: 5 },
    });
  });
});

describe('hub (OpenAI chat) → Claude channel', () => {
  const chat: ChatRequest = {
    model: 'claude-sonnet-4',
    max_tokens: 4000,
    reasoning_effort: 'low',
    temperature: 0.2,
    response_format: { type: 'json_object' },
    tools: [
      {
        type: 'function',
        function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
      },
    ],
    tool_choice: { type: 'function', function: { name: 'lookup' } },
    parallel_tool_calls: false,
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'assistant', content: 'Hello, how can I help?' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Find x' },
          { type: 'image_url', image_url: { url: 'https://img/x.png' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        reasoning_content: 'unsigned thoughts from another model',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'x = 42' },
    ],
  };

  it('maps tools, tool choice, tool calls and results, images, thinking budget and JSON mode', () => {
    expect(toClaudeRequest(chat, 8192)).toEqual({
      model: 'claude-sonnet-4',
      max_tokens: 4000,
      system: 'Be brief.\nRespond only with a valid JSON object, without any other text.',
      messages: [
        // Claude conversations start with the user.
        { role: 'user', content: [{ type: 'text', text: '...' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Hello, how can I help?' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Find x' },
            { type: 'image', source: { type: 'url', url: 'https://img/x.png' } },
          ],
        },
        // Unsigned reasoning cannot be replayed to Claude.
        { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'lookup', input: { q: 'x' } }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'call_1', content: [{ type: 'text', text: 'x = 42' }] }],
        },
      ],
      tools: [{ name: 'lookup', input_schema: { type: 'object', properties: { q: { type: 'string' } } } }],
      tool_choice: { type: 'tool', name: 'lookup', disable_parallel_tool_use: true },
      // low effort = 2048 tokens of thinking; temperature is dropped because Claude refuses it while thinking.
      thinking: { type: 'enabled', budget_tokens: 2048 },
    });
  });

  it("replays signed thinking and keeps a Claude client's own thinking settings", () => {
    const signed = toClaudeRequest(
      {
        model: 'c',
        thinking: { type: 'enabled', budget_tokens: 3000 },
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: 'a', reasoning_content: 'r', reasoning_signature: 'sig' },
        ],
      },
      1024,
    );
    expect(signed.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'r', signature: 'sig' },
          { type: 'text', text: 'a' },
        ],
      },
    ]);
    expect(signed.thinking).toEqual({ type: 'enabled', budget_tokens: 3000 });
  });

  it('reads Claude answers: thinking with signature, tool_use as tool_calls, usage with cache reads and writes', () => {
    const answer = fromClaudeResponse(
      {
        id: 'msg_1',
        model: 'claude-sonnet-4',
        content: [
          { type: 'thinking', thinking: 'hmm', signature: 'sig-9' },
          { type: 'tool_use', id: 'toolu_9', name: 'lookup', input: { q: 'y' } },
        ],
        stop_reason: 'tool_use',
        usage: { input_tokens: 10, output_tokens: 7, cache_read_input_tokens: 100, cache_creation_input_tokens: 50 },
      },
      'claude-sonnet-4',
    );
    expect(answer.choices[0]).toEqual({
      index: 0,
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: null,
        reasoning_content: 'hmm',
        reasoning_signature: 'sig-9',
        tool_calls: [{ id: 'toolu_9', type: 'function', function: { name: 'lookup', arguments: '{"q":"y"}' } }],
      },
    });
    expect(answer.usage).toEqual({
      prompt_tokens: 160,
      completion_tokens: 7,
      total_tokens: 167,
      prompt_tokens_details: { cached_tokens: 100 },
      cache_creation_tokens: 50,
    });
  });

  it('streams tool_use blocks as tool_calls deltas and the signature as reasoning_signature', () => {
    const { out, state } = run(claudeToOpenAi('claude-x', true), [
      {
        event: 'message_start',
        data: { type: 'message_start', message: { id: 'msg_s', usage: { input_tokens: 12 } } },
      },
      {
        event: 'content_block_start',
        data: { type: 'content_block_start', index: 0, content_block: { type: 'thinking' } },
      },
      {
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hm' } },
      },
      {
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sg' } },
      },
      {
        event: 'content_block_start',
        data: {
          type: 'content_block_start',
          index: 1,
          content_block: { type: 'tool_use', id: 'toolu_2', name: 'lookup' },
        },
      },
      {
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"q":"z"}' } },
      },
      {
        event: 'message_delta',
        data: { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ]);
    const deltas = sseEvents(out)
      .filter((e) => e.data !== '[DONE]')
      .map((e) => (e.data as { choices: Array<{ delta: unknown; finish_reason: unknown }> }).choices[0] ?? e.data);
    expect(deltas).toEqual([
      { index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null },
      { index: 0, delta: { reasoning_content: 'hm' }, finish_reason: null },
      { index: 0, delta: { reasoning_signature: 'sg' }, finish_reason: null },
      {
        index: 0,
        delta: {
          tool_calls: [{ index: 0, id: 'toolu_2', type: 'function', function: { name: 'lookup', arguments: '' } }],
        },
        finish_reason: null,
      },
      { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"q":"z"}' } }] }, finish_reason: null },
      { index: 0, delta: {}, finish_reason: 'tool_calls' },
      expect.objectContaining({ usage: expect.objectContaining({ prompt_tokens: 12, completion_tokens: 9 }) }),
    ]);
    expect(state.text).toBe('hm{"q":"z"}');
  });
});
