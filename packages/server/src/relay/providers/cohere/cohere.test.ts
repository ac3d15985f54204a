import { describe, expect, it } from 'vitest';
import { ConversionError } from '../../formats/openai-chat/conversion-error.js';
import { newStreamState } from '../../stream/stream-state.js';
import type { ChatRequest } from '../../types.js';
import { fromCohereEmbed, toCohereEmbed } from './embed.js';
import { toCohereRequest } from './request.js';
import { fromCohereRerank, splitReturnDocuments, toCohereRerank, withDocuments } from './rerank.js';
import { cohereError, cohereFinishReason, cohereUsage, fromCohereAnswer } from './response.js';
import { cohereToOpenAi } from './stream.js';

const chunksOf = (out: string) =>
  out
    .split('\n\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)));

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  type: 'function' as const,
  function: { name, parameters: { type: 'object', properties: { q: { type: 'string' } } }, ...extra },
});

describe('OpenAI chat → Cohere v2 chat', () => {
  it('keeps the roles, turns images into image_url parts and text-only parts into one string', () => {
    const request: ChatRequest = {
      model: 'command-a-vision-07-2025',
      messages: [
        { role: 'developer', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } },
          ],
        },
        { role: 'assistant', content: 'A square.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'And' },
            { type: 'text', text: 'this?' },
          ],
        },
      ],
    };
    expect(toCohereRequest(request).messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } },
        ],
      },
      { role: 'assistant', content: 'A square.' },
      { role: 'user', content: 'And\nthis?' },
    ]);
  });

  it('refuses parts Cohere cannot read', () => {
    const request: ChatRequest = {
      model: 'command-r',
      messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'x', format: 'wav' } }] }],
    };
    expect(() => toCohereRequest(request)).toThrow(ConversionError);
  });

  it('sends tool calls with their plan, tool results by call id, and drops empty assistant turns', () => {
    const body = toCohereRequest({
      model: 'command-r',
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: null,
          reasoning_content: 'I will look it up.',
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'Sunny' }] },
        { role: 'assistant', content: '' },
      ],
    });
    expect(body.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
        tool_plan: 'I will look it up.',
      },
      { role: 'tool', tool_call_id: 'c1', content: 'Sunny' },
    ]);
  });

  it.each([
    [undefined, ['a', 'b'], undefined],
    ['auto', ['a', 'b'], undefined],
    ['none', ['a', 'b'], 'NONE'],
    ['required', ['a', 'b'], 'REQUIRED'],
    // Cohere cannot name the tool: only that one is offered, and a call is required.
    [{ type: 'function', function: { name: 'b' } }, ['b'], 'REQUIRED'],
  ] as const)('tool_choice %j → tools %j, tool_choice %s', (choice, names, expected) => {
    const body = toCohereRequest({
      model: 'command-r',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [tool('a'), tool('b')],
      ...(choice ? { tool_choice: choice as ChatRequest['tool_choice'] } : {}),
    });
    expect(body.tools?.map((entry) => entry.function.name)).toEqual(names);
    expect(body.tool_choice).toBe(expected);
  });

  it('gives a tool without parameters an empty schema and asks for strict tools when one is strict', () => {
    const body = toCohereRequest({
      model: 'command-r',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'now', description: 'The time', strict: true } }],
    });
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'now', description: 'The time', parameters: { type: 'object', properties: {} } },
      },
    ]);
    expect(body.strict_tools).toBe(true);
  });

  it('renames the sampling fields and maps JSON modes and reasoning effort', () => {
    const body = toCohereRequest({
      model: 'command-a-reasoning-08-2025',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      max_completion_tokens: 64,
      max_tokens: 10,
      top_p: 0.5,
      top_k: 40,
      frequency_penalty: 0.1,
      presence_penalty: 0.2,
      stop: ['x', 'y'],
      response_format: { type: 'json_schema', json_schema: { name: 'r', schema: { type: 'object' } } },
      reasoning_effort: 'high',
    });
    expect(body).toEqual({
      model: 'command-a-reasoning-08-2025',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      max_tokens: 64,
      stop_sequences: ['x', 'y'],
      p: 0.5,
      k: 40,
      frequency_penalty: 0.1,
      presence_penalty: 0.2,
      response_format: { type: 'json_object', json_schema: { type: 'object' } },
    });
    expect(
      toCohereRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }], reasoning_effort: 'none' }).thinking,
    ).toEqual({ type: 'disabled' });
  });
});

describe('Cohere v2 answers → OpenAI', () => {
  it.each([
    ['COMPLETE', 'stop'],
    ['STOP_SEQUENCE', 'stop'],
    ['MAX_TOKENS', 'length'],
    ['TOOL_CALL', 'tool_calls'],
    ['TIMEOUT', 'length'],
    ['ERROR_TOXIC', 'content_filter'],
    ['ERROR', 'stop'],
    [undefined, 'stop'],
  ])('finish reason %s → %s', (reason, expected) => {
    expect(cohereFinishReason(reason)).toBe(expected);
  });

  it('bills the billed units, falls back to the tokens, and reports nothing without either', () => {
    expect(
      cohereUsage({
        billed_units: { input_tokens: 10, output_tokens: 3 },
        tokens: { input_tokens: 210, output_tokens: 3 },
      }),
    ).toEqual({ prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 });
    expect(cohereUsage({ tokens: { input_tokens: 210, output_tokens: 3 } })).toEqual({
      prompt_tokens: 210,
      completion_tokens: 3,
      total_tokens: 213,
    });
    expect(cohereUsage({ billed_units: {} })).toBeNull();
    expect(cohereUsage(undefined)).toBeNull();
  });

  it('joins the text, gives thinking and the tool plan as reasoning, and keeps the tool calls', () => {
    const answer = fromCohereAnswer(
      {
        id: 'abc',
        finish_reason: 'TOOL_CALL',
        message: {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'The user wants weather.' },
            { type: 'text', text: '' },
          ],
          tool_plan: 'I will call get_weather.',
          tool_calls: [
            { id: 'get_weather_1', type: 'function', function: { name: 'get_weather', arguments: '{"q":"x"}' } },
          ],
        },
        usage: { billed_units: { input_tokens: 7, output_tokens: 9 } },
      },
      'command-a-reasoning-08-2025',
    );
    expect(answer).toMatchObject({
      id: 'abc',
      object: 'chat.completion',
      model: 'command-a-reasoning-08-2025',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            reasoning_content: 'The user wants weather.\nI will call get_weather.',
            tool_calls: [
              { id: 'get_weather_1', type: 'function', function: { name: 'get_weather', arguments: '{"q":"x"}' } },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 7, completion_tokens: 9, total_tokens: 16 },
    });
    const plain = fromCohereAnswer(
      {
        message: {
          content: [
            { type: 'text', text: 'Hi ' },
            { type: 'text', text: 'there' },
          ],
        },
      },
      'm',
    );
    expect(plain.choices[0]!.message).toEqual({ role: 'assistant', content: 'Hi there' });
    expect(plain.usage).toBeUndefined();
  });

  it.each([
    [
      429,
      '{"id":"x","message":"You are past the per minute request limit"}',
      429,
      'You are past the per minute request limit',
    ],
    [401, '{"message":"invalid api token"}', 401, 'invalid api token'],
    [498, '{"message":"invalid token"}', 401, 'invalid token'],
    [400, '{"message":"invalid request: model not found"}', 400, 'invalid request: model not found'],
    [503, 'upstream connect error', 503, 'upstream connect error'],
  ])('error %i %s → %i', (status, text, expectedStatus, message) => {
    expect(cohereError(status, text)).toEqual({ status: expectedStatus, message, type: 'cohere_error', code: null });
  });
});

describe('Cohere v2 stream → OpenAI chunks', () => {
  const event = (type: string, rest: Record<string, unknown> = {}) => ({
    event: type,
    data: JSON.stringify({ type, ...rest }),
  });

  it('streams thinking, text and the usage chunk, and ends at message-end', () => {
    const converter = cohereToOpenAi('command-a-reasoning-08-2025', true);
    const state = newStreamState();
    let out = converter.push(event('message-start', { id: 'm1', delta: { message: { role: 'assistant' } } }), state, 1);
    out += converter.push(
      event('content-start', { index: 0, delta: { message: { content: { type: 'thinking', thinking: '' } } } }),
      state,
      2,
    );
    out += converter.push(
      event('content-delta', { index: 0, delta: { message: { content: { thinking: 'Hmm.' } } } }),
      state,
      3,
    );
    out += converter.push(event('content-end', { index: 0 }), state, 4);
    out += converter.push(
      event('content-start', { index: 1, delta: { message: { content: { type: 'text', text: '' } } } }),
      state,
      5,
    );
    out += converter.push(
      event('content-delta', { index: 1, delta: { message: { content: { text: 'Hi' } } } }),
      state,
      6,
    );
    out += converter.push(event('citation-start', { index: 0, delta: { message: { citations: {} } } }), state, 7);
    out += converter.push(
      event('message-end', {
        delta: {
          finish_reason: 'COMPLETE',
          usage: {
            billed_units: { input_tokens: 4, output_tokens: 2 },
            tokens: { input_tokens: 90, output_tokens: 2 },
          },
        },
      }),
      state,
      8,
    );
    out += converter.end(state);
    const chunks = chunksOf(out);
    expect(chunks.map((chunk) => [chunk.choices[0]?.delta, chunk.choices[0]?.finish_reason])).toEqual([
      [{ role: 'assistant', reasoning_content: 'Hmm.' }, null],
      [{ content: 'Hi' }, null],
      [{}, 'stop'],
      [undefined, undefined],
    ]);
    expect(chunks.every((chunk) => chunk.id === 'm1')).toBe(true);
    expect(chunks[3].usage).toEqual({ prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 });
    expect(state).toMatchObject({ text: 'Hmm.Hi', firstTokenMs: 3, finishReason: 'stop', sawDone: true });
    expect(out.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(out.match(/\[DONE\]/g)).toHaveLength(1);
  });

  it('streams tool calls by index: id and name first, then the argument pieces', () => {
    const converter = cohereToOpenAi('command-r', false);
    const state = newStreamState();
    let out = converter.push(event('tool-plan-delta', { delta: { message: { tool_plan: 'Plan.' } } }), state, 1);
    for (const [index, name] of ['a', 'b'].entries()) {
      out += converter.push(
        event('tool-call-start', {
          index,
          delta: { message: { tool_calls: { id: `${name}_1`, type: 'function', function: { name, arguments: '' } } } },
        }),
        state,
        2,
      );
      out += converter.push(
        event('tool-call-delta', { index, delta: { message: { tool_calls: { function: { arguments: '{}' } } } } }),
        state,
        3,
      );
      out += converter.push(event('tool-call-end', { index }), state, 4);
    }
    out += converter.push(
      event('message-end', {
        delta: { finish_reason: 'TOOL_CALL', usage: { billed_units: { input_tokens: 1, output_tokens: 1 } } },
      }),
      state,
      5,
    );
    const deltas = chunksOf(out).map((chunk) => chunk.choices[0]?.delta);
    expect(deltas).toEqual([
      { role: 'assistant', reasoning_content: 'Plan.' },
      { tool_calls: [{ index: 0, id: 'a_1', type: 'function', function: { name: 'a', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{}' } }] },
      { tool_calls: [{ index: 1, id: 'b_1', type: 'function', function: { name: 'b', arguments: '' } }] },
      { tool_calls: [{ index: 1, function: { arguments: '{}' } }] },
      {},
    ]);
    expect(state.finishReason).toBe('tool_calls');
    // No usage chunk when the client did not ask for it; the usage is still kept for billing.
    expect(state.usage).toEqual({ prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 });
  });

  it('turns a failed generation into an error chunk, and closes a stream cut before message-end', () => {
    const converter = cohereToOpenAi('command-r', true);
    const failed = converter.push(
      event('message-end', { delta: { finish_reason: 'ERROR', error: 'internal error' } }),
      newStreamState(),
      1,
    );
    expect(chunksOf(failed)).toEqual([
      { error: { message: 'internal error', type: 'upstream_error', code: 'cohere_error' } },
    ]);
    const state = newStreamState();
    const cut = cohereToOpenAi('command-r', true);
    cut.push(event('content-delta', { index: 0, delta: { message: { content: { text: 'Hi' } } } }), state, 1);
    expect(cut.end(state)).toBe('data: [DONE]\n\n');
  });
});

describe('embeddings and rerank', () => {
  it('asks /v2/embed for the texts, as search documents unless told, in the encoding the client wants', () => {
    expect(
      toCohereEmbed(JSON.stringify({ model: 'x', input: 'one', encoding_format: 'base64' }), 'embed-v4.0'),
    ).toEqual({
      model: 'embed-v4.0',
      texts: ['one'],
      input_type: 'search_document',
      embedding_types: ['base64'],
    });
    expect(
      toCohereEmbed(
        JSON.stringify({ input: ['a', 'b'], input_type: 'clustering', dimensions: 512, truncate: 'END' }),
        'embed-v4.0',
      ),
    ).toEqual({
      model: 'embed-v4.0',
      texts: ['a', 'b'],
      input_type: 'clustering',
      embedding_types: ['float'],
      output_dimension: 512,
      truncate: 'END',
    });
    expect(() => toCohereEmbed(JSON.stringify({ input: [1, 2] }), 'embed-v4.0')).toThrow(ConversionError);
  });

  it("answers Cohere's embeddings as OpenAI's list with the billed input tokens", () => {
    expect(
      fromCohereEmbed(
        { embeddings: { base64: ['AAAA', 'BBBB'] }, meta: { billed_units: { input_tokens: 6 } } },
        'embed-v4.0',
      ),
    ).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: 'AAAA' },
        { object: 'embedding', index: 1, embedding: 'BBBB' },
      ],
      model: 'embed-v4.0',
      usage: { prompt_tokens: 6, total_tokens: 6 },
    });
    expect(fromCohereEmbed({ embeddings: { float: [[0.5]] } }, 'm')).toEqual({
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding: [0.5] }],
      model: 'm',
    });
  });

  it('sends documents as strings and keeps return_documents for the gateway, which answers it itself', () => {
    const call = toCohereRerank(
      JSON.stringify({
        model: 'x',
        query: 'q',
        documents: ['a', { text: 'b' }, { title: 'c' }],
        top_n: 2,
        return_documents: true,
      }),
      'rerank-v3.5',
    );
    expect(call).toEqual({
      model: 'rerank-v3.5',
      query: 'q',
      documents: ['a', 'b', '{"title":"c"}'],
      top_n: 2,
      return_documents: true,
    });
    const split = splitReturnDocuments(JSON.stringify(call));
    expect(JSON.parse(split.body)).toEqual({
      model: 'rerank-v3.5',
      query: 'q',
      documents: ['a', 'b', '{"title":"c"}'],
      top_n: 2,
    });
    expect(split.documents).toEqual(['a', 'b', '{"title":"c"}']);
    const plain = JSON.stringify(toCohereRerank(JSON.stringify({ query: 'q', documents: ['a'], top_n: 0 }), 'm'));
    expect(splitReturnDocuments(plain)).toEqual({ body: plain, documents: null });
  });

  it('answers the results with their documents and the search units as usage', () => {
    const answer = withDocuments(
      {
        id: 'r1',
        results: [
          { index: 1, relevance_score: 0.9 },
          { index: 0, relevance_score: 0.1 },
        ],
        meta: { billed_units: { search_units: 2 } },
      },
      ['a', 'b'],
    );
    expect(fromCohereRerank(answer, 'rerank-v3.5')).toEqual({
      id: 'r1',
      model: 'rerank-v3.5',
      results: [
        { index: 1, relevance_score: 0.9, document: { text: 'b' } },
        { index: 0, relevance_score: 0.1, document: { text: 'a' } },
      ],
      usage: { prompt_tokens: 2, completion_tokens: 0, total_tokens: 2, search_units: 2 },
    });
    expect(fromCohereRerank({ results: [] }, 'm')).toEqual({ id: undefined, model: 'm', results: [] });
  });
});
