import { describe, expect, it } from 'vitest';
import { newStreamState } from '../../stream/stream-state.js';
import type { ChatResponse } from '../../types.js';
import { ConversionError } from '../openai-chat/conversion-error.js';
import { omittedTools } from '../openai-chat/omitted-tools.js';
import { openAiPassThrough } from '../openai-chat/stream.js';
import { chatToResponsesAnswer } from './chat-to-responses.js';
import { chatChunksToResponses } from './responses-from-chat-stream.js';
import { responsesToChatRequest } from './responses-to-chat.js';
import type { ResponsesRequest } from './responses-wire.js';

// Responses clients (Codex CLI, responses.create) and the hub format (chat), both ways, by hand-worked cases.

const request: ResponsesRequest = {
  model: 'gpt-5-codex',
  instructions: 'You are a coding agent.',
  reasoning: { effort: 'high' },
  max_output_tokens: 900,
  text: { format: { type: 'json_schema', name: 'plan', schema: { type: 'object' } } },
  tools: [
    { type: 'function', name: 'shell', parameters: { type: 'object' }, strict: false },
    { type: 'custom', name: 'apply_patch', description: 'Applies a patch' },
    { type: 'namespace', name: 'agents', tools: [{ type: 'function', name: 'spawn', parameters: { type: 'object' } }] },
    { type: 'web_search' },
  ] as ResponsesRequest['tools'],
  input: [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Be careful.' }] },
    {
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: 'Fix it' },
        { type: 'input_image', image_url: 'data:image/png;base64,AAA' },
      ],
    },
    { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Look first.' }], encrypted_content: 'enc-1' },
    { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{"command":["ls"]}' },
    { type: 'function_call_output', call_id: 'c1', output: 'a.txt' },
    { type: 'custom_tool_call', call_id: 'c2', name: 'apply_patch', input: '*** Begin Patch' },
    { type: 'custom_tool_call_output', call_id: 'c2', output: [{ type: 'output_text', text: 'Done' }] },
  ],
};

describe('Responses client → hub (chat)', () => {
  it('turns items into chat turns, tools into functions (custom ones with one input, namespaced ones prefixed)', () => {
    const chat = responsesToChatRequest(request, 'deepseek-chat');
    expect(chat.messages).toEqual([
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'system', content: 'Be careful.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Fix it' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAA' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        reasoning_content: 'Look first.',
        reasoning_signature: 'enc-1',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'shell', arguments: '{"command":["ls"]}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a.txt' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c2', type: 'function', function: { name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c2', content: 'Done' },
    ]);
    expect(chat.tools?.map((tool) => tool.function.name)).toEqual(['shell', 'apply_patch', 'agents__spawn']);
    expect(chat.tools?.[1]?.function.parameters).toEqual({
      type: 'object',
      properties: { input: { type: 'string' } },
      required: ['input'],
    });
    expect(omittedTools(chat)).toEqual(['web_search']);
    expect(chat).toMatchObject({
      model: 'deepseek-chat',
      max_tokens: 900,
      reasoning_effort: 'high',
      response_format: { type: 'json_schema', json_schema: { name: 'plan', schema: { type: 'object' } } },
    });
  });

  it('refuses a conversation stored upstream', () => {
    expect(() => responsesToChatRequest({ model: 'm', input: 'hi', previous_response_id: 'resp_1' }, 'm')).toThrow(
      ConversionError,
    );
  });

  it('answers with output items: reasoning, message, function and custom calls, namespaces and usage', () => {
    const answer: ChatResponse = {
      id: 'x9',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'deepseek-chat',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Patching.',
            reasoning_content: 'think',
            tool_calls: [
              {
                id: 'p1',
                type: 'function',
                function: { name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' },
              },
              { id: 'p2', type: 'function', function: { name: 'agents__spawn', arguments: '{}' } },
            ],
          },
        },
      ],
      usage: {
        prompt_tokens: 50,
        completion_tokens: 20,
        total_tokens: 70,
        prompt_tokens_details: { cached_tokens: 10 },
        completion_tokens_details: { reasoning_tokens: 5 },
      },
    };
    const converted = chatToResponsesAnswer(answer, 'gpt-5-codex', request);
    expect(converted).toMatchObject({
      id: 'resp_x9',
      object: 'response',
      status: 'completed',
      model: 'gpt-5-codex',
      output: [
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'think' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Patching.' }] },
        { type: 'custom_tool_call', call_id: 'p1', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'function_call', call_id: 'p2', name: 'spawn', namespace: 'agents', arguments: '{}' },
      ],
      usage: {
        input_tokens: 50,
        input_tokens_details: { cached_tokens: 10 },
        output_tokens: 20,
        output_tokens_details: { reasoning_tokens: 5 },
        total_tokens: 70,
      },
    });
  });

  it('streams the typed event sequence, numbered, with text and function arguments as deltas', () => {
    const converter = chatChunksToResponses(openAiPassThrough(true), 'gpt-5-codex', request);
    const state = newStreamState();
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      JSON.stringify({ id: 's1', choices: [{ index: 0, delta, finish_reason: finish }] });
    let out = '';
    for (const data of [
      chunk({ role: 'assistant', content: 'Hi' }),
      chunk({ tool_calls: [{ index: 0, id: 'f1', function: { name: 'shell', arguments: '{"command":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '["ls"]}' } }] }),
      chunk({}, 'tool_calls'),
      JSON.stringify({ id: 's1', choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } }),
      '[DONE]',
    ]) {
      out += converter.push({ data }, state, 1);
    }
    out += converter.end(state);
    const events = out
      .split('\n\n')
      .filter(Boolean)
      .map(
        (block) =>
          JSON.parse(block.split('\n')[1]!.slice(6)) as { type: string; sequence_number: number; delta?: string },
      );
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    expect(events.at(-1)).toMatchObject({ response: { status: 'completed', usage: { total_tokens: 7 } } });
  });
});
