import { describe, expect, it } from 'vitest';
import { newStreamState } from '../../stream/stream-state.js';
import type { ChatRequest } from '../../types.js';
import { ConversionError } from '../openai-chat/conversion-error.js';
import { chatToResponsesRequest } from './chat-request-to-responses.js';
import { responsesAnswerToChat } from './responses-answer-to-chat.js';
import { responsesToChatChunks } from './responses-stream-to-chat.js';

// Hand-worked cases for chat clients served through the Responses API (request, whole answer, stream).

const chat = (fields: Partial<ChatRequest>): ChatRequest => ({ model: 'm', messages: [], ...fields });

describe('chat request → Responses request', () => {
  it('keeps images, files, a later system message and assistant text in order', () => {
    const body = chatToResponsesRequest(
      chat({
        messages: [
          { role: 'developer', content: 'Rule one.' },
          { role: 'system', content: [{ type: 'text', text: 'Rule two.' }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } },
              { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' } },
            ],
          },
          { role: 'assistant', content: 'A cat.', reasoning_content: 'looked closely' },
          { role: 'system', content: 'Now answer in French.' },
        ],
      }),
      'upstream-model',
    );
    expect(body).toEqual({
      model: 'upstream-model',
      instructions: 'Rule one.\n\nRule two.',
      input: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is this?' },
            { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'low' },
            { type: 'input_file', file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' },
          ],
        },
        { type: 'message', role: 'assistant', content: 'A cat.' },
        { type: 'message', role: 'developer', content: 'Now answer in French.' },
      ],
    });
  });

  it('maps structured output, a named tool choice, the token limit and same-named fields', () => {
    const body = chatToResponsesRequest(
      chat({
        messages: [{ role: 'user', content: 'x' }],
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'city', schema: { type: 'object' }, strict: true } as never,
        },
        tools: [{ type: 'function', function: { name: 'f', strict: true } }],
        tool_choice: { type: 'function', function: { name: 'f' } },
        max_tokens: 99,
        temperature: 0.2,
        user: 'u-1',
        stream: true,
        stream_options: { include_usage: true },
        n: 1,
        presence_penalty: 0,
      }),
      'm',
    );
    expect(body).toMatchObject({
      text: { format: { type: 'json_schema', name: 'city', schema: { type: 'object' }, strict: true } },
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object', properties: {} }, strict: true }],
      tool_choice: { type: 'function', name: 'f' },
      max_output_tokens: 99,
      temperature: 0.2,
      user: 'u-1',
      stream: true,
    });
    expect(body).not.toHaveProperty('stream_options');
    expect(body).not.toHaveProperty('n');
  });

  it.each([
    [{ stop: 'END' }, 'stop sequences'],
    [{ n: 2 }, 'n > 1'],
    [{ frequency_penalty: 0.5 }, 'frequency_penalty'],
    [{ seed: 7 }, 'seed'],
    [{ logit_bias: { '50256': -100 } }, 'logit_bias'],
    [{ modalities: ['text', 'audio'] }, 'audio output'],
    [
      { messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: {} }] }] },
      '"input_audio" content part',
    ],
    [{ messages: [{ role: 'tool', content: 'x' }] }, 'tool result without tool_call_id'],
    [{ messages: [{ role: 'function', content: 'x', name: 'f' }] }, '"function" message'],
  ] as Array<[Partial<ChatRequest>, string]>)('refuses %j naming %s', (fields, what) => {
    const convert = () => chatToResponsesRequest(chat({ messages: [{ role: 'user', content: 'x' }], ...fields }), 'm');
    expect(convert).toThrow(ConversionError);
    expect(convert).toThrow(what);
  });
});

describe('Responses answer → chat completion', () => {
  it('reads text, refusal, reasoning with its encrypted content, calls and usage', () => {
    const answer = responsesAnswerToChat(
      {
        id: 'resp_1',
        created_at: 1700000000,
        status: 'completed',
        output: [
          { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Step 1' }], encrypted_content: 'enc' },
          {
            type: 'message',
            content: [
              { type: 'output_text', text: 'Hi' },
              { type: 'refusal', refusal: 'no' },
            ],
          },
          { type: 'function_call', call_id: 'call_9', name: 'f', arguments: '{}' },
        ],
        usage: {
          input_tokens: 10,
          input_tokens_details: { cached_tokens: 4 },
          output_tokens: 7,
          output_tokens_details: { reasoning_tokens: 3 },
        },
      },
      'm',
    );
    expect(answer).toEqual({
      id: 'chatcmpl-resp_1',
      object: 'chat.completion',
      created: 1700000000,
      model: 'm',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Hi',
            refusal: 'no',
            reasoning_content: 'Step 1',
            reasoning_signature: 'enc',
            tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
        },
      ],
      usage: {
        prompt_tokens: 10,
        completion_tokens: 7,
        total_tokens: 17,
        prompt_tokens_details: { cached_tokens: 4 },
        completion_tokens_details: { reasoning_tokens: 3 },
      },
    });
  });

  it('says length for an answer cut at max_output_tokens and content_filter for a filtered one', () => {
    const cut = (reason: string) =>
      responsesAnswerToChat(
        { status: 'incomplete', incomplete_details: { reason }, output: [{ type: 'message', content: [] }] },
        'm',
      ).choices[0]!.finish_reason;
    expect(cut('max_output_tokens')).toBe('length');
    expect(cut('content_filter')).toBe('content_filter');
  });

  it('throws on a failed response so the conveyor answers with an error', () => {
    expect(() => responsesAnswerToChat({ status: 'failed', error: { message: 'boom' }, output: [] }, 'm')).toThrow(
      'boom',
    );
  });
});

describe('Responses stream → chat chunks', () => {
  const run = (events: Array<Record<string, unknown>>, forwardUsage = true) => {
    const converter = responsesToChatChunks('m', forwardUsage);
    const state = newStreamState();
    const out = events.map((event) => converter.push({ data: JSON.stringify(event) }, state, 5)).join('');
    const lines = (out + converter.end(state))
      .split('\n\n')
      .filter(Boolean)
      .map((line) => line.replace(/^data: /, ''));
    return { lines, state };
  };

  it('emits role, reasoning, its signature, text, finish and usage in order, each as it arrives', () => {
    const { lines, state } = run([
      { type: 'response.created', response: { id: 'resp_2', created_at: 1 } },
      { type: 'response.reasoning_summary_text.delta', delta: 'think' },
      { type: 'response.output_item.done', item: { type: 'reasoning', encrypted_content: 'sig' } },
      { type: 'response.output_text.delta', delta: 'Hel' },
      { type: 'response.output_text.delta', delta: 'lo' },
      {
        type: 'response.completed',
        response: { status: 'completed', usage: { input_tokens: 3, output_tokens: 2 } },
      },
    ]);
    const deltas = lines.slice(0, -2).map((line) => JSON.parse(line).choices[0]);
    expect(deltas.map((choice) => [choice.delta, choice.finish_reason])).toEqual([
      [{ role: 'assistant', content: '' }, null],
      [{ reasoning_content: 'think' }, null],
      [{ reasoning_signature: 'sig' }, null],
      [{ content: 'Hel' }, null],
      [{ content: 'lo' }, null],
      [{}, 'stop'],
    ]);
    expect(JSON.parse(lines.at(-2)!)).toMatchObject({ id: 'chatcmpl-resp_2', choices: [], usage: { total_tokens: 5 } });
    expect(lines.at(-1)).toBe('[DONE]');
    expect(state).toMatchObject({ text: 'thinkHello', sawDone: true, firstTokenMs: 5, finishReason: 'stop' });
  });

  it('numbers two parallel calls and routes each argument delta by its output index', () => {
    const { lines } = run(
      [
        {
          type: 'response.output_item.added',
          output_index: 0,
          item: { type: 'function_call', call_id: 'a', name: 'f' },
        },
        {
          type: 'response.output_item.added',
          output_index: 1,
          item: { type: 'function_call', call_id: 'b', name: 'g' },
        },
        { type: 'response.function_call_arguments.delta', output_index: 1, delta: '{"y":' },
        { type: 'response.function_call_arguments.delta', output_index: 0, delta: '{"x":1}' },
        { type: 'response.function_call_arguments.delta', output_index: 1, delta: '2}' },
        {
          type: 'response.incomplete',
          response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
        },
      ],
      false,
    );
    const calls = lines.slice(0, -1).map((line) => JSON.parse(line).choices[0]);
    expect(calls.slice(0, 5).map((choice) => choice.delta.tool_calls[0])).toEqual([
      { index: 0, id: 'a', type: 'function', function: { name: 'f', arguments: '' } },
      { index: 1, id: 'b', type: 'function', function: { name: 'g', arguments: '' } },
      { index: 1, function: { arguments: '{"y":' } },
      { index: 0, function: { arguments: '{"x":1}' } },
      { index: 1, function: { arguments: '2}' } },
    ]);
    // Calls win over the cut: the client must run them either way. No usage line: the client did not ask.
    expect(calls[5].finish_reason).toBe('tool_calls');
    expect(lines).toHaveLength(7);
  });

  it('ends with the error for a failed response or an error event', () => {
    for (const event of [
      { type: 'response.failed', response: { error: { code: 'server_error', message: 'overloaded' } } },
      { type: 'error', code: 'server_error', message: 'overloaded' },
    ]) {
      const { lines } = run([event]);
      expect(JSON.parse(lines[0]!)).toEqual({ error: { message: 'overloaded', type: 'server_error' } });
      expect(lines[1]).toBe('[DONE]');
    }
  });
});
