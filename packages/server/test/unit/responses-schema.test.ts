import { describe, expect, it } from 'vitest';
import { openAiPassThrough } from '../../src/relay/formats/openai-chat/stream.js';
import { chatToResponsesAnswer } from '../../src/relay/formats/responses/chat-to-responses.js';
import { chatChunksToResponses } from '../../src/relay/formats/responses/responses-from-chat-stream.js';
import type { ResponsesRequest } from '../../src/relay/formats/responses/responses-wire.js';
import { newStreamState } from '../../src/relay/stream/stream-state.js';
import type { ChatResponse } from '../../src/relay/types.js';
import { responseSchemaErrors, sseEvents, streamSchemaErrors } from '../helpers/openresponses-schema.js';

// Each converter that builds a Response from a chat answer (the path every chat, Claude and Gemini channel takes),
// whole and streamed, checked against the published Open Responses schema, and for what it repeats of the request.
// (A converted request never carries previous_response_id or an allowed_tools choice: the endpoint refuses them for a
// chat channel before any answer. The envelope repeats them all the same, as a native answer would.)

const shell = {
  type: 'function' as const,
  name: 'shell',
  description: 'Runs a command',
  parameters: { type: 'object', properties: { command: { type: 'string' } } },
  strict: true,
};
const lookup = { type: 'function' as const, name: 'lookup', parameters: { type: 'object' } };

interface Answer {
  text?: string;
  reasoning?: string;
  signature?: string;
  calls?: Array<{ id: string; name: string; arguments: string }>;
  finish?: string;
}

interface Case {
  name: string;
  request: ResponsesRequest;
  answer: Answer;
  /** Fields of the Response the request decides, as the Response must carry them. */
  expected: Record<string, unknown>;
}

/** A Response's fields when the request sets none of them: what the API reports then, or null. */
const UNSET = {
  instructions: null,
  tools: [],
  tool_choice: 'auto',
  parallel_tool_calls: true,
  truncation: 'disabled',
  text: { format: { type: 'text' } },
  reasoning: null,
  temperature: 1,
  top_p: 1,
  presence_penalty: 0,
  frequency_penalty: 0,
  top_logprobs: 0,
  max_output_tokens: null,
  max_tool_calls: null,
  store: true,
  background: false,
  service_tier: 'default',
  metadata: {},
  user: null,
  previous_response_id: null,
  prompt_cache_key: null,
  safety_identifier: null,
};

const CASES: Case[] = [
  { name: 'a bare text answer', request: { model: 'm', input: 'Hi' }, answer: { text: 'Hello.' }, expected: UNSET },
  {
    name: 'function tools as declared, a named tool choice and instructions',
    request: {
      model: 'm',
      instructions: 'You are a coding agent.',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'List the files' }] }],
      tools: [shell, lookup],
      tool_choice: { type: 'function', name: 'shell' },
      parallel_tool_calls: false,
    },
    answer: { text: 'Running it.', calls: [{ id: 'c1', name: 'shell', arguments: '{"command":"ls"}' }] },
    expected: {
      ...UNSET,
      instructions: 'You are a coding agent.',
      tools: [shell, { ...lookup, description: null, strict: null }],
      tool_choice: { type: 'function', name: 'shell' },
      parallel_tool_calls: false,
    },
  },
  {
    name: 'reasoning asked for and given',
    request: { model: 'm', input: 'Think', reasoning: { effort: 'high', summary: 'auto' }, tool_choice: 'none' },
    answer: { reasoning: 'First, look.', signature: 'sig-1', text: 'Done.' },
    expected: { ...UNSET, reasoning: { effort: 'high', summary: 'auto' }, tool_choice: 'none' },
  },
  {
    name: 'every sampling, limit and bookkeeping field set',
    request: {
      model: 'm',
      input: 'Go',
      temperature: 0.2,
      top_p: 0.9,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      top_logprobs: 3,
      max_output_tokens: 900,
      max_tool_calls: 4,
      truncation: 'auto',
      text: { format: { type: 'json_object' }, verbosity: 'low' },
      store: false,
      background: false,
      service_tier: 'flex',
      metadata: { run: '7' },
      user: 'u-1',
      previous_response_id: 'resp_prev',
      prompt_cache_key: 'cache-1',
      safety_identifier: 'safe-1',
      tools: [shell],
      tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'shell' }] },
    },
    answer: {
      calls: [
        { id: 'c2', name: 'shell', arguments: '{}' },
        { id: 'c3', name: 'shell', arguments: '{"a":1}' },
      ],
    },
    expected: {
      ...UNSET,
      temperature: 0.2,
      top_p: 0.9,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      top_logprobs: 3,
      max_output_tokens: 900,
      max_tool_calls: 4,
      truncation: 'auto',
      text: { format: { type: 'json_object' }, verbosity: 'low' },
      store: false,
      service_tier: 'flex',
      metadata: { run: '7' },
      user: 'u-1',
      previous_response_id: 'resp_prev',
      prompt_cache_key: 'cache-1',
      safety_identifier: 'safe-1',
      tools: [shell],
      tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'shell' }] },
    },
  },
  {
    name: 'an answer cut at the token limit',
    request: { model: 'm', input: 'Long', max_output_tokens: 16, tool_choice: 'required', tools: [lookup] },
    answer: { text: 'It was a', finish: 'length' },
    expected: {
      ...UNSET,
      max_output_tokens: 16,
      tool_choice: 'required',
      tools: [{ ...lookup, description: null, strict: null }],
    },
  },
];

function chatAnswer(answer: Answer): ChatResponse {
  return {
    id: 'chat1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'upstream',
    choices: [
      {
        index: 0,
        finish_reason: answer.finish ?? (answer.calls ? 'tool_calls' : 'stop'),
        message: {
          role: 'assistant',
          content: answer.text ?? null,
          ...(answer.reasoning ? { reasoning_content: answer.reasoning } : {}),
          ...(answer.signature ? { reasoning_signature: answer.signature } : {}),
          ...(answer.calls
            ? {
                tool_calls: answer.calls.map((call) => ({
                  id: call.id,
                  type: 'function' as const,
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        },
      },
    ],
    usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 },
  } as ChatResponse;
}

/** The same answer as a chat stream, split into deltas, then through the stream converter. */
function streamed(request: ResponsesRequest, answer: Answer): Array<Record<string, unknown>> {
  const converter = chatChunksToResponses(openAiPassThrough(true), 'm', request);
  const state = newStreamState();
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    JSON.stringify({ id: 'chat1', choices: [{ index: 0, delta, finish_reason: finish }] });
  const chunks = [chunk({ role: 'assistant' })];
  if (answer.reasoning) chunks.push(chunk({ reasoning_content: answer.reasoning }));
  if (answer.signature) chunks.push(chunk({ reasoning_signature: answer.signature }));
  for (const piece of (answer.text ?? '').split(/(?<= )/).filter(Boolean)) chunks.push(chunk({ content: piece }));
  (answer.calls ?? []).forEach((call, index) => {
    chunks.push(chunk({ tool_calls: [{ index, id: call.id, function: { name: call.name, arguments: '' } }] }));
    chunks.push(chunk({ tool_calls: [{ index, function: { arguments: call.arguments } }] }));
  });
  chunks.push(chunk({}, answer.finish ?? (answer.calls ? 'tool_calls' : 'stop')));
  chunks.push(JSON.stringify({ id: 'chat1', choices: [], usage: { prompt_tokens: 12, completion_tokens: 8 } }));
  chunks.push('[DONE]');
  let out = '';
  for (const data of chunks) out += converter.push({ data }, state, 1);
  out += converter.end(state);
  return sseEvents(out);
}

const requestFields = (response: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(UNSET).map((field) => [field, response[field]]));

describe('Responses built from chat answers, against the published schema', () => {
  it.each(CASES)('whole answer: $name', ({ request, answer, expected }) => {
    const response = chatToResponsesAnswer(chatAnswer(answer), 'm', request);
    expect(responseSchemaErrors(response)).toEqual([]);
    expect(requestFields(response)).toEqual(expected);
    expect(response).toMatchObject({ object: 'response', model: 'm', error: null });
    if (answer.finish === 'length') {
      expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
      expect(response.completed_at).toBeNull();
    } else {
      expect(response).toMatchObject({ status: 'completed', incomplete_details: null });
      expect(response.completed_at).toEqual(expect.any(Number));
    }
  });

  it.each(CASES)('stream: $name', ({ request, answer, expected }) => {
    const events = streamed(request, answer);
    expect(streamSchemaErrors(events)).toEqual([]);
    const lifecycle = events.filter((event) =>
      ['response.created', 'response.in_progress', 'response.completed'].includes(event.type as string),
    );
    expect(lifecycle.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.completed',
    ]);
    for (const event of lifecycle) {
      const response = event.response as Record<string, unknown>;
      expect(responseSchemaErrors(response)).toEqual([]);
      expect(requestFields(response)).toEqual(expected);
    }
    const [created, , completed] = lifecycle.map((event) => event.response as Record<string, unknown>);
    expect(created).toMatchObject({ status: 'in_progress', output: [], usage: null, completed_at: null });
    expect(completed!.usage).toMatchObject({ input_tokens: 12, output_tokens: 8, total_tokens: 20 });
    // The streamed and the whole answer are the same Response, but for ids and times.
    const whole = chatToResponsesAnswer(chatAnswer(answer), 'm', request);
    const shape = (response: Record<string, unknown>) => ({
      ...response,
      id: undefined,
      created_at: undefined,
      completed_at: undefined,
      output: (response.output as Array<Record<string, unknown>>).map(({ id, ...item }) => item),
    });
    expect(shape(completed!)).toEqual(shape(whole));
  });

  it('reports a JSON-schema text format as asked; the published schema admits only null for its `schema`', () => {
    // JsonSchemaResponseFormat.schema is `anyOf: [{type: null}]` in the published document (the object branch is
    // missing there), so a Response that repeats the requested schema fails exactly there and nowhere else.
    const format = { type: 'json_schema', name: 'plan', schema: { type: 'object' }, strict: true };
    const request: ResponsesRequest = { model: 'm', input: 'Plan', text: { format } };
    const response = chatToResponsesAnswer(chatAnswer({ text: '{}' }), 'm', request);
    expect(response.text).toEqual({ format: { ...format, description: null } });
    const errors = responseSchemaErrors(response);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((error) => error.startsWith('/text/format'))).toBe(true);
    expect(errors).toContainEqual(expect.stringMatching(/^\/text\/format\/schema must be null/));
    const echoed = (response.text as { format: Record<string, unknown> }).format;
    expect(responseSchemaErrors({ ...response, text: { format: { ...echoed, schema: null } } })).toEqual([]);
  });
});
