import { ApiError, GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { addChannel, addToken, lastCallLog, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

describe("Gemini's native API through the gateway (@google/genai SDK)", () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;
  const genai = (apiKey = key) => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: server.baseUrl } });

  const lastLog = () => lastCallLog(server);

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 24, key: 'gemini-channel-key', base_url: mock.baseUrl, models: 'gemini-2.0-flash' });
    await addChannel(root, { type: 1, key: 'sk-openai', base_url: mock.baseUrl, models: 'gpt-4o-mini' });
    await priceModels(server, root, { 'gemini-2.0-flash': 1, 'gpt-4o-mini': 1 });
    key = (await addToken(root, { unlimited_quota: true })).replace(/^sk-/, '');
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('a Gemini channel gets the body as sent and the answer comes back untouched, billed from usageMetadata', async () => {
    const answer = await genai().models.generateContent({
      model: 'gemini-2.0-flash',
      contents: 'Say hello',
      config: { temperature: 0.3, maxOutputTokens: 64 },
    });
    expect(answer.text).toMatch(/mock/i);
    const upstream = mock.requests[0]!;
    expect(upstream.path).toBe('/v1beta/models/gemini-2.0-flash:generateContent');
    expect(upstream.headers['x-goog-api-key']).toBe('gemini-channel-key');
    expect((upstream.body as WireJson).generationConfig).toEqual({ temperature: 0.3, maxOutputTokens: 64 });
    const log = await lastLog();
    expect(log).toMatchObject({
      model_name: 'gemini-2.0-flash',
      prompt_tokens: answer.usageMetadata!.promptTokenCount,
      completion_tokens: answer.usageMetadata!.candidatesTokenCount,
    });
    expect(log.quota).toBeGreaterThan(0);
  });

  it('streams from a Gemini channel as SSE, usage from the last record', async () => {
    let text = '';
    let usage: { candidatesTokenCount?: number } | undefined;
    for await (const chunk of await genai().models.generateContentStream({
      model: 'gemini-2.0-flash',
      contents: 'Say hello',
    })) {
      text += chunk.text ?? '';
      if (chunk.usageMetadata) usage = chunk.usageMetadata;
    }
    expect(text).toMatch(/mock/i);
    expect(mock.requests[0]!.path).toBe('/v1beta/models/gemini-2.0-flash:streamGenerateContent');
    expect((await lastLog()).completion_tokens).toBe(usage!.candidatesTokenCount);
  });

  it('an OpenAI channel serves a Gemini client, non-streaming and streaming, both converted', async () => {
    const answer = await genai().models.generateContent({
      model: 'gpt-4o-mini',
      contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }],
      config: { systemInstruction: 'Be brief.', maxOutputTokens: 32 },
    });
    expect(answer.text).toMatch(/mock/i);
    expect(answer.candidates![0]!.finishReason).toBe('STOP');
    expect(mock.requests[0]!.path).toBe('/v1/chat/completions');
    expect(mock.requests[0]!.body).toMatchObject({
      model: 'gpt-4o-mini',
      max_tokens: 32,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
    });
    expect(answer.usageMetadata!.candidatesTokenCount).toBe((await lastLog()).completion_tokens);

    mock.reset();
    let text = '';
    let last: { finishReason?: string; usage?: number } = {};
    for await (const chunk of await genai().models.generateContentStream({ model: 'gpt-4o-mini', contents: 'Hi' })) {
      text += chunk.text ?? '';
      if (chunk.candidates?.[0]?.finishReason) {
        last = { finishReason: chunk.candidates[0].finishReason, usage: chunk.usageMetadata?.candidatesTokenCount };
      }
    }
    expect(text).toMatch(/mock/i);
    expect(mock.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(last.finishReason).toBe('STOP');
    expect(last.usage).toBe((await lastLog()).completion_tokens);
  });

  it('lists usable models in Gemini shape and answers errors in Google error shape', async () => {
    const listed: string[] = [];
    for await (const model of await genai().models.list()) listed.push(model.name ?? '');
    expect(listed.sort()).toEqual(['models/gemini-2.0-flash', 'models/gpt-4o-mini']);

    const refused = await genai('not-a-key')
      .models.generateContent({ model: 'gemini-2.0-flash', contents: 'x' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(401);
    const raw = await fetch(`${server.baseUrl}/v1beta/models/gemini-2.0-flash:generateContent?key=${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"contents": []}',
    });
    expect(raw.status).toBe(400);
    expect(((await raw.json()) as WireJson).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    const unsupported = await fetch(`${server.baseUrl}/v1beta/models/gemini-2.0-flash:batchEmbedContents?key=${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unsupported.status).toBe(501);
  });
});
