import { CohereClientV2, CohereError } from 'cohere-ai';
import type OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { addChannel, apiError, lastCallLog, priceModels } from './helpers/relay.js';
import { vendorChatSuite } from './helpers/vendor-chat.js';
import { COHERE_KEY, COHERE_TEMPLATE_TOKENS, startCohereMock } from './mock-upstream/providers/cohere.js';
import { embeddingBase64, embeddingFor } from './mock-upstream/text.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

const WEATHER_TOOL: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
};

describe('Cohere v2 (type 34) through the gateway', () => {
  const suite = vendorChatSuite({
    vendor: 'cohere',
    type: 34,
    key: COHERE_KEY,
    model: 'command-r',
    start: startCohereMock,
  });

  const sdk = (token = COHERE_KEY) => new CohereClientV2({ token, environment: suite.mock.baseUrl, maxRetries: 0 });

  const lastLog = () => lastCallLog(suite.server);

  let searchChannelId: number;
  beforeAll(async () => {
    // Rerank and embeddings on a second channel; a search unit priced like Cohere's $2 per 1,000 searches.
    searchChannelId = await addChannel(suite.root, {
      type: 34,
      key: COHERE_KEY,
      base_url: suite.mock.baseUrl,
      models: 'rerank-v3.5,embed-v4.0',
    });
    await priceModels(suite.server, suite.root, { 'rerank-v3.5': 1000, 'embed-v4.0': 2 });
  });

  describe("the mock, checked with Cohere's own SDK", () => {
    it('chat: the answer with billed units apart from the tokens read', async () => {
      const answer = await sdk().chat({ model: 'command-r', messages: [{ role: 'user', content: 'Say hello' }] });
      expect(answer.finishReason).toBe('COMPLETE');
      expect(answer.message.content?.[0]).toEqual({ type: 'text', text: 'Hello from cohere mock: command-r' });
      expect(answer.usage?.billedUnits).toEqual({ inputTokens: 5, outputTokens: 5 });
      expect(answer.usage?.tokens).toEqual({ inputTokens: 5 + COHERE_TEMPLATE_TOKENS, outputTokens: 5 });
    });

    it('chatStream: text events, then tool-plan and tool-call events, each ending with message-end', async () => {
      const events: string[] = [];
      let text = '';
      for await (const event of await sdk().chatStream({
        model: 'command-r',
        messages: [{ role: 'user', content: 'Say hello' }],
      })) {
        events.push(event.type);
        if (event.type === 'content-delta') text += event.delta?.message?.content?.text ?? '';
        if (event.type === 'message-end') {
          expect(event.delta?.finishReason).toBe('COMPLETE');
          expect(event.delta?.usage?.billedUnits).toEqual({ inputTokens: 5, outputTokens: 5 });
        }
      }
      expect(text).toBe('Hello from cohere mock: command-r');
      expect(events[0]).toBe('message-start');
      expect(events.slice(-2)).toEqual(['content-end', 'message-end']);

      let args = '';
      const kinds = new Set<string>();
      for await (const event of await sdk().chatStream({
        model: 'command-r',
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
      })) {
        kinds.add(event.type);
        if (event.type === 'tool-call-start')
          expect(event.delta?.message?.toolCalls?.function?.name).toBe('get_weather');
        if (event.type === 'tool-call-delta') args += event.delta?.message?.toolCalls?.function?.arguments ?? '';
        if (event.type === 'message-end') expect(event.delta?.finishReason).toBe('TOOL_CALL');
      }
      expect(JSON.parse(args)).toEqual({ query: 'Weather in Paris?' });
      expect([...kinds]).toEqual([
        'message-start',
        'tool-plan-delta',
        'tool-call-start',
        'tool-call-delta',
        'tool-call-end',
        'message-end',
      ]);
    });

    it('rerank and embed', async () => {
      const ranked = await sdk().rerank({
        model: 'rerank-v3.5',
        query: 'red apples',
        documents: ['green pears', 'red apples and more'],
        topN: 1,
      });
      expect(ranked.results).toEqual([{ index: 1, relevanceScore: 0.999 }]);
      expect(ranked.meta?.billedUnits?.searchUnits).toBe(1);
      const embedded = await sdk().embed({
        model: 'embed-v4.0',
        texts: ['one two', 'three'],
        inputType: 'search_document',
        embeddingTypes: ['float', 'base64'],
      });
      expect(embedded.embeddings.float).toEqual([embeddingFor('one two'), embeddingFor('three')]);
      expect(embedded.embeddings.base64).toEqual([
        embeddingBase64(embeddingFor('one two')),
        embeddingBase64(embeddingFor('three')),
      ]);
      expect(embedded.meta?.billedUnits?.inputTokens).toBe(3);
    });

    it('refusals: 429 for a rate limit, 401 for a wrong key, with the message in the body', async () => {
      const limited = await sdk()
        .chat({ model: 'command-r', messages: [{ role: 'user', content: '[limit]' }] })
        .catch((error: unknown) => error);
      expect(limited).toBeInstanceOf(CohereError);
      expect(limited).toMatchObject({ statusCode: 429, body: { message: expect.stringMatching(/limited/) } });
      const refused = await sdk('wrong')
        .rerank({ model: 'rerank-v3.5', query: 'q', documents: ['d'] })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ statusCode: 401, body: { message: 'invalid api token' } });
    });
  });

  it('sends the v2 chat body: roles kept, sampling fields renamed, the key as a bearer token', async () => {
    await suite.openai.chat.completions.create({
      model: 'command-r',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Say hello' }] },
      ],
      temperature: 0.5,
      top_p: 0.9,
      stop: 'END',
      max_tokens: 100,
      seed: 7,
      response_format: { type: 'json_object' },
    });
    const request = suite.mock.requests[0]!;
    expect(request.path).toBe('/v2/chat');
    expect(request.headers.authorization).toBe(`Bearer ${COHERE_KEY}`);
    expect(request.body as WireJson).toEqual({
      model: 'command-r',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      max_tokens: 100,
      stop_sequences: ['END'],
      temperature: 0.5,
      p: 0.9,
      seed: 7,
      response_format: { type: 'json_object' },
    });
  });

  it('ends an answer cut by max_tokens with finish_reason length, billed for what was written', async () => {
    const answer = await suite.openai.chat.completions.create({
      model: 'command-r',
      messages: [{ role: 'user', content: 'Say hello' }],
      max_tokens: 2,
    });
    expect(answer.choices[0]).toMatchObject({ message: { content: 'Hello from ' }, finish_reason: 'length' });
    // 5 prompt + 2 completion × 2
    expect(await lastLog()).toMatchObject({ prompt_tokens: 5, completion_tokens: 2, quota: 9 });
  });

  it('calls a tool and takes its result back, whole and streamed, billed from the billed units', async () => {
    const question = { role: 'user' as const, content: 'Weather in Paris?' };
    const answer = await suite.openai.chat.completions.create({
      model: 'command-r',
      messages: [question],
      tools: [WEATHER_TOOL],
      tool_choice: 'required',
    });
    const choice = answer.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect((choice.message as WireJson).reasoning_content).toBe('I will call get_weather.');
    const call = choice.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
    expect(call).toMatchObject({
      type: 'function',
      id: expect.stringMatching(/^get_weather_/),
      function: { name: 'get_weather', arguments: '{"query":"Weather in Paris?"}' },
    });
    expect((suite.mock.requests[0]!.body as WireJson).tools).toEqual([WEATHER_TOOL]);
    expect((suite.mock.requests[0]!.body as WireJson).tool_choice).toBe('REQUIRED');
    // prompt: 3 words + 3 = 6; completion: plan 4 + name 1 + arguments 3 = 8. 6 + 8 × 2 = 22
    expect(await lastLog()).toMatchObject({ prompt_tokens: 6, completion_tokens: 8, quota: 22 });

    const stream = await suite.openai.chat.completions.create({
      model: 'command-r',
      messages: [question],
      tools: [WEATHER_TOOL],
      stream: true,
      stream_options: { include_usage: true },
    });
    const calls: Array<{ id?: string; name: string; arguments: string }> = [];
    let finish: string | null = null;
    let reasoning = '';
    for await (const chunk of stream) {
      reasoning += (chunk.choices[0]?.delta as WireJson)?.reasoning_content ?? '';
      for (const piece of chunk.choices[0]?.delta.tool_calls ?? []) {
        calls[piece.index] ??= { id: piece.id, name: '', arguments: '' };
        calls[piece.index]!.name += piece.function?.name ?? '';
        calls[piece.index]!.arguments += piece.function?.arguments ?? '';
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(reasoning).toBe('I will call get_weather.');
    expect(calls).toEqual([
      { id: expect.stringMatching(/^get_weather_/), name: 'get_weather', arguments: '{"query":"Weather in Paris?"}' },
    ]);
    expect(finish).toBe('tool_calls');
    expect(await lastLog()).toMatchObject({ is_stream: 1, prompt_tokens: 6, completion_tokens: 8, quota: 22 });

    suite.mock.requests.length = 0;
    const final = await suite.openai.chat.completions.create({
      model: 'command-r',
      messages: [
        question,
        { ...choice.message, content: null } as OpenAI.ChatCompletionAssistantMessageParam,
        { role: 'tool', tool_call_id: call.id, content: 'Sunny' },
      ],
      tools: [WEATHER_TOOL],
    });
    expect(final.choices[0]!).toMatchObject({
      finish_reason: 'stop',
      message: { content: 'Hello from cohere mock: command-r' },
    });
    expect((suite.mock.requests[0]!.body as WireJson).messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        tool_plan: 'I will call get_weather.',
        tool_calls: [{ id: call.id, type: 'function', function: call.function }],
      },
      { role: 'tool', tool_call_id: call.id, content: 'Sunny' },
    ]);
  });

  it('raises an error Cohere reports midway through a stream', async () => {
    const stream = await suite.openai.chat.completions.create({
      model: 'command-r',
      messages: [{ role: 'user', content: 'Say hello [stream-error]' }],
      stream: true,
    });
    let text = '';
    const failure = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((error: unknown) => error);
    expect(text).toBe('Hello from ');
    expect(failure).toMatchObject({ message: expect.stringMatching(/internal server error, please retry/) });
  });

  it('reranks through /v2/rerank, gives the documents back when asked and bills the search units', async () => {
    const documents = ['green pears', { text: 'red apples and more' }, 'red wine'];
    const rerank = async (body: Record<string, unknown>) => {
      const response = await fetch(`${suite.server.baseUrl}/v1/rerank`, {
        method: 'POST',
        headers: { authorization: `Bearer ${suite.tokenKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'rerank-v3.5', query: 'red apples', ...body }),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as WireJson;
    };
    const ranked = await rerank({ documents, top_n: 2, return_documents: true });
    expect(ranked.results).toEqual([
      { index: 1, relevance_score: 0.999, document: { text: 'red apples and more' } },
      { index: 2, relevance_score: 0.6647, document: { text: 'red wine' } },
    ]);
    expect(ranked.usage).toEqual({ prompt_tokens: 1, completion_tokens: 0, total_tokens: 1, search_units: 1 });
    const request = suite.mock.requests.at(-1)!;
    expect(request.path).toBe('/v2/rerank');
    // Cohere v2 takes plain strings and has no return_documents: the gateway keeps that to itself.
    expect(request.body as WireJson).toEqual({
      model: 'rerank-v3.5',
      query: 'red apples',
      documents: ['green pears', 'red apples and more', 'red wine'],
      top_n: 2,
    });
    // 1 search unit × 1000
    expect(await lastLog()).toMatchObject({ model_name: 'rerank-v3.5', prompt_tokens: 1, quota: 1000 });

    // 150 documents are two searches; without return_documents the answer holds indexes and scores only.
    const many = await rerank({ documents: Array.from({ length: 150 }, (_, i) => `doc ${i}`) });
    expect(many.results).toHaveLength(150);
    expect(many.results[0]).toEqual({ index: 0, relevance_score: 0.3333 });
    expect(await lastLog()).toMatchObject({ prompt_tokens: 2, quota: 2000 });
  });

  it('embeds through /v2/embed in base64 (the OpenAI SDK default) or floats, billed from the billed input tokens', async () => {
    const input = ['one two three', 'four five'];
    const result = await suite.openai.embeddings.create({ model: 'embed-v4.0', input });
    expect(result.data.map((item) => item.embedding)).toEqual(input.map(embeddingFor));
    expect(result.usage).toEqual({ prompt_tokens: 5, total_tokens: 5 });
    expect(suite.mock.requests.at(-1)!.body as WireJson).toEqual({
      model: 'embed-v4.0',
      texts: input,
      input_type: 'search_document',
      embedding_types: ['base64'],
    });
    // 5 tokens × 2
    expect(await lastLog()).toMatchObject({ model_name: 'embed-v4.0', prompt_tokens: 5, quota: 10 });

    const floats = await suite.openai.embeddings.create({
      model: 'embed-v4.0',
      input: 'one two',
      encoding_format: 'float',
      dimensions: 256,
      input_type: 'search_query',
    } as OpenAI.EmbeddingCreateParams);
    expect(floats.data[0]!.embedding).toEqual(embeddingFor('one two'));
    expect(suite.mock.requests.at(-1)!.body as WireJson).toEqual({
      model: 'embed-v4.0',
      texts: ['one two'],
      input_type: 'search_query',
      embedding_types: ['float'],
      output_dimension: 256,
    });
  });

  it('passes the channel test button on its reranker', async () => {
    const result = await suite.root.get<{ success: boolean }>(`/api/channel/test/${searchChannelId}`);
    expect(result).toMatchObject({ success: true, message: '' });
    expect(suite.mock.requests.map((request) => [request.path, request.body])).toEqual([
      ['/v2/rerank', { model: 'rerank-v3.5', query: 'hi', documents: ['hi', 'there'], top_n: 1 }],
    ]);
  });

  it('refuses token-id embedding input before calling Cohere', async () => {
    const error = await apiError(suite.openai.embeddings.create({ model: 'embed-v4.0', input: [[1, 2, 3]] }));
    expect(error.status).toBe(400);
    expect(suite.mock.requests).toHaveLength(0);
  });

  it("fetches the channel's model list from /v1/models", async () => {
    // The mock listens on 127.0.0.1, which the server reaches only when private addresses are allowed.
    await suite.root.put('/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' });
    const result = await suite.root.get<string[]>(`/api/channel/fetch_models/${suite.channelId}`);
    expect(result).toMatchObject({
      success: true,
      data: ['command-a-03-2025', 'command-r7b-12-2024', 'embed-v4.0', 'rerank-v3.5'],
    });
  });
});
