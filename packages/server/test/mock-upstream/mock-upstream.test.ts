import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI, { AzureOpenAI, toFile } from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../helpers/wait.js';
import {
  CLAUDE_MODELS,
  embeddingFor,
  GEMINI_MODELS,
  type MockUpstream,
  type MultipartBody,
  OPENAI_MODELS,
  speechBytes,
  startMockUpstream,
} from './index.js';

/** Socket close events land a moment after the client call returns. */
const SOCKET_EVENTS = { timeoutMs: 2000, everyMs: 10 };

// The official SDKs are the judges of the wire format: if they parse what the mock sends, a gateway relaying to
// the mock meets the same bytes it would meet upstream.

let mock: MockUpstream;

beforeAll(async () => {
  mock = await startMockUpstream();
});
afterAll(async () => {
  await mock.close();
});
afterEach(() => {
  mock.reset();
});

const openai = (options: { apiKey?: string; timeout?: number } = {}) =>
  // logLevel off: the SDK logs every unparsable record, which the malformed cases produce on purpose.
  new OpenAI({ apiKey: 'sk-channel-key', baseURL: `${mock.baseUrl}/v1`, maxRetries: 0, logLevel: 'off', ...options });
const anthropic = (options: { apiKey?: string; timeout?: number } = {}) =>
  new Anthropic({ apiKey: 'sk-ant-channel', baseURL: mock.baseUrl, maxRetries: 0, ...options });
const genai = (apiKey = 'gemini-channel-key') => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: mock.baseUrl } });

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;
/** Parsed body of a raw `fetch`, for the checks that look at the bytes on the wire rather than through an SDK. */
async function wire(response: Response): Promise<WireJson> {
  return response.json();
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

const chatMessages: OpenAI.Chat.ChatCompletionMessageParam[] = [
  { role: 'system', content: 'Be brief' },
  { role: 'user', content: 'Say hello to me' },
];
// 2 + 4 words + 3 per message × 2 = 12; the reply "Hello from openai mock: gpt-4o-mini" has 5 words.
const CHAT_PROMPT = 12;

describe('OpenAI chat completions', () => {
  it('answers non-streaming with the default text and word-count usage, and records what it got', async () => {
    const completion = await openai().chat.completions.create({ model: 'gpt-4o-mini', messages: chatMessages });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0].message).toMatchObject({
      role: 'assistant',
      content: 'Hello from openai mock: gpt-4o-mini',
    });
    expect(completion.choices[0].finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: CHAT_PROMPT, completion_tokens: 5, total_tokens: 17 });
    expect(mock.requests).toHaveLength(1);
    expect(mock.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      aborted: false,
      body: { model: 'gpt-4o-mini', messages: chatMessages },
    });
    expect(mock.requests[0].headers.authorization).toBe('Bearer sk-channel-key');
  });

  it('streams one chunk per word, finish_reason on the last, then the usage chunk with choices [] and [DONE]', async () => {
    const stream = await openai().chat.completions.create({
      model: 'gpt-4o',
      messages: chatMessages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    const contents = chunks.slice(1, -1).map((c) => c.choices[0].delta.content);
    expect(contents).toEqual(['Hello ', 'from ', 'openai ', 'mock: ', 'gpt-4o']);
    expect(chunks.at(-2)?.choices[0].finish_reason).toBe('stop');
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toMatchObject({ prompt_tokens: CHAT_PROMPT, completion_tokens: 5, total_tokens: 17 });
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
  });

  it('has the exact SSE framing on the wire, and no usage chunk unless include_usage', async () => {
    const response = await fetch(`${mock.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await response.text();
    const records = text.split('\n\n').filter(Boolean);
    expect(records.every((r) => r.startsWith('data: '))).toBe(true);
    expect(records.at(-1)).toBe('data: [DONE]');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    const parsed = records.slice(0, -1).map((r) => JSON.parse(r.slice(6)));
    expect(parsed.every((c) => c.object === 'chat.completion.chunk' && c.usage === undefined)).toBe(true);
    expect(parsed.every((c) => c.choices.length === 1)).toBe(true);
  });

  it('puts reasoning in reasoning_content and a tool call in tool_calls with finish_reason tool_calls', async () => {
    const toolCall = { name: 'get_weather', arguments: '{"city":"Paris"}' };
    mock.enqueue('openai.chat', { kind: 'ok', reasoning: 'think about it', toolCall });
    const completion = await openai().chat.completions.create({ model: 'gpt-4o', messages: chatMessages });
    const message = completion.choices[0].message as OpenAI.Chat.ChatCompletionMessage & {
      reasoning_content?: string;
    };
    expect(message.reasoning_content).toBe('think about it');
    expect(message.content).toBeNull();
    expect(message.tool_calls?.[0]).toMatchObject({ type: 'function', function: toolCall });
    expect(completion.choices[0].finish_reason).toBe('tool_calls');
    // 3 reasoning words + 1 name word + 1 argument word.
    expect(completion.usage).toMatchObject({
      completion_tokens: 5,
      completion_tokens_details: { reasoning_tokens: 3 },
    });

    mock.enqueue('openai.chat', { kind: 'ok', text: 'Checking now', toolCall });
    const final = await openai()
      .chat.completions.stream({ model: 'gpt-4o', messages: chatMessages })
      .finalChatCompletion();
    expect(final.choices[0].message.content).toBe('Checking now');
    expect(final.choices[0].message.tool_calls?.[0]).toMatchObject({ function: toolCall });
    expect(final.choices[0].finish_reason).toBe('tool_calls');
  });

  it("omits usage entirely with usage 'none', and reports cached tokens when asked", async () => {
    mock.enqueue('openai.chat', { kind: 'ok', usage: 'none' }, { kind: 'ok', usage: 'none' });
    const plain = await openai().chat.completions.create({ model: 'gpt-4o', messages: chatMessages });
    expect(plain.usage).toBeUndefined();
    const stream = await openai().chat.completions.create({
      model: 'gpt-4o',
      messages: chatMessages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.some((c) => c.choices.length === 0 || c.usage)).toBe(false);

    mock.enqueue('openai.chat', { kind: 'ok', text: 'one two', usage: { prompt: 100, completion: 7, cached: 40 } });
    const cached = await openai().chat.completions.create({ model: 'gpt-4o', messages: chatMessages });
    expect(cached.choices[0].message.content).toBe('one two');
    expect(cached.usage).toMatchObject({
      prompt_tokens: 100,
      completion_tokens: 7,
      total_tokens: 107,
      prompt_tokens_details: { cached_tokens: 40 },
    });
  });

  it('serves legacy completions, streamed and not', async () => {
    const completion = await openai().completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Once upon' });
    expect(completion.choices[0].text).toBe('Hello from openai mock: gpt-3.5-turbo-instruct');
    expect(completion.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 5 });
    const stream = await openai().completions.create({
      model: 'gpt-3.5-turbo-instruct',
      prompt: 'Once upon',
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.text ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Hello from openai mock: gpt-3.5-turbo-instruct');
    expect(usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 });
  });
});

describe('OpenAI other endpoints', () => {
  it('embeds deterministically, in base64 (the SDK default) and as floats', async () => {
    const viaBase64 = await openai().embeddings.create({
      model: 'text-embedding-3-small',
      input: ['hello world', 'foo'],
    });
    expect(mock.requests[0].body).toMatchObject({ encoding_format: 'base64' });
    expect(viaBase64.data.map((d) => d.embedding)).toEqual([embeddingFor('hello world'), embeddingFor('foo')]);
    expect(viaBase64.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
    const viaFloat = await openai().embeddings.create({
      model: 'text-embedding-3-small',
      input: 'hello world',
      encoding_format: 'float',
    });
    expect(viaFloat.data[0]).toMatchObject({ object: 'embedding', index: 0, embedding: embeddingFor('hello world') });
    expect(viaFloat.data[0].embedding).toHaveLength(8);
  });

  it('generates n image urls', async () => {
    const images = await openai().images.generate({ model: 'dall-e-3', prompt: 'a red fox', n: 2 });
    expect(images.data?.map((d) => d.url)).toEqual([
      'https://images.mock-upstream.test/image-1.png',
      'https://images.mock-upstream.test/image-2.png',
    ]);
    expect(images.data?.[0].revised_prompt).toBe('a red fox');
  });

  it('speaks audio bytes proportional to the input', async () => {
    const response = await openai().audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello there' });
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBe(32 * 'Hello there'.length);
    expect(bytes.equals(speechBytes('Hello there'))).toBe(true);
  });

  it('transcribes a multipart upload and records its fields and file', async () => {
    const audio = Buffer.alloc(40_000, 7);
    const result = await openai().audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(audio, 'speech.mp3', { type: 'audio/mpeg' }),
    });
    expect(result.text).toBe('Hello from openai mock: whisper-1');
    const body = mock.requests[0].body as MultipartBody;
    expect(body.fields.model).toBe('whisper-1');
    expect(body.files[0]).toMatchObject({ field: 'file', filename: 'speech.mp3', size: audio.length });
    expect(body.files[0].data.equals(audio)).toBe(true);
    mock.enqueue('openai.transcriptions', { kind: 'ok', text: 'custom words' });
    const verbose = await openai().audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(audio, 'speech.mp3'),
      response_format: 'verbose_json',
    });
    // 40,000 bytes → ceil(40000 / 16000) = 3 seconds.
    expect(verbose).toMatchObject({ text: 'custom words', duration: 3, language: 'english' });
    const translated = await openai().audio.translations.create({
      model: 'whisper-1',
      file: await toFile(audio, 'a.mp3'),
    });
    expect(translated.text).toBe('Hello from openai mock: whisper-1');
  });

  it('moderates, flagging only inputs that contain [flag]', async () => {
    const result = await openai().moderations.create({ input: ['nice text', 'bad [flag] text'] });
    expect(result.results.map((r) => r.flagged)).toEqual([false, true]);
    expect(result.results[1].categories.violence).toBe(true);
    expect(result.results[0].category_scores.violence).toBeLessThan(0.01);
  });

  it('lists and retrieves models', async () => {
    const page = await openai().models.list();
    expect(page.data.map((m) => m.id)).toEqual([...OPENAI_MODELS]);
    expect(page.data[0]).toMatchObject({ object: 'model', owned_by: 'system' });
    expect((await openai().models.retrieve('gpt-4o')).id).toBe('gpt-4o');
    const missing = await rejection(openai().models.retrieve('nope'));
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('reranks Jina/Cohere style with total_tokens usage', async () => {
    const response = await fetch(`${mock.baseUrl}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'jina-reranker-v2',
        query: 'red fox',
        documents: ['a blue whale', 'the red fox'],
        top_n: 2,
      }),
    });
    const body = await wire(response);
    expect(body.results.map((r: { index: number }) => r.index)).toEqual([1, 0]);
    expect(body.results[0].relevance_score).toBeGreaterThan(body.results[1].relevance_score);
    expect(body.usage).toEqual({ total_tokens: 8 });
  });

  it('answers the Responses API, non-streaming and as a typed event stream', async () => {
    const response = await openai().responses.create({
      model: 'gpt-4o',
      input: 'Tell me a joke',
      instructions: 'Be funny',
    });
    expect(response.output_text).toBe('Hello from openai mock: gpt-4o');
    // 4 + 2 words + 3 × (input message + instructions).
    expect(response.usage).toMatchObject({ input_tokens: 12, output_tokens: 5, total_tokens: 17 });

    const events: string[] = [];
    const stream = openai().responses.stream({ model: 'gpt-4o', input: 'Tell me a joke' });
    stream.on('event', (event) => events.push(event.type));
    const final = await stream.finalResponse();
    expect(final.output_text).toBe('Hello from openai mock: gpt-4o');
    expect(final.usage).toMatchObject({ input_tokens: 7, output_tokens: 5 });
    expect(events[0]).toBe('response.created');
    expect(events.filter((e) => e === 'response.output_text.delta')).toHaveLength(5);
    expect(events.at(-1)).toBe('response.completed');

    mock.enqueue('openai.responses', {
      kind: 'ok',
      reasoning: 'hmm',
      toolCall: { name: 'lookup', arguments: '{"q":1}' },
    });
    const withTool = await openai().responses.stream({ model: 'gpt-4o', input: 'x' }).finalResponse();
    expect(withTool.output.map((o) => o.type)).toEqual(['reasoning', 'function_call']);
    expect(withTool.output[1]).toMatchObject({ name: 'lookup', arguments: '{"q":1}' });
  });
});

describe('Azure OpenAI', () => {
  const azure = (apiVersion = '2024-10-21') =>
    new AzureOpenAI({
      apiKey: 'azure-key',
      endpoint: mock.baseUrl,
      apiVersion,
      deployment: 'gpt4o-prod',
      maxRetries: 0,
    });

  it('answers on the deployment path with api-key and api-version, streaming too', async () => {
    const completion = await azure().chat.completions.create({ model: 'gpt-4o', messages: chatMessages });
    expect(completion.choices[0].message.content).toBe('Hello from azure mock: gpt-4o');
    const recorded = mock.requests[0];
    expect(recorded.path).toBe('/openai/deployments/gpt4o-prod/chat/completions');
    expect(recorded.query['api-version']).toBe('2024-10-21');
    expect(recorded.headers['api-key']).toBe('azure-key');

    const stream = await azure().chat.completions.create({
      model: 'gpt-4o',
      messages: chatMessages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    // Azure opens with a filter-only chunk that has no choices.
    expect(chunks[0].choices).toEqual([]);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('Hello from azure mock: gpt-4o');
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: CHAT_PROMPT, completion_tokens: 5 });
  });

  it('answers 401 without api-key and 404 without api-version, in Azure shape', async () => {
    const url = `${mock.baseUrl}/openai/deployments/d/chat/completions`;
    const init = {
      method: 'POST',
      body: JSON.stringify({ messages: [] }),
      headers: { 'content-type': 'application/json' },
    };
    const noKey = await fetch(`${url}?api-version=2024-10-21`, init);
    expect(noKey.status).toBe(401);
    expect((await wire(noKey)).error.code).toBe('401');
    const noVersion = await fetch(url, { ...init, headers: { ...init.headers, 'api-key': 'k' } });
    expect(noVersion.status).toBe(404);
    expect(await wire(noVersion)).toEqual({ error: { code: '404', message: 'Resource not found' } });
  });
});

describe('Anthropic messages', () => {
  const params = {
    model: 'claude-sonnet-4-20250514',
    max_tokens: 100,
    system: 'You are terse',
    messages: [{ role: 'user' as const, content: 'Say hello to me' }],
  };
  // 3 + 4 words + 3 × (system + one message) = 13; reply "Hello from claude mock: claude-sonnet-4-20250514" = 5.

  it('answers non-streaming with input/output usage and records the x-api-key', async () => {
    const message = await anthropic().messages.create(params);
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-20250514',
      stop_reason: 'end_turn',
      content: [{ type: 'text', text: 'Hello from claude mock: claude-sonnet-4-20250514' }],
      usage: { input_tokens: 13, output_tokens: 5, cache_read_input_tokens: 0 },
    });
    // This SDK version sends the key as a Bearer token; Anthropic (and the mock) accept it there or in x-api-key.
    const { authorization, 'x-api-key': apiKey } = mock.requests[0].headers;
    expect(apiKey ?? authorization).toMatch(/^(Bearer )?sk-ant-channel$/);
    expect(mock.requests[0].headers['anthropic-version']).toBeTruthy();
  });

  it('streams the exact event sequence; the SDK final message carries the usage', async () => {
    mock.enqueue('claude.messages', { kind: 'ok', text: 'Hi there', usage: { prompt: 20, completion: 9, cached: 6 } });
    const final = await anthropic().messages.stream(params).finalMessage();
    expect(final.content).toMatchObject([{ type: 'text', text: 'Hi there' }]);
    expect(final.usage).toMatchObject({ input_tokens: 20, output_tokens: 9, cache_read_input_tokens: 6 });
    expect(final.stop_reason).toBe('end_turn');

    const response = await fetch(`${mock.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'k', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ ...params, stream: true }),
    });
    const records = (await response.text()).split('\n\n').filter(Boolean);
    const names = records.map((r) => /^event: (\S+)\ndata: /.exec(r)?.[1]);
    expect(names).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      ...Array(5).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const delta = JSON.parse(records.at(-2)?.split('data: ')[1] ?? '{}');
    expect(delta).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 5 },
    });
  });

  it('streams thinking and tool_use blocks the SDK can assemble', async () => {
    mock.enqueue('claude.messages', {
      kind: 'ok',
      reasoning: 'let me see',
      toolCall: { name: 'calc', arguments: '{"x":2}' },
    });
    const final = await anthropic().messages.stream(params).finalMessage();
    expect(final.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
    expect(final.content[1]).toMatchObject({ name: 'calc', input: { x: 2 } });
    expect(final.stop_reason).toBe('tool_use');
  });

  it('rejects a bad key and a missing anthropic-version in Anthropic error shape', async () => {
    const error = await rejection(anthropic({ apiKey: 'invalid-key' }).messages.create(params));
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error', message: 'invalid x-api-key' },
    });
    const response = await fetch(`${mock.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
      body: JSON.stringify(params),
    });
    expect(response.status).toBe(400);
    expect((await wire(response)).error.type).toBe('invalid_request_error');
  });

  it('lists Claude models on /v1/models for Anthropic clients', async () => {
    const page = await anthropic().models.list();
    expect(page.data.map((m) => m.id)).toEqual(CLAUDE_MODELS.map((m) => m.id));
    expect(page.data[0]).toMatchObject({ type: 'model', display_name: 'Claude Sonnet 4' });
  });
});

describe('Gemini', () => {
  const contents = [{ role: 'user', parts: [{ text: 'Say hello to me' }] }];
  // 4 words + 3 × 1 content = 7; reply "Hello from gemini mock: gemini-2.0-flash" = 5.

  it('answers generateContent with candidates and usageMetadata, key in x-goog-api-key', async () => {
    const response = await genai().models.generateContent({ model: 'gemini-2.0-flash', contents });
    expect(response.text).toBe('Hello from gemini mock: gemini-2.0-flash');
    expect(response.usageMetadata).toMatchObject({ promptTokenCount: 7, candidatesTokenCount: 5, totalTokenCount: 12 });
    expect(mock.requests[0].path).toBe('/v1beta/models/gemini-2.0-flash:generateContent');
    expect(mock.requests[0].headers['x-goog-api-key']).toBe('gemini-channel-key');
  });

  it('streams with alt=sse, usageMetadata on the last chunk', async () => {
    mock.enqueue('gemini.stream', { kind: 'ok', usage: { prompt: 10, completion: 4, cached: 3 } });
    const stream = await genai().models.generateContentStream({ model: 'gemini-2.0-flash', contents });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.text).join('')).toBe('Hello from gemini mock: gemini-2.0-flash');
    expect(chunks).toHaveLength(5);
    expect(chunks.slice(0, -1).every((c) => c.usageMetadata === undefined)).toBe(true);
    expect(chunks.at(-1)?.usageMetadata).toMatchObject({
      promptTokenCount: 10,
      candidatesTokenCount: 4,
      totalTokenCount: 14,
      cachedContentTokenCount: 3,
    });
    expect(mock.requests[0].query.alt).toBe('sse');
  });

  it('streams a JSON array without alt=sse', async () => {
    const response = await fetch(`${mock.baseUrl}/v1beta/models/gemini-2.0-flash:streamGenerateContent?key=k`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents }),
    });
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const chunks = await wire(response);
    expect(chunks).toHaveLength(5);
    expect(chunks.at(-1)).toMatchObject({
      candidates: [{ finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 5, totalTokenCount: 12 },
    });
  });

  it('accepts ?key= and answers a missing or invalid key in Gemini error shape', async () => {
    const url = `${mock.baseUrl}/v1beta/models/gemini-2.0-flash:generateContent`;
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents }),
    };
    expect((await fetch(`${url}?key=abc`, init)).status).toBe(200);
    const missing = await fetch(url, init);
    expect(missing.status).toBe(403);
    expect((await wire(missing)).error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' });
    const invalid = await rejection(
      genai('invalid-key').models.generateContent({ model: 'gemini-2.0-flash', contents }),
    );
    expect(invalid).toBeInstanceOf(ApiError);
    expect((invalid as ApiError).status).toBe(400);
    expect((invalid as ApiError).message).toContain('API_KEY_INVALID');
  });

  it('embeds and lists models', async () => {
    const embedded = await genai().models.embedContent({ model: 'text-embedding-004', contents: 'hello world' });
    expect(embedded.embeddings?.[0].values).toEqual(embeddingFor('hello world'));
    const pager = await genai().models.list();
    const names = [];
    for await (const model of pager) names.push(model.name);
    expect(names).toEqual(GEMINI_MODELS.map((m) => m.name));
  });
});

describe('Ollama and balances', () => {
  it('lists Ollama tags', async () => {
    const body = await wire(await fetch(`${mock.baseUrl}/api/tags`));
    expect(body.models[0]).toMatchObject({
      name: 'llama3:latest',
      model: 'llama3:latest',
      details: { format: 'gguf' },
    });
  });

  it('reports each provider balance in its own shape', async () => {
    const get = async (path: string) =>
      wire(await fetch(`${mock.baseUrl}${path}`, { headers: { authorization: 'Bearer k' } }));
    mock.enqueue('balance.openai', { kind: 'balance', value: 42 });
    const subscription = await get('/v1/dashboard/billing/subscription');
    const usage = await get('/v1/dashboard/billing/usage?start_date=2025-01-01&end_date=2025-01-31');
    expect(subscription.hard_limit_usd - usage.total_usage / 100).toBe(42);
    expect(mock.requests[1].query).toEqual({ start_date: '2025-01-01', end_date: '2025-01-31' });

    mock.setDefault('balance.deepseek', { kind: 'balance', value: 12.5 });
    const deepseek = await get('/user/balance');
    expect(deepseek.is_available).toBe(true);
    expect(deepseek.balance_infos.find((b: { currency: string }) => b.currency === 'CNY').total_balance).toBe('12.50');

    mock.enqueue('balance.openrouter', { kind: 'balance', value: 7 });
    const credits = (await get('/api/v1/credits')).data;
    expect(credits.total_credits - credits.total_usage).toBe(7);
    expect((await get('/v1/user/info')).data.totalBalance).toBe('100');
    expect((await get('/v1/users/me/balance')).data.available_balance).toBe(100);
  });
});

describe('failure behaviours', () => {
  it('turns a status behaviour into each provider error the SDKs recognise', async () => {
    mock.enqueue('openai.chat', { kind: 'status', status: 429, message: 'Slow down' });
    const openaiError = await rejection(openai().chat.completions.create({ model: 'gpt-4o', messages: chatMessages }));
    expect(openaiError).toBeInstanceOf(OpenAI.RateLimitError);
    expect((openaiError as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect((openaiError as Error).message).toBe('429 Slow down');
    expect((openaiError as InstanceType<typeof OpenAI.APIError>).type).toBe('requests');

    mock.enqueue('claude.messages', { kind: 'status', status: 529 });
    const claudeError = await rejection(
      anthropic().messages.create({ model: 'claude-x', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(claudeError).toBeInstanceOf(Anthropic.APIError);
    expect((claudeError as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
    expect((claudeError as InstanceType<typeof Anthropic.APIError>).type).toBe('overloaded_error');
    expect((claudeError as InstanceType<typeof Anthropic.APIError>).apiMessage).toBe('Overloaded');

    mock.enqueue('gemini.generate', { kind: 'status', status: 503 });
    const geminiError = await rejection(genai().models.generateContent({ model: 'gemini-2.0-flash', contents: 'hi' }));
    expect(geminiError).toBeInstanceOf(ApiError);
    expect((geminiError as ApiError).status).toBe(503);
    expect(JSON.parse((geminiError as ApiError).message).error).toMatchObject({ code: 503, status: 'UNAVAILABLE' });
  });

  it('answers the magic keys: invalid-key → 401 invalid_api_key, quota-key → 429 insufficient_quota', async () => {
    const invalid = await rejection(
      openai({ apiKey: 'invalid-key' }).chat.completions.create({ model: 'gpt-4o', messages: chatMessages }),
    );
    expect(invalid).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((invalid as InstanceType<typeof OpenAI.APIError>).code).toBe('invalid_api_key');
    const quota = await rejection(
      openai({ apiKey: 'quota-key' }).chat.completions.create({ model: 'gpt-4o', messages: chatMessages }),
    );
    expect((quota as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect((quota as InstanceType<typeof OpenAI.APIError>).type).toBe('insufficient_quota');
    expect((quota as Error).message).toBe(
      '429 You exceeded your current quota, please check your plan and billing details.',
    );
  });

  it('hangs until the SDK times out, and records the abort', async () => {
    mock.enqueue('openai.chat', { kind: 'hang' });
    const error = await rejection(
      openai({ timeout: 200 }).chat.completions.create({ model: 'gpt-4o', messages: chatMessages }),
    );
    expect(error).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    await until(() => mock.requests[0]?.aborted === true && mock.openRequests() === 0, SOCKET_EVENTS);
  });

  it('counts an open hung request and marks it aborted when the client aborts', async () => {
    mock.enqueue('claude.messages', { kind: 'hang' });
    const controller = new AbortController();
    const pending = rejection(
      anthropic().messages.create(
        { model: 'claude-x', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] },
        { signal: controller.signal },
      ),
    );
    await until(() => mock.openRequests() === 1, SOCKET_EVENTS);
    expect(mock.requests[0].aborted).toBe(false);
    controller.abort();
    expect(await pending).toBeInstanceOf(Anthropic.APIUserAbortError);
    await until(() => mock.openRequests() === 0, SOCKET_EVENTS);
    expect(mock.requests[0].aborted).toBe(true);
  });

  it('marks a stream the client dropped halfway as aborted', async () => {
    mock.enqueue('openai.chat', { kind: 'ok', chunkDelayMs: 30 });
    const stream = await openai().chat.completions.create({ model: 'gpt-4o', messages: chatMessages, stream: true });
    let seen = 0;
    for await (const _ of stream) {
      seen += 1;
      if (seen === 2) break; // leaving the loop aborts the request
    }
    await until(() => mock.openRequests() === 0, SOCKET_EVENTS);
    expect(mock.requests[0].aborted).toBe(true);
  });

  it('resets before any byte', async () => {
    mock.enqueue('openai.chat', { kind: 'reset-before' });
    const error = await rejection(openai().chat.completions.create({ model: 'gpt-4o', messages: chatMessages }));
    expect(error).toBeInstanceOf(OpenAI.APIConnectionError);
    // A reset the mock did itself is not a client abort.
    expect(mock.requests[0].aborted).toBe(false);
  });

  it('resets a stream after N content chunks', async () => {
    mock.enqueue('openai.chat', { kind: 'reset-after-chunks', chunks: 2 });
    const stream = await openai().chat.completions.create({ model: 'gpt-4o', messages: chatMessages, stream: true });
    const contents: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const chunk of stream)
          if (chunk.choices[0]?.delta.content) contents.push(chunk.choices[0].delta.content);
      })(),
    );
    expect(contents).toEqual(['Hello ', 'from ']);
    expect(error).toBeInstanceOf(Error);

    mock.enqueue('claude.messages', { kind: 'reset-after-chunks', chunks: 1 });
    const claudeError = await rejection(
      anthropic()
        .messages.stream({ model: 'claude-x', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] })
        .finalMessage(),
    );
    expect(claudeError).toBeInstanceOf(Error);

    mock.enqueue('openai.embeddings', { kind: 'reset-after-chunks', chunks: 1 });
    const cut = await rejection(openai().embeddings.create({ model: 'text-embedding-3-small', input: 'x' }));
    expect(cut).toBeInstanceOf(Error);
  });

  it('sends malformed JSON and broken SSE data lines', async () => {
    mock.enqueue('openai.chat', { kind: 'malformed' }, { kind: 'malformed' });
    const plain = await rejection(openai().chat.completions.create({ model: 'gpt-4o', messages: chatMessages }));
    expect(plain).toBeInstanceOf(SyntaxError);
    const stream = await openai().chat.completions.create({ model: 'gpt-4o', messages: chatMessages, stream: true });
    const streamed = await rejection(
      (async () => {
        for await (const _ of stream) {
          // drain
        }
      })(),
    );
    expect(streamed).toBeInstanceOf(SyntaxError);

    mock.enqueue('gemini.stream', { kind: 'malformed' });
    const gemini = await rejection(
      (async () => {
        const chunks = await genai().models.generateContentStream({ model: 'gemini-2.0-flash', contents: 'hi' });
        for await (const _ of chunks) {
          // drain
        }
      })(),
    );
    expect(gemini).toBeInstanceOf(Error);
  });
});

describe('behaviour scripting', () => {
  it('plays the queue in order, then the default, then plain success once the default is cleared', async () => {
    const ask = () =>
      openai()
        .chat.completions.create({ model: 'gpt-4o', messages: chatMessages })
        .then(
          (c) => c.choices[0].message.content,
          (e: InstanceType<typeof OpenAI.APIError>) => e.status,
        );
    mock.enqueue('openai.chat', { kind: 'status', status: 500 }, { kind: 'status', status: 502 });
    mock.setDefault('openai.chat', { kind: 'ok', text: 'from the default' });
    expect(await ask()).toBe(500);
    expect(await ask()).toBe(502);
    expect(await ask()).toBe('from the default');
    expect(await ask()).toBe('from the default');
    mock.setDefault('openai.chat', null);
    expect(await ask()).toBe('Hello from openai mock: gpt-4o');
    expect(mock.requests).toHaveLength(5);

    mock.enqueue('openai.chat', { kind: 'status', status: 500 });
    mock.setDefault('openai.chat', { kind: 'status', status: 503 });
    mock.reset();
    expect(mock.requests).toHaveLength(0);
    expect(await ask()).toBe('Hello from openai mock: gpt-4o');
  });

  it('delays the answer and the chunks', async () => {
    mock.enqueue('openai.chat', { kind: 'ok', delayMs: 80, chunkDelayMs: 20 });
    const started = Date.now();
    const stream = await openai().chat.completions.create({ model: 'gpt-4o', messages: chatMessages, stream: true });
    for await (const _ of stream) {
      // drain
    }
    // 80 ms before the head, then 20 ms before each of the 6 records after the first.
    expect(Date.now() - started).toBeGreaterThanOrEqual(180);
  });

  it('answers unknown paths with an OpenAI-shaped 404', async () => {
    const response = await fetch(`${mock.baseUrl}/v1/nowhere`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect((await wire(response)).error.message).toBe('Invalid URL (POST /v1/nowhere)');
  });
});
